// expect: FALSE unwind: 2
// As sscanf_unknown_input_true.c, but the reader checks y without the lock: it fails when it
// runs after main wrote y and before main set have. Main writes y either from a scan of a
// string that is not a constant (over-approximated: no counterexample may pass through it)
// or, on the other branch, from the constant 5: that execution is a real counterexample, so
// the over-approximation must not hide it.
// replay: needs search — the first witness-guided run does not reach the error; a later run of
// the search does.
#include <pthread.h>
#include <assert.h>

int sscanf(const char *s, const char *format, ...);
extern char __VERIFIER_nondet_char(void);
extern int __VERIFIER_nondet_int(void);

int y = -1, have;

void *reader(void *arg) {
  if (!have)
    assert(y == -1);
  return 0;
}

int main(void) {
  pthread_t t;
  char buf[3];
  buf[0] = __VERIFIER_nondet_char();
  buf[1] = __VERIFIER_nondet_char();
  buf[2] = 0;
  pthread_create(&t, 0, reader, 0);
  int x = 5;
  if (__VERIFIER_nondet_int()) {
    if (sscanf(buf, "%d", &x) == 1)
      y = x;
  } else {
    y = x;
  }
  have = 1;
  pthread_join(t, 0);
  return 0;
}
