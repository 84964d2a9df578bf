// FALSE twin of retry_slot_true.c: the allocator hands out one slot too many, whose second
// cell `memory[66]` is outside the array.
#include <pthread.h>
extern void __VERIFIER_assume(int);
int memory[65];
int next = 1, top = 0;
void __VERIFIER_atomic_alloc(int *slot) {
  if (next + 1 > 67)
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
