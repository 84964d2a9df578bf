// Unboundedly many threads take slots of two cells from a bump allocator under a lock (0 when
// it is exhausted) and check the slot's second cell is inside the pool; the first thread
// initialises the pool under a second lock. The allocator's result joins the exhausted
// branch's 0 with the odd slots, and the interference widens the states: the certificate
// must stay inductive after the descending iterations (a widened interference closure there
// once left `slot <= 40` before `s := slot` but `s <= 39` after).
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int memory[41];
int next = 1, m = 0, m2 = 0, state = 0, top;
void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }
void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }
int alloc(void) {
  int idx = -1;
  __VERIFIER_atomic_acquire(&m);
  if (next + 1 > 41) {
    __VERIFIER_atomic_release(&m);
    idx = 0;
  } else {
    idx = next;
    next += 2;
    __VERIFIER_atomic_release(&m);
  }
  return idx;
}
void *thr(void *arg) {
  __VERIFIER_atomic_acquire(&m2);
  switch (state) {
  case 0:
    top = 0;
    state = 1;
  case 1:
    __VERIFIER_atomic_release(&m2);
    while (1) {
      int s = alloc();
      if (s != 0) {
        memory[s] = 0;
        __VERIFIER_atomic_acquire(&m);
        memory[s + 1] = top;
        top = s;
        __VERIFIER_atomic_release(&m);
      }
      if (s + 1 > 40) reach_error();
    }
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
