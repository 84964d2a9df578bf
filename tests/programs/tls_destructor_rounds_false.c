// expect: FALSE unwind: 3
// As tls_destructor_rounds_true.c: the worker's value 7 is destroyed when it returns, and the
// destructor sets the value again (8), so a second round calls the destructor once more. The
// assertion that it ran at most once fails: a model that skipped destructors, or ran only one
// round, would call this program correct.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int calls;

void dtor(void *v) {
  calls++;
  if ((long)v == 7)
    pthread_setspecific(key, (void *)8);
}

void *worker(void *a) {
  pthread_setspecific(key, (void *)7);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_key_create(&key, dtor);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(calls < 2);
  return 0;
}
