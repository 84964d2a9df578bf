// expect: TRUE unwind: 2
// && and || evaluate their right operand only when needed: with zero == 0, `zero == 0 ||
// count()` and `zero != 0 && count()` never call count(), while `zero == 0 && count()` calls
// it exactly once. The thread does the evaluations; main checks calls == 1 after the join.
#include <pthread.h>
#include <assert.h>

int zero = 0;
int calls = 0;
int r1, r2, r3;

int count(void) {
  calls = calls + 1;
  return 1;
}

void *eval(void *arg) {
  r1 = (zero == 0 || count());
  r2 = (zero != 0 && count());
  r3 = (zero == 0 && count());
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, eval, 0);
  pthread_join(t, 0);
  assert(calls == 1);
  assert(r1 == 1 && r2 == 0 && r3 == 1);
  return 0;
}
