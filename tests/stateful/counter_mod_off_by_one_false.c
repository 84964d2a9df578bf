// expect: FALSE
// The twin of counter_mod_true.c with the wrap-around one late: the counter reaches 4.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x = 0;

int next(int v) {
  int n = v + 1;
  if (n == 5)
    n = 0;
  return n;
}

void *worker(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    x = next(x);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

void *checker(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    assert(x < 4);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, checker, 0);
  return 0;
}
