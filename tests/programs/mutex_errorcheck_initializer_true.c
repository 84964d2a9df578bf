// expect: TRUE unwind: 2
// glibc's static initialiser of an error-checking mutex, local to main: relocking by the owner
// returns EDEADLK.
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <pthread.h>

int main(void) {
  pthread_mutex_t m = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP;
  pthread_mutex_lock(&m);
  int r = pthread_mutex_lock(&m);
  assert(r == EDEADLK);
  return 0;
}
