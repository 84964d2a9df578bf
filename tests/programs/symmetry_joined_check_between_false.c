// expect: FALSE unwind: 2
// Twin of symmetry_joined_all_true.c: main joins both twins, but reaches the error between
// the two joins, where it has waited for the first only. The first thread to claim `taken`
// never ends (it waits forever), so the error needs the thread created second to claim
// first: then the first one ends, main's first join returns and the error is reached. The
// joins are no join block (a check between them): no orders, or the error would be lost.
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
  pthread_t a, b;
  pthread_create(&a, 0, claim, 0);
  pthread_create(&b, 0, claim, 0);
  pthread_join(a, 0);
  reach_error();
  abort();
  pthread_join(b, 0);
  return 0;
}
