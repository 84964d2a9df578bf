// Unboundedly many threads push by compare-and-swap: a successful CAS stores a non-zero
// index in `top`, and no thread ever stores 0 there, so after a success the stack is not
// empty. Needs the partition by the thread's own CAS result (`ok == 1` implies `top != 0`),
// which a join of both outcomes forgets.
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
    if (ok && top == 0) reach_error();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  while (1) pthread_create(&t, 0, thr, 0);
  return 0;
}
