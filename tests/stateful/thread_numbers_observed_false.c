// expect: FALSE
// Identical workers whose numbers the program observes (pthread_self): only the thread with
// the largest number may write 2, and the assertion fails when it does. A symmetry that
// merged the workers' states would be unsound here; thread numbers being observable, the
// search keeps the threads in their order.
#include <pthread.h>
#include <assert.h>

pthread_t last;
int seen = 0;

void *worker(void *arg) {
  while (1) {
    if (pthread_self() == last)
      seen = 2;
    assert(seen != 2);
  }
  return 0;
}

int main(void) {
  pthread_t t;
  for (int i = 0; i < 3; i++) {
    pthread_create(&t, 0, worker, 0);
    last = t;
  }
  return 0;
}
