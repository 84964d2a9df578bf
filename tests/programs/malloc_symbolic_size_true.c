// expect: TRUE unwind: 2
// malloc of a size that is not a constant: n ints, n in [3, 4]. Main writes the last element,
// a thread writes element 1; as n >= 3 they are different elements, so the last keeps 2, and
// element 0 keeps the 1 main wrote first. Every access is within the n elements.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int *a;

void *writer(void *arg) {
  a[1] = 5;
  return 0;
}

int main(void) {
  pthread_t t;
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 3 && n <= 4);
  a = malloc(n * sizeof(int));
  a[0] = 1;
  pthread_create(&t, 0, writer, 0);
  a[n - 1] = 2;
  pthread_join(t, 0);
  assert(a[n - 1] == 2 && a[0] == 1 && a[1] == 5);
  return 0;
}
