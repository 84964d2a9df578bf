// expect: FALSE unwind: 2 spin: yes
// The writer sets x = 1 and only then raises the flag; main spins on the flag (an await loop,
// reduced to an assumption of its exit condition) and then finds x == 1. The error is
// reachable after the spin has run any number of times, so the reduction must keep it.
#include <pthread.h>
#include <assert.h>

int x = 0;
int flag = 0;

void *writer(void *arg) {
  x = 1;
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  while (flag == 0)
    ;
  assert(x == 0);
  return 0;
}
