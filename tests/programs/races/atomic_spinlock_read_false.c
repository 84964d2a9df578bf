// expect: FALSE unwind: 2
// As atomic_spinlock_read_true.c, but each thread reads the flag before it takes the lock:
// that read and the other thread's atomic acquire (its write of the flag) race.
#include <pthread.h>
extern void __VERIFIER_assume(int);
volatile _Bool lock = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lock == 0); lock = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(lock == 1); lock = 0; }
void *worker(void *arg) {
  _Bool held = lock;
  __VERIFIER_atomic_acquire();
  __VERIFIER_atomic_release();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  return 0;
}
