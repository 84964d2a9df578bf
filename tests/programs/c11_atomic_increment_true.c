// expect: TRUE unwind: 2
// `_Atomic int`: `n++` and `n += 2` are indivisible read-modify-writes (C11 6.5.2.4), so no
// update is lost.
#include <pthread.h>
_Atomic int n;

void *t(void *arg) {
  n++;
  n += 2;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  __CPROVER_assert(n == 6, "no lost update");
  return 0;
}
