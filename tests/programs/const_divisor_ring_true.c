// expect: TRUE unwind: 3
// A ring index kept below its constant size by `(head + 1) % 3`, updated under a mutex by two
// threads, two pushes each: every update is atomic, so after the four pushes head == 4 % 3 == 1
// in every interleaving, and every index used is below 3 (buf has 4 cells like its twin's).
// Thread `a` also checks remainders by a constant on nondet inputs over all 2^32 values:
// x % 3 < 3 and x - x % 3 is a multiple of 3 (unsigned), and for signed s the C99 rule for
// s % -7 (the sign of s, |s % -7| < 7). The FALSE twin const_divisor_ring_false.c differs in
// one write only.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
unsigned int head = 0;
int buf[4];
int ok = 0;

void *a(void *arg) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int r = x % 3;
  int s = __VERIFIER_nondet_int();
  int sr = s % -7;
  ok = r < 3 && (x - r) % 3 == 0 && sr > -7 && sr < 7 && (sr == 0 || (sr < 0) == (s < 0));
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    buf[head] = i;
    head = (head + 1) % 3;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *b(void *arg) {
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    buf[head] = 10 + i;
    head = (head + 1) % 3;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t ta, tb;
  pthread_create(&ta, 0, a, 0);
  pthread_create(&tb, 0, b, 0);
  pthread_join(ta, 0);
  pthread_join(tb, 0);
  assert(ok == 1);
  assert(head == 1);
  return 0;
}
