// expect: TRUE unwind: 2
// Unsigned arithmetic wraps modulo 2^N (ILP32 and LP64 alike: unsigned int has 32 bits):
// 0u - 1 == 4294967295u and adding 1 gives 0 again; unsigned char 250 + 10 stored back is
// 260 mod 256 == 4. Comparing -1 converted to unsigned with 1u gives "greater". The thread
// computes the values into globals, main checks them after the join.
#include <pthread.h>
#include <assert.h>

unsigned int u = 0;
unsigned char uc = 250;
int neg = -1;
int gt;

void *compute(void *arg) {
  u = u - 1;
  uc += 10;
  gt = (unsigned int)neg > 1u;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, compute, 0);
  pthread_join(t, 0);
  assert(u == 4294967295u);
  assert(u + 1 == 0);
  assert(uc == 4);
  assert(gt == 1);
  return 0;
}
