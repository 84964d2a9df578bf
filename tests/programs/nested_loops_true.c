// expect: TRUE unwind: 4
// A thread fills a 2x3 matrix with i * 3 + j in nested loops; main sums it with nested loops
// after the join: 0 + 1 + ... + 5 == 15. Loops: outer 2 and inner 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

int mat[2][3];

void *fill(void *arg) {
  int i, j;
  for (i = 0; i < 2; i++)
    for (j = 0; j < 3; j++)
      mat[i][j] = i * 3 + j;
  return 0;
}

int main(void) {
  pthread_t t;
  int i, j, sum = 0;
  pthread_create(&t, 0, fill, 0);
  pthread_join(t, 0);
  for (i = 0; i < 2; i++)
    for (j = 0; j < 3; j++)
      sum += mat[i][j];
  assert(sum == 15);
  return 0;
}
