// expect: FALSE unwind: 3
// Two instances of one thread function (created in a loop) each allocate a cell, store 1 in
// it and, under a mutex, write 5 into the cell the previous instance published, then publish
// their own. A cell made per instance is reached by the other instance through the shared
// pointer `last`, so it is not private to its maker. Interleaving: worker A allocates, stores
// 1, publishes its cell; worker B stores 1 in its own cell, writes 5 into A's cell; A then
// reads 5 and the assertion fails. Loops: 2 iterations, unwind 3.
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
    *last = 5;
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
