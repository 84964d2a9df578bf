// expect: FALSE unwind: 2
// Twin of local_two_roles_private_true.c where main's call of `add` publishes the address of
// its local `tmp` in the global `pub`: the worker (which runs `add` too) writes 5 through it
// while main is between the store of `tmp` and its read. The local is per call frame but a
// pointer to it reaches another thread, so the sharing pass must keep it shared.
// Interleaving: main: tmp = 2, pub = &tmp; worker: add(1, 0), p = pub, *p = 5; main reads
// tmp = 5 and returns it: the assertion r == 2 fails.
#include <pthread.h>
#include <assert.h>

long *pub;
long x;

long add(long d, int publish) {
  long tmp = d;
  if (publish)
    pub = &tmp;
  x = x + 1;
  return tmp;
}

void *worker(void *arg) {
  add(1, 0);
  long *p = pub;
  if (p)
    *p = 5;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  long r = add(2, 1);
  assert(r == 2);
  pthread_join(t, 0);
  return 0;
}
