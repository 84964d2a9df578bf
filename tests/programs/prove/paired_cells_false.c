// FALSE twin of paired_cells_true.c: the pool's bound is off by one (`next > CELLS`), so the
// fourth allocation hands out index 7, and `n + 1 >= CELLS` reaches the error (one thread
// pushing four times, or four threads pushing once each).
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
#define CELLS 7
int memory[CELLS];
int m = 0, m2 = 0, state = 0, top, next = 1;
void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }
void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }
void __VERIFIER_atomic_check(int r) {
  if (r) {
    if (top == 0) reach_error();
  }
}
int alloc(void) {
  int i = -1;
  __VERIFIER_atomic_acquire(&m);
  if (next > CELLS) {
    __VERIFIER_atomic_release(&m);
    i = 0;
  } else {
    i = next;
    next = next + 2;
    __VERIFIER_atomic_release(&m);
  }
  return i;
}
int push(int d) {
  int n = alloc();
  if (n == 0) return 0;
  if (n + 1 >= CELLS) reach_error();
  memory[n] = d;
  __VERIFIER_atomic_acquire(&m);
  memory[n + 1] = top;
  top = n;
  __VERIFIER_atomic_release(&m);
  return 1;
}
void *thr(void *arg) {
  __VERIFIER_atomic_acquire(&m2);
  if (state == 0) {
    top = 0;
    state = 1;
  }
  __VERIFIER_atomic_release(&m2);
  int d = __VERIFIER_nondet_int();
  while (1) {
    int r = push(d);
    __VERIFIER_atomic_check(r);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
