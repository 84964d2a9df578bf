// expect: FALSE(valid-free) unwind: 2
// As take_and_free_locked_true.c without the lock: both workers can take the object before
// either clears it, and both free it (double free).
#include <pthread.h>
#include <stdlib.h>
int *item;
void *taker(void *arg) {
  int *mine;
  mine = item;
  item = 0;
  free(mine);
  return 0;
}
int main(void) {
  pthread_t a, b;
  item = malloc(sizeof(int));
  pthread_create(&a, 0, taker, 0);
  pthread_create(&b, 0, taker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
