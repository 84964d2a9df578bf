// expect: TRUE unwind: 2
// The TRUE twin of atomic_write_before_read_false.c: q's atomic step writes y = 5 only
// when x is still 0, and t only fails when it reads 5 after x = 1 *and* q saw x == 1,
// which cannot both hold: q writes 6 in that case.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
int x, y;
void *t(void *arg) { x = 1; int a = y; if (a == 7) reach_error(); return 0; }
void *q(void *arg) {
  __VERIFIER_atomic_begin();
  if (x == 0) y = 5; else y = 6;
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, q, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
