// expect: TRUE unwind: 2
// Invariant: x == y whenever the mutex is free. The writer updates both inside the lock, the
// reader checks them inside the same lock, so it never sees a half-done update.
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
  pthread_mutex_lock(&m);
  assert(x == y);
  pthread_mutex_unlock(&m);
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
