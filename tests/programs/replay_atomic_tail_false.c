// expect: FALSE unwind: 2
// A witness lists shared accesses only: thread 1's last access inside its atomic block is
// followed by thread 2's accesses, but thread 1 must still leave the block (the call to
// __VERIFIER_atomic_end) before thread 2 can run. A replay has to finish the block first.
#include <pthread.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
extern void reach_error(void);
int x, y, r1, r2;
void *t1(void *arg) {
  __VERIFIER_atomic_begin();
  y = 1;
  r1 = x;
  __VERIFIER_atomic_end();
  return 0;
}
void *t2(void *arg) {
  x = 1;
  r2 = y;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (r1 == 0 && r2 == 1) reach_error();
  return 0;
}
