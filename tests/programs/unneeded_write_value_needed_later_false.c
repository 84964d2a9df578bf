// expect: FALSE unwind: 2
// The reader sees y == 2 and then y == 1: the run is w2, the first read, w1, the second
// read. Before the writes, no read needs y's current value 0, but the second read needs the
// value w1 writes: taking w1 first without branching (a greedy rule that looked at the
// current value only) would leave no order in which both reads see their values, and main's
// check after the joins would never be reached with them.
#include <pthread.h>
extern void reach_error(void);
int y = 0;
int ga = 0, gb = 0;

void *w1(void *arg) {
  y = 1;
  return 0;
}

void *w2(void *arg) {
  y = 2;
  return 0;
}

void *reader(void *arg) {
  int a = y;
  int b = y;
  ga = a;
  gb = b;
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  pthread_create(&t1, 0, w1, 0);
  pthread_create(&t2, 0, w2, 0);
  pthread_create(&t3, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  if (ga == 2 && gb == 1)
    reach_error();
  return 0;
}
