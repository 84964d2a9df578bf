// expect: TRUE unwind: 2
// Twin of main_local_read_by_thread_false.c: x is initialised, so the thread reads 0.
#include <pthread.h>
extern void reach_error(void);
_Bool *gp;

void *T(void *a) {
  _Bool l = *gp;
  if (l)
    reach_error();
  return 0;
}

int main(void) {
  _Bool x = 0;
  gp = &x;
  pthread_t t;
  pthread_create(&t, 0, T, 0);
  pthread_join(t, 0);
  return 0;
}
