// expect: TRUE unwind: 2 spin: yes
// Twin of local_read_after_loop_false.c: n is 0 or 1 after the loop, never more, however
// long the waiter spins.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

int flag = 0;

void *waiter(void *arg) {
  int n = 0;
  while (flag == 0)
    n = 1;
  if (n > 1) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  flag = 1;
  pthread_join(t, 0);
  return 0;
}
