// expect: FALSE unwind: 2
// A logging function with a body and a variadic parameter list, called with extra
// arguments (as the driver tasks call printk); it ignores them. The counter update around it
// is a plain race, so both increments can read 0.
#include <pthread.h>
#include <assert.h>

int logged = 0;
int counter = 0;

int log_msg(const char *fmt, ...) {
  logged = 1;
  return 0;
}

void *worker(void *arg) {
  int c = counter;
  log_msg("worker %d read %d\n", 7, c);
  counter = c + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
