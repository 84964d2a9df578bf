// expect: FALSE unwind: 3
// The twin of const_divisor_ring_true.c whose thread `b` updates the ring index with
// `(head + 1) % 4`: the write can store 3, outside the range the other writes keep. With a
// pushing twice, then b twice (each push atomic under the mutex), head goes 1, 2, then
// (2 + 1) % 4 == 3 and (3 + 1) % 4 == 0, so `head == 1` fails after the joins (buf has 4
// cells, so buf[head] stays in bounds). The division checks of thread `a` hold as in the TRUE
// twin.
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
    head = (head + 1) % 4;
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
