// expect: FALSE unwind: 2
// A thread creates a thread, joins it, then creates two more that race on v's target. The
// witness names the creations of the later threads before the first one's write that the
// join waits for; a replay that follows it must let the joined thread run when the joiner
// waits, not give up the joiner's edges (the join reads its handle in a step of its own).
#include <pthread.h>
#include <stdlib.h>
extern void reach_error(void);
char *v;

void *alloc(void *arg) {
  v = malloc(1);
  return 0;
}
void *put_x(void *arg) {
  v[0] = 'X';
  return 0;
}
void *put_y(void *arg) {
  v[0] = 'Y';
  return 0;
}
void *starter(void *arg) {
  pthread_t a, b, c;
  pthread_create(&a, 0, alloc, 0);
  pthread_join(a, 0);
  pthread_create(&b, 0, put_x, 0);
  pthread_create(&c, 0, put_y, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, starter, 0);
  pthread_join(t, 0);
  if (v[0] != 'X')
    reach_error();
  return 0;
}
