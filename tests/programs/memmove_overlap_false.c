// expect: FALSE unwind: 2
// memmove of overlapping ranges copies as if through a temporary: shifting {1,2,3,4,5} right
// by one element gives {1,1,2,3,4}, not the smeared {1,1,1,1,1} of a naive forward copy; the
// assertion expects the smear and fails.
#include <pthread.h>
#include <string.h>
#include <assert.h>

int a[5] = {1, 2, 3, 4, 5};

void *mover(void *arg) {
  memmove(&a[1], &a[0], 4 * sizeof(int));
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, mover, 0);
  pthread_join(t, 0);
  assert(a[4] == 1);
  return 0;
}
