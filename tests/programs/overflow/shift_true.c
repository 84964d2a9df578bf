// expect: TRUE unwind: 2
// The twin of shift_false.c: 1 << 30 fits; char arithmetic is promoted to int (no overflow).
#include <pthread.h>
int k = 30, r;
signed char ch = 127;
void *sh(void *arg) { r = 1 << k; ch = ch + 1; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, sh, 0);
  pthread_join(t, 0);
  return 0;
}
