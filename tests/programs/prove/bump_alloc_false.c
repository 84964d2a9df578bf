// FALSE twin of bump_alloc_true.c: the allocator hands out one slot too many (its second
// cell is 42, outside the pool of 41 cells checked).
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
  if (next + 1 > 43) {
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
