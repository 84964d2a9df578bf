// expect: FALSE unwind: 2 spin: yes
// The waiting loop writes a local that is read after the loop: its first iteration changes
// n from 0 to 1 (an effect, kept), later ones leave it at 1 (cut). n == 1 after the loop
// when the waiter saw the flag clear at least once.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

int flag = 0;

void *waiter(void *arg) {
  int n = 0;
  while (flag == 0)
    n = 1;
  if (n == 1) {
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
