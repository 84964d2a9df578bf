// FALSE twin of cas_result_true.c: a thread that finds 5 on the stack empties it, so
// another thread's successful push may be undone before it checks.
#include <pthread.h>
extern void reach_error(void);
int top = 0;
void __VERIFIER_atomic_cas(int *v, int e, int u, int *r) {
  if (*v == e) {
    *v = u;
    *r = 1;
  } else {
    *r = 0;
  }
}
void *thr(void *arg) {
  int ok = -1;
  while (1) {
    int old = top;
    __VERIFIER_atomic_cas(&top, old, 5, &ok);
    if (old == 5)
      top = 0;
    if (ok && top == 0) reach_error();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
