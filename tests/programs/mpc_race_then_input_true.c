// expect: TRUE unwind: 2
// Two threads race on x; after the joins, main branches on x and then on an input that depends
// on which write came last (i when x == 1, j when x == 2). 2 schedule classes (the order of
// the two writes), each with 2 input paths: 4 (schedule class, input path) pairs. y == 3 never
// happens.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x = 0, y = 0;

void *T1(void *a) { x = 1; return 0; }
void *T2(void *a) { x = 2; return 0; }

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, T1, 0);
  pthread_create(&t2, 0, T2, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  int i = __VERIFIER_nondet_int(), j = __VERIFIER_nondet_int();
  if (x == 1) {
    if (i > 0)
      y = 1;
  } else {
    if (j > 0)
      y = 2;
  }
  assert(y != 3);
  return 0;
}
