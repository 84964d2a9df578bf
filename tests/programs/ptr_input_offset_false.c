// expect: FALSE unwind: 2
// Pointer arithmetic with input-dependent offsets. The writer stores i at a + i for an input i in
// 1..5 and clears the cell before it through p - 1; main reads *(a + k) for an input k in 0..5.
// With i = k = 5 it sees 5 (after the writer ran): the FALSE twin of ptr_input_offset_true.c.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a[6];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 1 && i <= 5);
  int *p = a + i;
  pthread_mutex_lock(&m);
  *p = i;
  *(p - 1) = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 5);
  pthread_mutex_lock(&m);
  int v = *(a + k);
  pthread_mutex_unlock(&m);
  assert(v == 0 || v == k);
  assert(v != 5);
  pthread_join(t, 0);
  return 0;
}
