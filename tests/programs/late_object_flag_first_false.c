// expect: FALSE unwind: 2
// Twin of late_object_published_true.c without the join, and with the pointer published
// before the cell is filled: main waits until p is set, then reads the cell, which the maker
// may not have written yet. Interleaving: maker allocates (the cell is indeterminate), sets
// p; main sees p != 0 and reads *p before maker writes 7, with the cell's initial value not
// 7 (malloc leaves it indeterminate: any value but 7 fails the assertion).
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

extern void __VERIFIER_assume(int);

int *volatile p = 0;

void *maker(void *arg) {
  int *c = malloc(sizeof(int));
  if (c == 0)
    return 0;
  p = c;
  *c = 7;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, maker, 0);
  __VERIFIER_assume(p != 0);
  assert(*p == 7);
  return 0;
}
