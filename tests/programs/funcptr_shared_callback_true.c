// expect: TRUE unwind: 2
// main stores a callback in a global function pointer before creating the thread (creation
// orders that store before the thread), the thread calls it through the pointer:
// square(7) == 49.
#include <pthread.h>
#include <assert.h>

int (*op)(int);
int out;

static int square(int v) { return v * v; }
static int negate(int v) { return -v; }

void *apply(void *arg) {
  out = op(7);
  return 0;
}

int main(void) {
  pthread_t t;
  op = negate;
  op = square;
  pthread_create(&t, 0, apply, 0);
  pthread_join(t, 0);
  assert(out == 49);
  return 0;
}
