// expect: TRUE unwind: 2
// Paper example A3, second variant: same threads as paper_a3_rule2_unsafe.c, assertion
// !(r == 2 && x == 1) read after both joins. r == 2 means T2's x = 2 came after T1's x = 1,
// so the last write to x is x = 2 and main reads x == 2. Reachable (r, x): (1,1), (1,2),
// (2,2).
#include <pthread.h>
#include <assert.h>

int x = 0;
int r;

void *T1(void *arg) {
  x = 1;
  r = x;
  return 0;
}

void *T2(void *arg) {
  x = 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, T1, 0);
  pthread_create(&b, 0, T2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(!(r == 2 && x == 1));
  return 0;
}
