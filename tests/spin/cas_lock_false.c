// expect: FALSE unwind: 2 spin: yes
// Twin of cas_lock_true.c: the lock is released before the check, so the second worker's
// CAS (after failing while the first held the lock) succeeds and both are inside.
#include <pthread.h>
#include <assert.h>

int l = 0;
int in = 0;

int __VERIFIER_atomic_cas(int *p, int old, int new) {
  if (*p == old) {
    *p = new;
    return 1;
  }
  return 0;
}

void *worker(void *arg) {
  while (!__VERIFIER_atomic_cas(&l, 0, 1))
    ;
  in = in + 1;
  l = 0;
  assert(in == 1);
  in = in - 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  return 0;
}
