// expect: TRUE unwind: 2
// Two workers each take the shared object under the lock (the second one takes NULL) and
// free what they took: one free of the object, one free(NULL). Twin:
// take_and_free_unlocked_false.c.
#include <pthread.h>
#include <stdlib.h>
int *item;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *taker(void *arg) {
  int *mine;
  pthread_mutex_lock(&m);
  mine = item;
  item = 0;
  pthread_mutex_unlock(&m);
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
