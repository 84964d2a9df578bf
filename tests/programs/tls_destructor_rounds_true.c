// expect: TRUE unwind: 3
// A thread-specific data key with a destructor. The worker's value 7 is destroyed when the
// worker returns; the destructor sets the value again (8), so a second round destroys that:
// two calls, the last with 8. The quitter ends through pthread_exit, which also runs the
// destructor (value 9). Main's own value 5 is never destroyed: main returns, it does not exit
// as a thread.
#include <pthread.h>
#include <assert.h>

pthread_key_t key;
int calls;
long last;

void dtor(void *v) {
  calls++;
  last = (long)v;
  if ((long)v == 7)
    pthread_setspecific(key, (void *)8);
}

void *worker(void *a) {
  pthread_setspecific(key, (void *)7);
  return 0;
}

void *quitter(void *a) {
  pthread_setspecific(key, (void *)9);
  pthread_exit(0);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_key_create(&key, dtor);
  pthread_setspecific(key, (void *)5);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(calls == 2 && last == 8);
  pthread_create(&t, 0, quitter, 0);
  pthread_join(t, 0);
  assert(calls == 3 && last == 9);
  assert(pthread_getspecific(key) == (void *)5);
  return 0;
}
