// expect: FALSE unwind: 2
// A pointer chosen by a condition on a wide input (c > 3 ? &x : &y), then written through by a
// worker and, through a second pointer chosen by the same condition, by main: whichever cell
// the input picks ends at 2, except for c = 4: main then picks y, the worker x (FALSE twin).
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
  if (c > 4)
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
