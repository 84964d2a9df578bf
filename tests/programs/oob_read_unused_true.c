// expect: TRUE unwind: 2
// A thread reads table[port] with an unchecked port (it may be out of bounds) but the value
// only goes to a local that no assertion looks at; the shared counter is protected by the
// mutex, so after both joins it is 2.
#include <pthread.h>
#include <assert.h>

extern unsigned __VERIFIER_nondet_uint(void);

int table[4] = {0, 4, 8, 10};
int count;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *get(void *arg) {
  unsigned port = __VERIFIER_nondet_uint() >> 3;
  int *p = table;
  volatile int val = p[port];
  val >>= 1;
  pthread_mutex_lock(&m);
  count = count + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, get, 0);
  pthread_create(&b, 0, get, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(count == 2);
  return 0;
}
