// expect: TRUE unwind: 2
// An unsigned int read and written through an unsigned char pointer (little-endian bytes):
// the worker replaces byte 1 of x; after the join main sees the new word, and byte 0 and the
// high bytes are unchanged. Before the join main's byte read sees 0x04 whichever came first.
#include <pthread.h>
#include <assert.h>

unsigned int x = 0x01020304;

void *worker(void *arg) {
  unsigned char *p = (unsigned char *)&x;
  p[1] = 9;
  return 0;
}

int main(void) {
  pthread_t t;
  unsigned char *p = (unsigned char *)&x;
  pthread_create(&t, 0, worker, 0);
  assert(p[0] == 4);
  pthread_join(t, 0);
  assert(x == 0x01020904);
  assert(p[1] == 9 && p[2] == 2 && p[3] == 1);
  return 0;
}
