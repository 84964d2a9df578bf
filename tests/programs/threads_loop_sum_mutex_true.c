// expect: TRUE unwind: 4
// Three threads created in a loop with arguments 1, 2, 3 passed by value in the void*; each
// adds its argument to `sum` under the mutex. After joining all three, sum == 6.
// Loops: 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int sum = 0;

void *adder(void *arg) {
  int v = (int)(long)arg;
  pthread_mutex_lock(&m);
  sum = sum + v;
  pthread_mutex_unlock(&m);
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
