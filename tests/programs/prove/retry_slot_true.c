// Unboundedly many threads take a slot from a bump allocator, then link it into a list in a
// compare-and-swap retry loop, writing the slot's second cell on every attempt. The slot is
// not written in the retry loop: widening at its head must not push its bound past the
// allocator's (the write `memory[slot + 1]` stays inside the array).
#include <pthread.h>
extern void __VERIFIER_assume(int);
int memory[65];
int next = 1, top = 0;
void __VERIFIER_atomic_alloc(int *slot) {
  if (next + 1 > 65)
    *slot = 0;
  else
    *slot = next, next += 2;
}
void __VERIFIER_atomic_cas(int *v, int e, int u, int *r) {
  if (*v == e) {
    *v = u;
    *r = 1;
  } else {
    *r = 0;
  }
}
void push(int d) {
  int slot, old, ok;
  __VERIFIER_atomic_alloc(&slot);
  if (slot == 0)
    __VERIFIER_assume(0);
  memory[slot] = d;
  while (1) {
    old = top;
    memory[slot + 1] = old;
    __VERIFIER_atomic_cas(&top, old, slot, &ok);
    if (ok) return;
  }
}
void *thr(void *arg) {
  while (1)
    push(7);
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
