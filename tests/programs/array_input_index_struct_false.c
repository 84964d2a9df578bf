// expect: FALSE unwind: 2
// As array_input_index_struct_true.c, but the reader asserts it never sees 4: with i = k = 3
// and the writer's store before the reader's load, it reads s[3].b = 4.
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
  assert(v != 4);
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
