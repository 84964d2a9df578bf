// expect: TRUE unwind: 2
// An unsigned char input is in [0, 255]; the thread adds two of them after integer
// promotion (no wrap at 8 bits), so the int sum is in [0, 510], and truncating it back to
// unsigned char equals the sum modulo 256.
#include <pthread.h>
#include <assert.h>

extern unsigned char __VERIFIER_nondet_uchar(void);

unsigned char a, b;
int sum;
unsigned char small;

void *adder(void *arg) {
  sum = a + b;
  small = (unsigned char)(a + b);
  return 0;
}

int main(void) {
  pthread_t t;
  a = __VERIFIER_nondet_uchar();
  b = __VERIFIER_nondet_uchar();
  pthread_create(&t, 0, adder, 0);
  pthread_join(t, 0);
  assert(sum >= 0 && sum <= 510);
  assert(small == sum % 256);
  return 0;
}
