// expect: TRUE unwind: 4
// Each thread retries pthread_mutex_trylock at most 3 times in a do-while loop and, if it got
// the mutex, increments `done` inside it. Increments never get lost (they are under the
// mutex), so done is 0, 1 or 2 and equals the number of threads that got the lock.
// Loop: at most 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done = 0;
int got[2];

void *worker(void *arg) {
  int id = (int)(long)arg;
  int k = 0, r;
  do {
    r = pthread_mutex_trylock(&m);
    k++;
  } while (r != 0 && k < 3);
  if (r == 0) {
    got[id] = 1;
    done = done + 1;
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, (void *)0L);
  pthread_create(&t2, 0, worker, (void *)1L);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(done == got[0] + got[1]);
  return 0;
}
