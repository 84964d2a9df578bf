// expect: FALSE unwind: 2
// As memcpy_int_array_bytes_true, but main expects the bytes in big-endian order: a[0] is
// 0x01CDAB01, not 0x01ABCD01.
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
  assert(a[1] == 0x01010101);
  assert(a[0] == 0x01ABCD01);
  return 0;
}
