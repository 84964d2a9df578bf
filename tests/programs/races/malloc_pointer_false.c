// expect: FALSE unwind: 2
// A heap cell reached through the thread argument is written by the thread and read by
// main before the join (ldv-races shape).
#include <pthread.h>
#include <stdlib.h>
void *work(void *arg) { int *p = arg; *p = 3; return 0; }
int main(void) {
  int *cell = malloc(sizeof(int));
  if (!cell) return 0;
  *cell = 0;
  pthread_t t;
  pthread_create(&t, 0, work, cell);
  int v = *cell;
  pthread_join(t, 0);
  return v;
}
