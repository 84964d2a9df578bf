// expect: TRUE unwind: 2
// Each worker reads g, a[x % 3] and *(a + x % 3) into v, whose value reaches nothing (no
// assertion, branch, index or write uses it); g ends 1 whatever the order. The explorers drop
// those reads (ir::faint, the index is inside a[] since x is in 0..5): same verdict, fewer
// executions. Twin: faint_read_false.c, where v reaches an assertion.
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
