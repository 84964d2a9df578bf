// expect: FALSE unwind: 2
// The copy stops before the last member (its length is the offset of y, not the size): y
// stays 0 in the shared struct, and a reader that sees `ready` fails on y.
#include <pthread.h>
#include <stddef.h>
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
  memcpy(&shared, &local, offsetof(struct msg, y));
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
