// expect: TRUE unwind: 6
// A thread computes 4! with a recursive function: fact(4) -> fact(3) -> ... -> fact(0), i.e.
// 4 nested recursive calls below the first one (recursion depth bound 5, unwind 6 leaves a
// margin). Main reads the result after the join: 24.
#include <pthread.h>
#include <assert.h>

int result;

int fact(int n) {
  if (n <= 0)
    return 1;
  return n * fact(n - 1);
}

void *worker(void *arg) {
  result = fact((int)(long)arg);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, (void *)4L);
  pthread_join(t, 0);
  assert(result == 24);
  return 0;
}
