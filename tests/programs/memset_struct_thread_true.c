// expect: TRUE unwind: 2
// The writer fills the whole struct with 0xff bytes, then publishes it under the same lock the
// reader takes; a reader that sees `ready` sees every field all ones: a == -1, b == (char)-1,
// c == -1 (a short of two 0xff bytes), d == -1.
#include <pthread.h>
#include <string.h>
#include <assert.h>

struct cfg {
  int a;
  char b;
  short c;
  long d;
};

struct cfg g;
int ready;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  memset(&g, 0xff, sizeof g);
  ready = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (ready) {
    assert(g.a == -1 && g.b == (char)-1 && g.c == -1 && g.d == -1L);
  } else {
    assert(g.a == 0 && g.d == 0);
  }
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
