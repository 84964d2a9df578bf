// expect: TRUE unwind: 2
// A pointer chosen by a condition on a wide input (c > 3 ? &x : &y), then written through by a
// worker and, through a second pointer chosen by the same condition, by main: whichever cell
// the input picks ends at 2 and the other stays 0.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int x, y;
int c;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int *p = c > 3 ? &x : &y;
  pthread_mutex_lock(&m);
  *p = *p + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  c = __VERIFIER_nondet_int();
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int *q;
  if (c > 3)
    q = &x;
  else
    q = &y;
  pthread_mutex_lock(&m);
  *q = *q + 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  assert(x + y == 2 && x * y == 0);
  return 0;
}
