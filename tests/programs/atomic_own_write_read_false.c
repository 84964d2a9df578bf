// expect: FALSE unwind: 2
// Twin of atomic_own_write_read_true.c: the read back lies outside the atomic block, so t's
// write x = 2 can come between main's write and its read (the read must keep t's write as a
// candidate).
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
  __VERIFIER_atomic_end();
  r = x;
  if (r != 1) reach_error();
  pthread_join(h, 0);
  return 0;
}
