// expect: TRUE unwind: 2
// main locks the mutex before creating the thread and unlocks it only after joining it, so
// the thread's trylock always finds the mutex held and returns non-zero (EBUSY).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int result = -1;

void *child(void *arg) {
  result = pthread_mutex_trylock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  pthread_create(&t, 0, child, 0);
  pthread_join(t, 0);
  pthread_mutex_unlock(&m);
  assert(result != 0);
  return 0;
}
