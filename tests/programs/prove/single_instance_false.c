// FALSE twin of single_instance_true.c: the thread is created once more, and the two
// increments can both happen before a check.
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
  pthread_create(&t, 0, thr, 0);
  return 0;
}
