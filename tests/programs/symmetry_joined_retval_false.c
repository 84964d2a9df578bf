// expect: FALSE unwind: 2
// Twin of symmetry_joined_all_true.c: main joins both twins in one block but reads the first
// one's return value, which says whether it claimed `taken` first. Error: the thread created
// second claims first, so the first returns 0. The join that stores a return value tells
// the twins apart: no orders, or the error would be lost.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int taken;

void *claim(void *arg) {
  long mine = 0;
  __VERIFIER_atomic_begin();
  if (!taken) {
    taken = 1;
    mine = 1;
  }
  __VERIFIER_atomic_end();
  return (void *)mine;
}

int main(void) {
  pthread_t a, b;
  void *r;
  pthread_create(&a, 0, claim, 0);
  pthread_create(&b, 0, claim, 0);
  pthread_join(a, &r);
  pthread_join(b, 0);
  if (r == 0) {
    reach_error();
    abort();
  }
  return 0;
}
