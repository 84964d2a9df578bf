// expect: FALSE unwind: 2
// T1 takes the mutex and stops there (a failed assumption), holding it for good; T2 fails
// once it has the mutex. With T2 first, T2 takes the mutex and reaches the assertion; in the
// order with T1 first, T2 waits forever. An explorer must reverse the race between T1's lock
// and T2's lock that never ran.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m;

void *t1(void *a) {
  pthread_mutex_lock(&m);
  __VERIFIER_assume(0);
  pthread_mutex_unlock(&m);
  return 0;
}

void *t2(void *a) {
  pthread_mutex_lock(&m);
  assert(0);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&m, 0);
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  return 0;
}
