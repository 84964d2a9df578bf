// expect: TRUE unwind: 2
// The thread allocates an int, stores twice its argument and returns the pointer; main gets
// it through pthread_join's second argument, so it reads 2 * 5 == 10.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

void *doubler(void *arg) {
  int *p = malloc(sizeof(int));
  if (p == 0)
    return 0;
  *p = 2 * (int)(long)arg;
  return p;
}

int main(void) {
  pthread_t t;
  void *ret = 0;
  pthread_create(&t, 0, doubler, (void *)5L);
  pthread_join(t, &ret);
  if (ret != 0) {
    assert(*(int *)ret == 10);
    free(ret);
  }
  return 0;
}
