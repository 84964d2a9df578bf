// expect: TRUE unwind: 3
// Twin of instances_cross_write_false.c where the write into the previous instance's cell
// stores the value that cell already holds (1): every cell only ever holds 1, so each
// worker's assertion holds whatever the interleaving. Loops: 2 iterations, unwind 3.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int *last = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int *mine = malloc(sizeof(int));
  if (mine == 0)
    return 0;
  *mine = 1;
  pthread_mutex_lock(&m);
  if (last != 0)
    *last = 1;
  last = mine;
  pthread_mutex_unlock(&m);
  assert(*mine == 1);
  return 0;
}

int main(void) {
  pthread_t t[2];
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
