// Unboundedly many workers change `count` only while holding the user-level lock `m` and
// restore it before releasing; the checker thread, holding `m`, always sees 0.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int count = 0;
int m = 0;
void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }
void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }
void *worker(void *arg) {
  __VERIFIER_atomic_acquire(&m);
  count = count + 1;
  count = count - 1;
  __VERIFIER_atomic_release(&m);
  return 0;
}
void *checker(void *arg) {
  while (1) {
    __VERIFIER_atomic_acquire(&m);
    if (count != 0) reach_error();
    __VERIFIER_atomic_release(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, checker, 0);
  while (1) pthread_create(&t, 0, worker, 0);
  return 0;
}
