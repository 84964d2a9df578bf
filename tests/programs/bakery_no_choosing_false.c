// expect: FALSE unwind: 2
// Bakery without the `choosing` flags. B0 reads number1 == 0 (ticket 1) but has not stored
// it yet; B1 reads number0 == 0, stores ticket 1, sees number0 == 0 and enters; B0 stores
// its ticket 1, sees number1 == 1 >= 1 (tie goes to thread 0) and enters too. B1 then reads
// back owner == 0 and fails.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

int number0 = 0, number1 = 0;
int owner = -1;

void *b0(void *arg) {
  int my = number1 + 1;
  number0 = my;
  __VERIFIER_assume(number1 == 0 || number1 >= my);
  owner = 0;
  assert(owner == 0);
  number0 = 0;
  return 0;
}

void *b1(void *arg) {
  int my = number0 + 1;
  number1 = my;
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
