// expect: TRUE unwind: 6
// Mutual recursion: is_even(k) = k == 0 || is_odd(k - 1) and
// is_odd(k) = k != 0 && is_even(k - 1). For n in [0, 4] (nondet), at most 4 nested calls
// after the first (at most 3 active frames of one function); unwind 6 leaves a margin. The thread stores both results; they always differ and match n % 2.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int n, ev, od;

int is_odd(int k);

int is_even(int k) { return k == 0 || is_odd(k - 1); }

int is_odd(int k) { return k != 0 && is_even(k - 1); }

void *worker(void *arg) {
  ev = is_even(n);
  od = is_odd(n);
  return 0;
}

int main(void) {
  pthread_t t;
  n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 4);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(ev != od);
  assert(ev == (n % 2 == 0));
  return 0;
}
