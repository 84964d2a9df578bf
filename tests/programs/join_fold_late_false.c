// expect: FALSE unwind: 2
// Twin of join_fold_order_true.c: the violation needs `two` to read x after `one` wrote it
// and y before main, which writes y right after joining `one`, does. The rvf explorer takes
// the join of a finished thread into a node's extension (rvf::joins): the run in which the
// join comes late must still be found.
#include <pthread.h>
#include <assert.h>
int x = 0, y = 0;
void *one(void *a) { x = 1; return 0; }
void *two(void *a) {
  int sx = x;
  int sy = y;
  if (sx == 1) assert(sy == 1);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  pthread_join(a, 0);
  y = 1;
  pthread_join(b, 0);
  return 0;
}
