// expect: TRUE unwind: 2
// Both threads only read the shared variable (written before the creations): reads never
// race with reads. The failing assertion is no violation of no-data-race.
#include <pthread.h>
#include <assert.h>
int config;
void *work(void *arg) { int c = config; assert(c == 0); return 0; }
int main(void) {
  config = 4;
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  return config;
}
