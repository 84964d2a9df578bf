// expect: TRUE unwind: 2
// _Bool conversion maps every non-zero value to 1 (not truncation): (_Bool)256 == 1 while
// (unsigned char)256 == 0; (_Bool)5 + 1 stored in a _Bool is again 1. Two threads write to a
// shared _Bool: T1 stores 2, T2 stores flag + 1 (flag is 0 or 1, so 1 or 2); each store
// yields 1, so after both joins flag == 1 in every interleaving.
#include <pthread.h>
#include <assert.h>

_Bool flag = 0;
int two = 2, n256 = 256;

void *t1(void *arg) {
  flag = two;
  return 0;
}

void *t2(void *arg) {
  flag = flag + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  _Bool b5 = 5;
  _Bool bb = (_Bool)n256;
  unsigned char cc = (unsigned char)n256;
  b5 = b5 + 1;
  assert(b5 == 1 && bb == 1 && cc == 0);
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(flag == 1);
  return 0;
}
