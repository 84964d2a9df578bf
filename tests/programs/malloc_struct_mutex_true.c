// expect: TRUE unwind: 2
// A heap-allocated struct is shared with two threads through the thread argument; each
// deposits an amount and bumps a counter inside the global mutex, so after the joins
// balance == 30 and count == 2.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct account {
  int balance;
  int count;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct account *acc;

void *deposit10(void *arg) {
  struct account *a = arg;
  pthread_mutex_lock(&m);
  a->balance += 10;
  a->count++;
  pthread_mutex_unlock(&m);
  return 0;
}

void *deposit20(void *arg) {
  struct account *a = arg;
  pthread_mutex_lock(&m);
  a->balance += 20;
  a->count++;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  acc = malloc(sizeof(struct account));
  if (acc == 0)
    return 0;
  acc->balance = 0;
  acc->count = 0;
  pthread_create(&t1, 0, deposit10, acc);
  pthread_create(&t2, 0, deposit20, acc);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(acc->balance == 30 && acc->count == 2);
  free(acc);
  return 0;
}
