// expect: TRUE unwind: 2
// Lamport's bakery for two threads, one entry each. A thread announces `choosing`, takes a
// ticket one larger than the other's, then waits (assume-checks, as blocking awaits) until the
// other is not choosing and the other's ticket is 0 or larger than its own (ties go to thread
// 0). Mutual exclusion holds under SC: the critical-section owner is never overwritten between
// the write and the read-back. No loops (the "max over others" is a single read).
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int choosing0 = 0, choosing1 = 0;
int number0 = 0, number1 = 0;
int owner = -1;

void *b0(void *arg) {
  int my;
  choosing0 = 1;
  my = number1 + 1;
  number0 = my;
  choosing0 = 0;
  __VERIFIER_assume(choosing1 == 0);
  __VERIFIER_assume(number1 == 0 || number1 >= my);
  owner = 0;
  assert(owner == 0);
  number0 = 0;
  return 0;
}

void *b1(void *arg) {
  int my;
  choosing1 = 1;
  my = number0 + 1;
  number1 = my;
  choosing1 = 0;
  __VERIFIER_assume(choosing0 == 0);
  __VERIFIER_assume(number0 == 0 || number0 > my);
  owner = 1;
  assert(owner == 1);
  number1 = 0;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, b0, 0);
  pthread_create(&b, 0, b1, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
