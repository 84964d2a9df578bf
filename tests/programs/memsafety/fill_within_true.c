// expect: TRUE unwind: 5
// Two workers fill their halves of a heap array of 4 ints; main joins and frees it. Twin:
// fill_past_end_false.c (one bound off by one).
#include <pthread.h>
#include <stdlib.h>
int *a;
void *low(void *arg) {
  for (int i = 0; i < 2; i++)
    a[i] = i;
  return 0;
}
void *high(void *arg) {
  for (int i = 2; i < 4; i++)
    a[i] = i;
  return 0;
}
int main(void) {
  pthread_t x, y;
  a = malloc(4 * sizeof(int));
  pthread_create(&x, 0, low, 0);
  pthread_create(&y, 0, high, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  free(a);
  return 0;
}
