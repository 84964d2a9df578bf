// expect: TRUE unwind: 2
// main aborts (reach_error ends the program) before it creates the second thread, so the
// two writers never run together.
#include <pthread.h>
#include <stdlib.h>
int x;
void *work(void *arg) { x = 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_join(a, 0);
  abort();
  pthread_create(&b, 0, work, 0);
  x = 2;
  return 0;
}
