// expect: FALSE unwind: 2
// The writer updates the two fields of a shared struct one after the other without a lock;
// the reader copies the whole struct. The copy can happen between the two field writes
// (a == 1, b == 0), so the invariant a == b does not hold for the copy.
// replay: needs search — the run copies the struct in one step, the equation reads it field
// by field, so the guided run reads it whole before the writes and a searched run tears it.
#include <pthread.h>
#include <assert.h>

struct pair {
  int a;
  int b;
};

struct pair s;

void *writer(void *arg) {
  s.a = 1;
  s.b = 1;
  return 0;
}

void *reader(void *arg) {
  struct pair c = s;
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
