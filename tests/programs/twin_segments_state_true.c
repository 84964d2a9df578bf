// expect: TRUE unwind: 2
// Twin of twin_segments_state_false.c: the error needs the holder of ticket 0 to see both
// second blocks done before its own, which cannot be (its own is one of them).
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int turn;
int seen;
void *w(void *arg) {
  int mine;
  __VERIFIER_atomic_begin();
  mine = turn;
  turn = turn + 1;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  if (mine == 0 && seen == 2) reach_error();
  seen = seen + 1;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  return 0;
}
