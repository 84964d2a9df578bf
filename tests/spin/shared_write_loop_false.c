// expect: FALSE unwind: 4 spin: no
// The waiting loop writes a shared counter on every iteration, so no iteration is free of
// effects and the loop is not reduced: the counter reaches 3 when main is slow to set `go`.
#include <pthread.h>
#include <assert.h>

int go = 0;
int seen = 0;

void *waiter(void *arg) {
  while (go == 0)
    seen = seen + 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  go = 1;
  pthread_join(t, 0);
  assert(seen < 3);
  return 0;
}
