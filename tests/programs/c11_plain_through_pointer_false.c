// expect: FALSE unwind: 2
// The twin of c11_atomic_through_pointer_true.c: in a program that has atomic ints, an
// increment through a pointer to a plain int is still a read and a write.
#include <pthread.h>
#include <stdatomic.h>
atomic_int unused;
int n;

void *t(void *arg) {
  int *p = arg;
  (*p)++;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, &n);
  pthread_create(&b, 0, t, &n);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(n == 2, "an update can be lost");
  return 0;
}
