// expect: FALSE unwind: 4
// Twin of threads_loop_sum_mutex_true.c without the mutex: two adders can read the same old
// sum and one addition is lost (e.g. threads 1 and 2 both read 0, final sum 2 + 3 == 5).
// Loops: 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

int sum = 0;

void *adder(void *arg) {
  int v = (int)(long)arg;
  sum = sum + v;
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t[i], 0, adder, (void *)(long)(i + 1));
  for (i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(sum == 6);
  return 0;
}
