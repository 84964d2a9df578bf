// expect: FALSE unwind: 2
// The bound check and the increment are not atomic: both threads can pass the check before
// either increments, and the second increment overflows.
#include <pthread.h>
int x = 2147483646;
void *inc(void *arg) {
  if (x < 2147483647) x = x + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  return 0;
}
