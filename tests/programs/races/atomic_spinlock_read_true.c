// expect: TRUE unwind: 2
// A lock made of __VERIFIER_atomic functions that wait (assume) for the flag: each thread
// reads the flag outside them only while it holds the lock, when no other thread's atomic
// function can write it; no race.
#include <pthread.h>
extern void __VERIFIER_assume(int);
volatile _Bool lock = 0;
void __VERIFIER_atomic_acquire(void) { __VERIFIER_assume(lock == 0); lock = 1; }
void __VERIFIER_atomic_release(void) { __VERIFIER_assume(lock == 1); lock = 0; }
void *worker(void *arg) {
  __VERIFIER_atomic_acquire();
  _Bool held = lock;
  __VERIFIER_atomic_release();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  return 0;
}
