// expect: FALSE unwind: 3
// A hand-over by a plain flag: the spinning read of flag races with the write (no atomics).
#include <pthread.h>
int flag, item;
void *producer(void *arg) { item = 17; flag = 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!flag) {}
  return item;
}
