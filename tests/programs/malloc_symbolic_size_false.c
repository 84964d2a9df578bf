// expect: FALSE unwind: 2
// As malloc_symbolic_size_true.c with n in [2, 4]: for n == 2 the last element is element 1,
// which the thread overwrites with 5 after main wrote 2, and the assertion fails. A model that
// gave the object a fixed size would still place a[n - 1] right; one that mixed up offsets
// would not find this.
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
  __VERIFIER_assume(n >= 2 && n <= 4);
  a = malloc(n * sizeof(int));
  a[0] = 1;
  pthread_create(&t, 0, writer, 0);
  a[n - 1] = 2;
  pthread_join(t, 0);
  assert(a[n - 1] == 2);
  return 0;
}
