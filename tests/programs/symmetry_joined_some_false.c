// expect: FALSE unwind: 4
// Twin of symmetry_joined_all_true.c: main creates three twins in a loop but joins only the
// first, then reports the error. The first thread to claim `taken` waits forever, so main
// gets past its join only when another thread claimed first. The join names only some
// twins: no orders, or the error would be lost.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void __VERIFIER_assume(int);

int taken;

void *claim(void *arg) {
  int mine = 0;
  __VERIFIER_atomic_begin();
  if (!taken) {
    taken = 1;
    mine = 1;
  }
  __VERIFIER_atomic_end();
  __VERIFIER_assume(!mine);
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t[i], 0, claim, 0);
  pthread_join(t[0], 0);
  reach_error();
  abort();
  return 0;
}
