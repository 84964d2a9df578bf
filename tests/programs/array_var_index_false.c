// expect: FALSE unwind: 2
// T1 writes 5 to a[i] for a nondet i in [0, 2]; T2 writes 7 to a[1]. With i == 1 and T1
// scheduled after T2, a[1] ends as 5.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a[3];

void *writer_var(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i <= 2);
  a[i] = 5;
  return 0;
}

void *writer_one(void *arg) {
  a[1] = 7;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer_var, 0);
  pthread_create(&t2, 0, writer_one, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a[1] == 7);
  return 0;
}
