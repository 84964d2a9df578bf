// expect: FALSE unwind: 2
// Twin of mutex_pair_invariant_true.c where the reader does not take the mutex: it can run
// between the writer's two assignments (writer sets x = 1, reader reads x == 1 and y == 0).
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0, y = 0;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  x = x + 1;
  y = y + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  assert(x == y);
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  return 0;
}
