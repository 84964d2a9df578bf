// expect: TRUE unwind: 2
// main writes y only after joining `one`, which wrote x first: whoever reads y == 1 reads
// x == 1 after it. Twins: join_fold_late_false.c, join_fold_early_false.c (the rvf explorer
// takes the join of a finished thread into a node's extension, rvf::joins).
#include <pthread.h>
#include <assert.h>
int x = 0, y = 0;
void *one(void *a) { x = 1; return 0; }
void *two(void *a) {
  int sy = y;
  int sx = x;
  if (sy == 1) assert(sx == 1);
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
