// Workers change `count` under one of two user-level locks and restore it before releasing
// (+1 then -1 under `a`, -1 then +1 under `b`); the checker, holding both locks, sees 0.
// Needs to know how far each lock's holder has got (phase ghosts), as in SV-COMP's
// 33_double_lock_p1.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
int count = 0;
int a = 0, b = 0;
void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }
void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }
void __VERIFIER_atomic_inc(void) { count++; }
void __VERIFIER_atomic_dec(void) { count--; }
void *worker(void *arg) {
  if (__VERIFIER_nondet_int()) {
    __VERIFIER_atomic_acquire(&a);
    __VERIFIER_atomic_inc();
    __VERIFIER_atomic_dec();
    __VERIFIER_atomic_release(&a);
  } else {
    __VERIFIER_atomic_acquire(&b);
    __VERIFIER_atomic_dec();
    __VERIFIER_atomic_inc();
    __VERIFIER_atomic_release(&b);
  }
  return 0;
}
void *checker(void *arg) {
  while (1) {
    __VERIFIER_atomic_acquire(&a);
    __VERIFIER_atomic_acquire(&b);
    if (count != 0) reach_error();
    __VERIFIER_atomic_release(&b);
    __VERIFIER_atomic_release(&a);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, checker, 0);
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
