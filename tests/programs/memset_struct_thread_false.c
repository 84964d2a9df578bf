// expect: FALSE unwind: 2
// The writer publishes `ready` in one critical section and fills the struct in a second one:
// the reader can run in between (writer: lock, ready = 1, unlock; reader: lock, sees ready
// with g.a still 0, the assertion fails).
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
  ready = 1;
  pthread_mutex_unlock(&m);
  pthread_mutex_lock(&m);
  memset(&g, 0xff, sizeof g);
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (ready) {
    assert(g.a == -1 && g.b == (char)-1 && g.c == -1 && g.d == -1L);
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
