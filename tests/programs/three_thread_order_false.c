// expect: FALSE unwind: 2
// The only error needs three threads in one specific order: A moves stage 0 -> 1, B moves
// 1 -> 2 and C fails on seeing 2. So A's write must precede B's read and B's write must
// precede C's read: A, then B, then C.
// main creates them in the reverse order, so the natural creation order never fails.
#include <pthread.h>

extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "three_thread_order_false.c", 10, "reach_error"); }

int stage = 0;

void *a(void *arg) {
  if (stage == 0)
    stage = 1;
  return 0;
}

void *b(void *arg) {
  if (stage == 1)
    stage = 2;
  return 0;
}

void *c(void *arg) {
  if (stage == 2) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t ta, tb, tc;
  pthread_create(&tc, 0, c, 0);
  pthread_create(&tb, 0, b, 0);
  pthread_create(&ta, 0, a, 0);
  pthread_join(ta, 0);
  pthread_join(tb, 0);
  pthread_join(tc, 0);
  return 0;
}
