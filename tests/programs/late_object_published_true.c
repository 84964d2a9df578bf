// expect: TRUE unwind: 2
// A thread that symbolic execution runs after main allocates a cell, fills it and publishes
// the pointer in a global; main reads the cell through that pointer after the join. The read
// must see the allocation (made later in symbolic execution, earlier in the execution):
// after the join the cell holds 7 and p points to it.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

int *p = 0;

void *maker(void *arg) {
  int *c = malloc(sizeof(int));
  if (c == 0)
    return 0;
  *c = 7;
  p = c;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, maker, 0);
  pthread_join(t, 0);
  if (p != 0)
    assert(*p == 7);
  return 0;
}
