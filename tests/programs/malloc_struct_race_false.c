// expect: FALSE unwind: 2
// Twin of malloc_struct_mutex_true.c without the mutex: the deposits race on
// a->balance (both read 0, the last write wins: 10 or 20), so balance == 30 can fail.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct account {
  int balance;
  int count;
};

void *deposit10(void *arg) {
  struct account *a = arg;
  a->balance += 10;
  return 0;
}

void *deposit20(void *arg) {
  struct account *a = arg;
  a->balance += 20;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  struct account *acc = malloc(sizeof(struct account));
  if (acc == 0)
    return 0;
  acc->balance = 0;
  acc->count = 0;
  pthread_create(&t1, 0, deposit10, acc);
  pthread_create(&t2, 0, deposit20, acc);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(acc->balance == 30);
  free(acc);
  return 0;
}
