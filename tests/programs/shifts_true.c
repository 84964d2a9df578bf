// expect: TRUE unwind: 2
// Shifts on 32-bit unsigned values: for any x, (x << 4) >> 4 clears exactly the top four
// bits; x >> 31 is 0 or 1; for s in [0, 31], (1u << s) >> s == 1 and 1u << s is non-zero;
// 1 << 30 == 1073741824 and 1u << 31 == 2147483648u. Only shift amounts below 32 are used.
#include <pthread.h>
#include <assert.h>

extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

unsigned int x, s;
int ok = 0;

void *worker(void *arg) {
  unsigned int v = x, k = s;
  ok = ((v << 4) >> 4) == (v & 0x0fffffffu) && (v >> 31) <= 1u &&
       ((1u << k) >> k) == 1u && (1u << k) != 0u;
  return 0;
}

int main(void) {
  pthread_t t;
  x = __VERIFIER_nondet_uint();
  s = __VERIFIER_nondet_uint();
  __VERIFIER_assume(s < 32);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(ok);
  assert((1 << 30) == 1073741824 && (1u << 31) == 2147483648u);
  return 0;
}
