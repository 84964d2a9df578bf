// FALSE twin of small_rotation_true.c: the checker does not take the lock, so it may look
// in the middle of a rotation, right after `a = b`, where `a == b`.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_assume(int);
int a = 1, b = 2, c = 3, tmp;
int m = 0;
void __VERIFIER_atomic_acquire(int *l) { __VERIFIER_assume(*l == 0); *l = 1; }
void __VERIFIER_atomic_release(int *l) { __VERIFIER_assume(*l == 1); *l = 0; }
void *rotator(void *arg) {
  while (1) {
    __VERIFIER_atomic_acquire(&m);
    tmp = a;
    a = b;
    b = c;
    c = tmp;
    __VERIFIER_atomic_release(&m);
  }
  return 0;
}
void *checker(void *arg) {
  while (1) {
    if (a == b || b == c || a == c) reach_error();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, checker, 0);
  while (1) pthread_create(&t, 0, rotator, 0);
  return 0;
}
