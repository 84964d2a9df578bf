// expect: TRUE unwind: 2
// The twin of unneeded_write_value_needed_later_false.c: once the reader has seen a write,
// y never holds its initial 0 again, so it cannot see 2 and then 0.
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
  if (ga == 2 && gb == 0)
    reach_error();
  return 0;
}
