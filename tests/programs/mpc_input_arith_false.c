// expect: FALSE unwind: 2
// The error needs both a specific input and a specific order: T1 publishes n * 3 + 1 (n a
// nondet input, 16-bit range) through y; T2 reads y and divides 100 by y - 7. With n == 2,
// y == 7 is a division by zero that stops T2 (no error); the failing case is
// 100 / (y - 7) == 25, i.e. y == 11, which no n gives (3n + 1 == 11 has no integer
// solution), or y == 0 seen by T2 before T1's write together with n <= -3 read later:
// T2 first reads y == 0 (100 / -7 == -14), then T1 writes, then T2 checks z == -14 and
// n <= -3 through the shared copy m.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int y = 0;
int m = 0;

void *t1(void *a) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > -1000 && n < 1000);
  m = n;
  y = n * 3 + 1;
  return 0;
}

void *t2(void *a) {
  int v = y;
  int z = 100 / (v - 7);
  if (z == 25)
    assert(0);
  if (z == -14 && m <= -3)
    assert(0);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
