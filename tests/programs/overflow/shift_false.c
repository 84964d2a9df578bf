// expect: FALSE unwind: 2
// 1 << 31 does not fit in int.
#include <pthread.h>
int k = 31, r;
void *sh(void *arg) { r = 1 << k; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, sh, 0);
  pthread_join(t, 0);
  return 0;
}
