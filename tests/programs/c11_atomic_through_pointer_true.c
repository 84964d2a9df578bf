// expect: TRUE unwind: 2
// An increment through a pointer to an atomic object (`atomic_int *p`) is indivisible too.
#include <pthread.h>
#include <stdatomic.h>
atomic_int n;

void *t(void *arg) {
  atomic_int *p = arg;
  (*p)++;
  p[0] -= 1;
  *p += 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, &n);
  pthread_create(&b, 0, t, &n);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(n == 2, "no lost update");
  return 0;
}
