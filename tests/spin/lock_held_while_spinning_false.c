// expect: FALSE unwind: 2 spin: yes
// Twin of lock_held_while_spinning_true.c: the spinner takes the mutex, raises `spinning`,
// and waits for `go` still holding it; the checker reaches the error only after the spinner
// has left the loop and released the mutex with a second flag `done` set: the spinner must
// get past its wait (any number of effect-free iterations later) for the error to be reached.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int go = 0;
int spinning = 0;
int done = 0;

void *spinner(void *arg) {
  pthread_mutex_lock(&m);
  spinning = 1;
  while (go == 0)
    ;
  done = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *checker(void *arg) {
  pthread_mutex_lock(&m);
  if (spinning == 1 && done == 1) {
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
