// expect: TRUE unwind: 2
// An input-dependent index into an array of 12-byte structs through a pointer: the writer sets
// (p + i)->b = i + 1 for an input i in 0..3, the reader reads q[k].b through its argument and
// (q + k)->c for an input k in 0..4. It sees 0 or k + 1 in b, never 5, and 0 in c.
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
  struct cell *p = s;
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i <= 3);
  (p + i)->b = i + 1;
  return 0;
}

void *reader(void *arg) {
  struct cell *q = (struct cell *)arg;
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 4);
  int v = q[k].b;
  assert(v == 0 || v == k + 1);
  assert(v != 5);
  assert((q + k)->c == 0);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, writer, 0);
  pthread_create(&t2, 0, reader, s);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
