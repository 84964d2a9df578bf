// Unboundedly many rotators permute `a, b, c` (starting 1, 2, 3) through `tmp`, each whole
// rotation under the user-level lock `m`; the checker, holding `m`, always sees three distinct
// values. Needs the set of value tuples (no interval or single relation says `a != b`).
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
    __VERIFIER_atomic_acquire(&m);
    if (a == b || b == c || a == c) reach_error();
    __VERIFIER_atomic_release(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, checker, 0);
  while (1) pthread_create(&t, 0, rotator, 0);
  return 0;
}
