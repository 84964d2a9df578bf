// expect: UNKNOWN
// main creates threads forever, each incrementing its own counter slot: the state space is
// infinite (every state has one thread more than the last). The search must give up, never
// answer TRUE.
#include <pthread.h>
#include <assert.h>

int x = 0;

void *inc(void *arg) {
  x = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  while (1) {
    pthread_create(&t, 0, inc, 0);
  }
  return 0;
}
