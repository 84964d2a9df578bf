// expect: TRUE unwind: 3
// Producer/consumer over a one-slot buffer with two condition variables. Producer `one` puts
// the item 1, producer `two` puts 2 then 3; main consumes one item. Every party re-checks
// its predicate in a loop under the mutex (at most 2 waits, then __VERIFIER_assume of the
// predicate; unwind 3), so a producer only writes an empty slot and the consumer only takes
// a full one. The surplus items are never taken: their producer blocks, which is no error.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
int full = 0;
int slot = 0;

void put(int v) {
  int k;
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && full; k++)
    pthread_cond_wait(&not_full, &m);
  __VERIFIER_assume(!full);
  assert(!full);
  slot = v;
  full = 1;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&m);
}

void *one(void *arg) {
  put(1);
  return 0;
}

void *two(void *arg) {
  put(2);
  put(3);
  return 0;
}

int main(void) {
  pthread_t a, b;
  int k, got;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && !full; k++)
    pthread_cond_wait(&not_empty, &m);
  __VERIFIER_assume(full);
  got = slot;
  full = 0;
  pthread_cond_signal(&not_full);
  pthread_mutex_unlock(&m);
  assert(got >= 1 && got <= 3);
  return 0;
}
