// expect: TRUE unwind: 2
// sscanf of string literals, evaluated as the C library does: "12 x-3" against "%d x%d"
// stores 12 and -3 and returns 2; "7;" against "%d,%d" stores 7, stops at the mismatch and
// returns 1, leaving b as it was; a blank string is an input failure before the first
// conversion: EOF. A thread reads the values main scanned after it joins nothing: it only
// sees them once main has published them under the flag.
#include <pthread.h>
#include <assert.h>

int sscanf(const char *s, const char *format, ...);
extern void __VERIFIER_assume(int);

int a, b, ready;

void *reader(void *arg) {
  __VERIFIER_assume(ready);
  assert(a == 7 && b == -3);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  int r = sscanf("12 x-3", "%d x%d", &a, &b);
  assert(r == 2 && a == 12 && b == -3);
  r = sscanf("7;", "%d,%d", &a, &b);
  assert(r == 1 && a == 7 && b == -3);
  r = sscanf("   ", "%d", &a);
  assert(r == -1 && a == 7);
  unsigned x;
  r = sscanf("0x1F", "%x", &x);
  assert(r == 1 && x == 31);
  ready = 1;
  pthread_join(t, 0);
  return 0;
}
