// expect: TRUE unwind: 2
// main sets n before creating the threads and nothing writes it afterwards: every read of
// n sees 2. Twin: unwritten_after_create_false.c (the rvf explorer takes reads of a global
// nothing writes after the first thread creation into a node's extension: rvf::guarded).
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
  n = 2;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
