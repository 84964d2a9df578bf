// expect: TRUE unwind: 2 spin: yes
// The spinner holds the mutex while it waits for `go`, with `spinning` raised. The checker
// needs the mutex to look, so it can never see spinning == 1. Cutting the spinner's
// effect-free iterations must not let the checker in while the mutex is held.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int go = 0;
int spinning = 0;

void *spinner(void *arg) {
  pthread_mutex_lock(&m);
  spinning = 1;
  while (go == 0)
    ;
  spinning = 0;
  pthread_mutex_unlock(&m);
  return 0;
}

void *checker(void *arg) {
  pthread_mutex_lock(&m);
  if (spinning == 1) {
    reach_error();
    abort();
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, spinner, 0);
  pthread_create(&b, 0, checker, 0);
  go = 1;
  return 0;
}
