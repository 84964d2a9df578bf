// expect: TRUE unwind: 2
// A writer thread stores whole ints (0x0201, then 0x0403); main reads byte 1 of x, then byte
// 0. A store of an int is one step: if byte 1 already shows the second store (4), byte 0,
// read later, shows it too (3). Byte 0 is always 0, 1 or 3. Nor is a store seen in part when
// the bytes are read the other way round: byte 0 showing the second store (3) means byte 1,
// read after it, shows it too (4).
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
  if (b1 == 4)
    assert(b0 == 3);
  if (b1 == 2)
    assert(b0 == 1 || b0 == 3);
  assert(b0 == 0 || b0 == 1 || b0 == 3);
  unsigned char c0 = p[0];
  unsigned char c1 = p[1];
  if (c0 == 3)
    assert(c1 == 4);
  return 0;
}
