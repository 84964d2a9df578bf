// expect: TRUE unwind: 2
// Link pruning (encoder/src/links.rs, `in_own_block`): main's atomic block writes x = 1 and
// reads it back; no other thread can write between the two, so the read takes main's write
// (the only link it keeps) and the error is unreachable. FALSE twins:
// atomic_own_write_read_false.c (the read outside the block) and
// atomic_own_write_cond_false.c (the write under a condition the read does not share).
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x;
void *t(void *arg) { x = 2; return 0; }
int main(void) {
  pthread_t h;
  int r;
  pthread_create(&h, 0, t, 0);
  __VERIFIER_atomic_begin();
  x = 1;
  r = x;
  __VERIFIER_atomic_end();
  if (r != 1) reach_error();
  pthread_join(h, 0);
  return 0;
}
