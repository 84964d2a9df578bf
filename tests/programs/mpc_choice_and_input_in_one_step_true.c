// expect: TRUE unwind: 2
// Enumerated choices (a _Bool) and decisions on a symbolic input interleaved in one step of
// one thread: b chooses which test of i is made, and c (chosen only when i < -3) which store.
// The outcomes: (b, i > 0), (b, i <= 0), (!b, i < -3, c), (!b, i < -3, !c), (!b, i >= -3):
// 5 runs, each once. x == 4 never happens.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);

int x = 0;

int main(void) {
  _Bool b = __VERIFIER_nondet_bool();
  int i = __VERIFIER_nondet_int();
  if (b) {
    if (i > 0)
      x = 1;
  } else if (i < -3) {
    _Bool c = __VERIFIER_nondet_bool();
    x = c ? 2 : 3;
  }
  assert(x != 4);
  return 0;
}
