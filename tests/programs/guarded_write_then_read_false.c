// expect: FALSE unwind: 2
// Link pruning (encoder/src/links.rs): a write under the read's own guard prunes the writes
// before it in program order, not another thread's: outside an atomic block t's x = 2 can
// come between main's x = 1 and its read under the same condition.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *arg) { x = 2; return 0; }
int main(void) {
  pthread_t h;
  int r;
  int c = __VERIFIER_nondet_int();
  pthread_create(&h, 0, t, 0);
  if (c) {
    x = 1;
    r = x;
    if (r != 1) reach_error();
  }
  pthread_join(h, 0);
  return 0;
}
