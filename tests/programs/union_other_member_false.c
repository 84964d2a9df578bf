// expect: FALSE unwind: 2
// As union_other_member_true, but main expects big-endian bytes: b[0] is 0xDD, not 0xAA.
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
  assert(u.h[1] == 0xAABB);
  assert(u.b[0] == 0xAA);
  return 0;
}
