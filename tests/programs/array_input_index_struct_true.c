// expect: TRUE unwind: 2
// Cells of 12 bytes (not a power of two) selected by inputs. The writer sets s[i].b = i + 1 for
// an input i in 0..3; the reader looks at s[k].b for an input k in 0..4. It sees 0 (cell not
// written yet, or another cell) or k + 1 (the written cell, k = i), never 5: i + 1 <= 4.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

struct cell {
  int a;
  int b;
  int c;
};
struct cell s[5];

void *writer(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i <= 3);
  s[i].b = i + 1;
  return 0;
}

void *reader(void *arg) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 4);
  int v = s[k].b;
  assert(v == 0 || v == k + 1);
  assert(v != 5);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
