// expect: TRUE unwind: 2
// Twin of struct_torn_read_false.c: both the writer's field updates and the reader's whole
// struct copy happen under one mutex, so the copy always has a == b (both 0 or both 1).
#include <pthread.h>
#include <assert.h>

struct pair {
  int a;
  int b;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct pair s;

void *writer(void *arg) {
  pthread_mutex_lock(&m);
  s.a = 1;
  s.b = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *reader(void *arg) {
  struct pair c;
  pthread_mutex_lock(&m);
  c = s;
  pthread_mutex_unlock(&m);
  assert(c.a == c.b);
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
