// expect: FALSE unwind: 2
// As shared_value_writes_true.c, but the slots start at 1 and the reader asserts it never
// sees 0: a clearer's 0 (one of the writes sharing a value equality) reaches it.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int slot[3] = {1, 1, 1};

void *clearer(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i < 3);
  slot[i] = 0;
  return 0;
}

void *tagger(void *arg) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i >= 0 && i < 3);
  slot[i] = i + 7;
  return 0;
}

void *reader(void *arg) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k < 3);
  int v = slot[k];
  assert(v != 0);
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3, t4;
  pthread_create(&t1, 0, clearer, 0);
  pthread_create(&t2, 0, clearer, 0);
  pthread_create(&t3, 0, tagger, 0);
  pthread_create(&t4, 0, reader, 0);
  return 0;
}
