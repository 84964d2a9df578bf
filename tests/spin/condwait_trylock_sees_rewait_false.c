// expect: FALSE unwind: 3 spin: yes
// (The prober's own await loop is reduced; main's condition wait is not.)
// A program with pthread_mutex_trylock can observe that a waiter re-took its mutex between
// two waits, so there the condition-wait reduction is off. main waits on a condition nobody
// signals (spurious wake-ups only). The prober sees the mutex free (main in its first wait),
// held (main woke up), free (its second wait) and held again (woke up again): the error needs
// the mutex taken after the second wait, which blocking main at its second wait would hide.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int waiting = 0;
int ready = 0;

int free_now(void) {
  if (pthread_mutex_trylock(&m) == 0) {
    pthread_mutex_unlock(&m);
    return 1;
  }
  return 0;
}

void *prober(void *arg) {
  while (waiting == 0)
    ;
  int a = free_now();
  int b = !free_now();
  int c2 = free_now();
  int d = !free_now();
  if (a && b && c2 && d) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, prober, 0);
  pthread_mutex_lock(&m);
  waiting = 1;
  while (ready == 0)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return 0;
}
