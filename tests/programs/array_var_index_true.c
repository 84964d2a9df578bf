// expect: TRUE unwind: 2
// T1 writes 5 to a[i] for a nondet i restricted to {0, 1}; T2 writes 7 to a[2]. The
// variable index never aliases a[2], so a[2] == 7 after the joins whatever the order.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a[3];

void *writer_var(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i == 0 || i == 1);
  a[i] = 5;
  return 0;
}

void *writer_two(void *arg) {
  a[2] = 7;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer_var, 0);
  pthread_create(&t2, 0, writer_two, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a[2] == 7 && a[0] + a[1] == 5);
  return 0;
}
