// expect: FALSE unwind: 2
// 65536 * 32768 = 2^31 does not fit in int.
#include <pthread.h>
int a = 65536, b = 32768, c;
void *mul(void *arg) { c = a * b; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, mul, 0);
  pthread_join(t, 0);
  return 0;
}
