// expect: FALSE unwind: 2
// As oob_read_unused_true, but the counter is incremented without the mutex: both threads
// read 0 and write 1 (lost update), whatever the unchecked read gave; an in-bounds port (0)
// gives the counterexample.
#include <pthread.h>
#include <assert.h>

extern unsigned __VERIFIER_nondet_uint(void);

int table[4] = {0, 4, 8, 10};
int count;

void *get(void *arg) {
  unsigned port = __VERIFIER_nondet_uint() >> 3;
  int *p = table;
  volatile int val = p[port];
  val >>= 1;
  int c = count;
  count = c + 1;
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
