// expect: TRUE unwind: 2 spin: yes
// main spins until the flag is up; each pass first reads x into a local that is dead at the
// loop head and checks it in a called function. Every pass is free of effects, so the
// reduction cuts the path that continues after it. The writer raises the flag before it sets
// x, so a pass that read x == 1 sees the flag up and leaves before the check.
#include <pthread.h>
#include <assert.h>

int x = 0;
int flag = 0;

void *writer(void *arg) {
  flag = 1;
  x = 1;
  return 0;
}

void check(int a) { assert(a == 0); }

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  while (1) {
    int a = x;
    if (flag)
      break;
    check(a);
  }
  return 0;
}
