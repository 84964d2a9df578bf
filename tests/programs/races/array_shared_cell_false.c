// expect: FALSE unwind: 3
// The twin of array_own_cells_true.c where both ids are 1: the two threads write one cell.
#include <pthread.h>
int slots[2];
int ids[2] = {1, 1};
void *work(void *arg) { int i = *(int *)arg; slots[i] = i + 1; return 0; }
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, work, &ids[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return slots[0] + slots[1];
}
