// expect: FALSE unwind: 2
// The error needs a specific input AND a specific schedule: T1 writes a nondet value to x
// and then resets x to 0; T2 fails only if it reads x == 42. So the input must be 42 and T2's
// read must fall between T1's two writes. With any other input, or T2 before/after both
// writes, nothing fails.
#include <pthread.h>

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "nondet_input_and_schedule_false.c", 10, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int x = 0;

void *t1(void *arg) {
  int v = __VERIFIER_nondet_int();
  x = v;
  x = 0;
  return 0;
}

void *t2(void *arg) {
  if (x == 42) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
