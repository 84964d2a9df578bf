// expect: TRUE unwind: 2
// A nondet _Bool is 0 or 1: converted to int it never exceeds 1, in main and in a thread that
// reads one from shared memory.
#include <pthread.h>
#include <assert.h>

extern _Bool __VERIFIER_nondet_bool(void);

_Bool flag;
int seen;

void *reader(void *arg) {
  int v = flag;
  seen = v;
  return 0;
}

int main(void) {
  pthread_t t;
  _Bool b = __VERIFIER_nondet_bool();
  int x = b;
  assert(x == 0 || x == 1);
  flag = __VERIFIER_nondet_bool();
  pthread_create(&t, 0, reader, 0);
  pthread_join(t, 0);
  assert(seen <= 1);
  return 0;
}
