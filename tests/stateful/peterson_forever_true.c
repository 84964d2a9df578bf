// expect: TRUE
// Peterson's mutual exclusion, two threads entering their critical section forever (busy
// waiting). Mutual exclusion holds under SC: the owner written on entry is still the
// thread's own when it reads it back. No bound closes the loops; the state space is finite.
#include <pthread.h>
#include <assert.h>

int flag0 = 0, flag1 = 0, turn = 0;
int owner = -1;

void *p0(void *arg) {
  while (1) {
    flag0 = 1;
    turn = 1;
    while (flag1 == 1 && turn == 1) {
    }
    owner = 0;
    assert(owner == 0);
    flag0 = 0;
  }
  return 0;
}

void *p1(void *arg) {
  while (1) {
    flag1 = 1;
    turn = 0;
    while (flag0 == 1 && turn == 0) {
    }
    owner = 1;
    assert(owner == 1);
    flag1 = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, p0, 0);
  pthread_create(&b, 0, p1, 0);
  return 0;
}
