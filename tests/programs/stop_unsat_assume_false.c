// expect: FALSE unwind: 2
// A failed assumption that can never hold must not be cut (concolic::stops, condition 2).
// T1 draws x and assumes x > 5 && x < 3: it always stops there, having done nothing visible.
// T2 fails its assertion for y == 4. main blocks on joining T2, so the explorers run T1
// first from that node; T1's step has no accesses, so no race puts T2 into that node's
// backtrack set: T2 runs only below T1's stopping outcome. Cutting it would answer TRUE.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

void *t1(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 5 && x < 3);
  return 0;
}

void *t2(void *arg) {
  int y = __VERIFIER_nondet_int();
  assert(y != 4);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(b, 0);
  pthread_join(a, 0);
  return 0;
}
