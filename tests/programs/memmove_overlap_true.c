// expect: TRUE unwind: 2
// memmove of overlapping ranges copies as if through a temporary: shifting {1,2,3,4,5} right
// by one element gives {1,1,2,3,4}; a second thread reads the array after joining the mover.
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
  assert(a[0] == 1 && a[1] == 1 && a[2] == 2 && a[3] == 3 && a[4] == 4);
  return 0;
}
