// expect: FALSE unwind: 3
// Twin of nested_loops_mutex_true.c without the mutex: increments of the two threads can
// interleave between read and write and get lost, so total == 8 can fail (e.g. both threads
// read 0 in their first iteration). Loops: 2 iterations each, unwind 3.
#include <pthread.h>
#include <assert.h>

int total = 0;

void *worker(void *arg) {
  int i, j;
  for (i = 0; i < 2; i++)
    for (j = 0; j < 2; j++)
      total = total + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(total == 8);
  return 0;
}
