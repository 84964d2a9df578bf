// expect: TRUE unwind: 2
// Read-read coherence: the writer stores 1 then 2 to x; a reader loading x twice can see the
// values only in write order, never 2 then 1.
#include <pthread.h>
#include <assert.h>

int x = 0;
int a, b;

void *writer(void *arg) {
  x = 1;
  x = 2;
  return 0;
}

void *reader(void *arg) {
  a = x;
  b = x;
  return 0;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w, 0);
  pthread_join(r, 0);
  assert(!(a == 2 && b == 1));
  assert(!(a == 1 && b == 0));
  return 0;
}
