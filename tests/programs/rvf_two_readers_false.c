// expect: FALSE unwind: 2
// Two threads each write x and then read it back: each read can observe either write, so
// the reads processed at one node in the RVF exploration overlap, and the causal map cuts
// the later sibling's witnesses in which the earlier read observes what it observed there.
// (a, b) == (2, 2) is reachable: x = 1, x = 2, a = x, b = x.
#include <pthread.h>
#include <assert.h>

int x = 0;
int a, b;

void *T1(void *p) {
  x = 1;
  a = x;
  return 0;
}

void *T2(void *p) {
  x = 2;
  b = x;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, T1, 0);
  pthread_create(&t2, 0, T2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(!(a == 2 && b == 2));
  return 0;
}
