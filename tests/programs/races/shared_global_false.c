// expect: FALSE unwind: 2
// The twin of thread_local_true.c without __thread: one variable, written by all.
#include <pthread.h>
int mine;
void *work(void *arg) { mine = mine + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  mine = 9;
  return 0;
}
