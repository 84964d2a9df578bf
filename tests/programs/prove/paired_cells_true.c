// Proved since the interference closure no longer widens an instance's private variables
// (another instance never writes them) and invariants leave out facts about dead locals.
// The shape of the SV-COMP stack tasks (25_stack_longer): `alloc` hands out the odd indices
// 1, 3, 5 of a pool of 7 cells (index 0 is "no cell") or 0 when the pool is full, so a
// returned index `n != 0` has `n + 1 < 7`. The join of the two returns, 0 and the odd
// `[1, 5]`, is `[0, 5]` without the congruence; widening it in the closure jumped to the
// next threshold, 6 (`CELLS - 1`), which nothing excluded any more. The check `r ⇒ top != 0`
// needs private keys (push's result tags the partitions); after the branch on `r` alone, the
// partitions left had all called `acquire` in `push`, so its dead pointer parameter gained a
// fact the location before the branch lacked, and consecution failed.
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
  if (next + 1 > CELLS) {
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
