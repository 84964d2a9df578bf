// expect: FALSE unwind: 2
// Twin of unwritten_after_create_true.c whose main sets n only after creating the first
// worker: that worker may read 0. A write after the first creation makes n written
// (sharing::guards), so its reads stay reads of their own in the rvf explorer.
#include <pthread.h>
#include <assert.h>
int n = 0;
int done = 0;
void *worker(void *arg) {
  int k = n;
  assert(k == 2);
  done = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  n = 2;
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
