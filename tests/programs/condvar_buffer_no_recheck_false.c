// expect: FALSE unwind: 3
// Twin of condvar_buffer_true.c where producer `one` waits for `not_full` once (`if`, no
// re-check): it takes its wake-up for the predicate. Even without spurious wake-ups that is
// wrong: `two` puts 2, `one` finds the slot full and waits, main takes 2 and signals
// `not_full` (waking `one`), but `two` takes the mutex first and puts 3; `one` then
// re-acquires the mutex with the slot full again and would overwrite 3.
// replay: needs search — the SAT engines' trace has the lock reads of threads that then
// block on the held mutex (main, and `two` re-waking), steps a concrete run cannot make, so
// the witness-guided run misses and a later run of the search reaches the error.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_assume(int);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
int full = 0;
int slot = 0;

void put(int v) {
  int k;
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && full; k++)
    pthread_cond_wait(&not_full, &m);
  __VERIFIER_assume(!full);
  assert(!full);
  slot = v;
  full = 1;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&m);
}

void *one(void *arg) {
  pthread_mutex_lock(&m);
  if (full)
    pthread_cond_wait(&not_full, &m);
  assert(!full);
  slot = 1;
  full = 1;
  pthread_cond_signal(&not_empty);
  pthread_mutex_unlock(&m);
  return 0;
}

void *two(void *arg) {
  put(2);
  put(3);
  return 0;
}

int main(void) {
  pthread_t a, b;
  int k, got;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  pthread_mutex_lock(&m);
  for (k = 0; k < 2 && !full; k++)
    pthread_cond_wait(&not_empty, &m);
  __VERIFIER_assume(full);
  got = slot;
  full = 0;
  pthread_cond_signal(&not_full);
  pthread_mutex_unlock(&m);
  assert(got >= 1 && got <= 3);
  return 0;
}
