// expect: FALSE unwind: 2
// main's locals belong to the same owner as the globals (0), but they start indeterminate:
// the thread's read of x fills it with a nondet value, without a logged write. The
// closure must not take x's initial bytes (zero at the start) and its logged writes (none)
// as everything it can hold: it would reject the read of 1.
#include <pthread.h>
extern void reach_error(void);
_Bool *gp;

void *T(void *a) {
  _Bool l = *gp;
  if (l)
    reach_error();
  return 0;
}

int main(void) {
  _Bool x;
  gp = &x;
  pthread_t t;
  pthread_create(&t, 0, T, 0);
  pthread_join(t, 0);
  return 0;
}
