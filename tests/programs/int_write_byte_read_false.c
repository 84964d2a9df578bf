// expect: FALSE unwind: 2
// As int_write_byte_read_true, but main claims that byte 1 showing the first store (2) means
// byte 0 still shows it (1): the second store can come between main's two reads (b1 = 2,
// then x = 0x0403, then b0 = 3).
#include <pthread.h>
#include <assert.h>

unsigned int x;

void *writer(void *arg) {
  x = 0x0201;
  x = 0x0403;
  return 0;
}

int main(void) {
  pthread_t t;
  unsigned char *p = (unsigned char *)&x;
  pthread_create(&t, 0, writer, 0);
  unsigned char b1 = p[1];
  unsigned char b0 = p[0];
  if (b1 == 2)
    assert(b0 == 1);
  return 0;
}
