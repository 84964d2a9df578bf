// expect: FALSE unwind: 2
// Symmetry breaking past the first event (src/symex/twin_segments.rs): two identical threads
// (twins) take a ticket in their first block and check it in their second. The error needs
// the thread holding ticket 0 to run its second block after the other's. Twins get ordered
// second blocks only where their states agree (here: the ticket each read, which differs),
// so the error must stay reachable; ordering the second blocks by creation alone would lose
// it (the anchors already give ticket 0 to the thread created first).
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
  if (mine == 0 && seen == 1) reach_error();
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
