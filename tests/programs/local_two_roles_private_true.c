// expect: TRUE unwind: 2
// `add` is run by main and by the worker, so two roles access its address-taken local `tmp`;
// every call has its own instance, and no pointer to one leaves the thread that made it
// (the pointer `p` is a register of the same frame). Each instance is private to its
// thread: the sharing pass keeps its accesses off the equation. The mutex makes the two
// read-modify-writes of `x` atomic: x ends at 1 + 2.
#include <pthread.h>
#include <assert.h>

long x;
pthread_mutex_t m;

void add(long d) {
  long tmp;
  long *p = &tmp;
  pthread_mutex_lock(&m);
  *p = x;
  *p = *p + d;
  x = *p;
  pthread_mutex_unlock(&m);
}

void *worker(void *arg) {
  add(1);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_mutex_init(&m, 0);
  pthread_create(&t, 0, worker, 0);
  add(2);
  pthread_join(t, 0);
  assert(x == 3);
  return 0;
}
