// expect: TRUE unwind: 2
// Several writes of one value to one cell (a null store under each index a symbolic slot may
// take, as elimination_backoff_stack's `location[mypid] = NULL`) share one value equality in
// ζ; the reader sees 0, the initial 0 or a slot's own tag, never anything else.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int slot[3];

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
  assert(v == 0 || v == k + 7);
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
