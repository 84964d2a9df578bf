// expect: TRUE unwind: 2
// A union of int and unsigned int: both members occupy the same 32 bits, so after the thread
// stores -1 through the int member, main reads 4294967295 through the unsigned member, and
// after storing 0x80000000u through the unsigned member the int member is INT_MIN.
#include <pthread.h>
#include <assert.h>

union word {
  int i;
  unsigned int u;
};

union word w1, w2;

void *store(void *arg) {
  w1.i = -1;
  w2.u = 0x80000000u;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, store, 0);
  pthread_join(t, 0);
  assert(w1.u == 4294967295u);
  assert(w2.i == -2147483647 - 1);
  return 0;
}
