// expect: TRUE unwind: 2
// The twin of multiply_false.c: 65536 * 32767 fits, and unsigned arithmetic wraps without
// overflow (in the sense of the property).
#include <pthread.h>
int a = 65536, b = 32767, c;
unsigned u = 4294967295u, w;
void *mul(void *arg) { c = a * b; w = u * 2u + 7u; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, mul, 0);
  pthread_join(t, 0);
  return 0;
}
