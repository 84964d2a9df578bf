// FALSE twin of state_flag_stack_true.c: every thread resets `top`, not only the first, so a
// late thread can empty the stack between another's push and its check.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
int m = 0, m2 = 0, state = 0, top, next = 1;
void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }
void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }
void __VERIFIER_atomic_check(int r) { if (r && top == 0) reach_error(); }
int alloc(void) {
  int i;
  __VERIFIER_atomic_acquire(&m);
  if (next + 1 > 99) {
    __VERIFIER_atomic_release(&m);
    i = 0;
  } else {
    i = next;
    next = next + 2;
    __VERIFIER_atomic_release(&m);
  }
  return i;
}
int push(void) {
  int n = alloc();
  if (n == 0) return 0;
  __VERIFIER_atomic_acquire(&m);
  top = n;
  __VERIFIER_atomic_release(&m);
  return 1;
}
void *thr(void *arg) {
  __VERIFIER_atomic_acquire(&m2);
  top = 0;
  state = 1;
  __VERIFIER_atomic_release(&m2);
  while (1) {
    int r = push();
    __VERIFIER_atomic_check(r);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
