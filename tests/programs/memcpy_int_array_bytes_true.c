// expect: TRUE unwind: 2
// memset fills an int array with 0x01 bytes; a worker copies two bytes into the middle of a[0]
// with memcpy; after the join a[0] is 0x01CDAB01 (little-endian) and a byte of a[1] is 1.
#include <pthread.h>
#include <string.h>
#include <assert.h>

unsigned int a[2];
unsigned char src[2] = {0xAB, 0xCD};

void *worker(void *arg) {
  memcpy((unsigned char *)a + 1, src, 2);
  return 0;
}

int main(void) {
  pthread_t t;
  memset(a, 1, sizeof a);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(a[0] == 0x01CDAB01);
  assert(a[1] == 0x01010101);
  assert(((unsigned char *)a)[5] == 1);
  return 0;
}
