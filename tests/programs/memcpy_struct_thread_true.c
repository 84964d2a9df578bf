// expect: TRUE unwind: 2
// The writer copies a whole local struct into the shared one and publishes it under the lock;
// a reader that sees `ready` sees every copied field (x = 3, tag = 'q', y = 1000000007).
#include <pthread.h>
#include <string.h>
#include <assert.h>

struct msg {
  int x;
  char tag;
  long y;
};

struct msg shared;
int ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  struct msg local;
  local.x = 3;
  local.tag = 'q';
  local.y = 1000000007L;
  pthread_mutex_lock(&m);
  memcpy(&shared, &local, sizeof local);
  ready = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (ready)
    assert(shared.x == 3 && shared.tag == 'q' && shared.y == 1000000007L);
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
