// expect: TRUE unwind: 3
// Thread entry functions are taken from an array of function pointers; the two entries add
// 1 and 2 to `total` under a mutex, so total == 3 after joining both. Loops: 2 iterations,
// unwind 3.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total = 0;

void *add_one(void *arg) {
  pthread_mutex_lock(&m);
  total += 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *add_two(void *arg) {
  pthread_mutex_lock(&m);
  total += 2;
  pthread_mutex_unlock(&m);
  return 0;
}

void *(*entries[2])(void *) = {add_one, add_two};

int main(void) {
  pthread_t t[2];
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&t[i], 0, entries[i], 0);
  for (i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(total == 3);
  return 0;
}
