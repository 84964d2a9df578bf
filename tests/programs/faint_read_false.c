// expect: FALSE unwind: 2
// Twin of faint_read_true.c where v reaches an assertion: worker 1 reads g = 0, worker 2
// writes g = 1 and a[x % 3] = 1 (same x), worker 1 reads 1 twice: v = 2 fails the assert.
// Dropping the reads would hide the bug; the read of v keeps them.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a[3];
int g;

void *w(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 5);
  int v = 0;
  v = v + g;
  v = v + a[x % 3];
  v = v + *(a + x % 3);
  g = 1;
  a[x % 3] = 1;
  assert(v != 2);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, 0);
  pthread_create(&t2, 0, w, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(g == 1);
  return 0;
}
