// expect: FALSE
// The twin of peterson_forever_true.c without thread 1's write of turn: both threads can
// pass their waits at once, and the owner is overwritten inside a critical section.
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
