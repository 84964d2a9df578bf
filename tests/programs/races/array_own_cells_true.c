// expect: TRUE unwind: 3
// Each thread writes the cell of its own index (computed from its argument): the cells
// differ, so there is no race (pthread-race-challenges shape).
#include <pthread.h>
int slots[2];
int ids[2] = {0, 1};
void *work(void *arg) { int i = *(int *)arg; slots[i] = i + 1; return 0; }
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, work, &ids[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
  return slots[0] + slots[1];
}
