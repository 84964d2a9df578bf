// expect: TRUE unwind: 2
// A union written through its word member by a worker and read through its byte and halfword
// members by main after the join (little-endian: b[0] is the low byte, h[1] the high half).
#include <pthread.h>
#include <assert.h>

union word {
  unsigned int w;
  unsigned char b[4];
  unsigned short h[2];
};

union word u;

void *worker(void *arg) {
  u.w = 0xAABBCCDD;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(u.b[0] == 0xDD && u.b[3] == 0xAA);
  assert(u.h[1] == 0xAABB);
  u.b[2] = 0x11;
  assert(u.w == 0xAA11CCDD);
  return 0;
}
