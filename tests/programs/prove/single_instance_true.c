// A thread created once (outside any loop) increments `x` without a lock and checks it saw
// its own write: it is the only writer.
#include <pthread.h>
extern void reach_error(void);
int x = 0;
void *thr(void *arg) {
  x = x + 1;
  if (x != 1) reach_error();
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, thr, 0);
  return 0;
}
