// expect: FALSE unwind: 2
// The FALSE twin of ptr_input_struct_true.c: the writer sets (p + i)->b = i + 1 for an input i
// in 0..4, so the reader, reading q[k].b for an input k in 0..4, sees 5 when i = k = 4 and the
// writer ran first.
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
  __VERIFIER_assume(i >= 0 && i <= 4);
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
