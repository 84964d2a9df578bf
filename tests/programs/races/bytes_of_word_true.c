// expect: TRUE unwind: 2
// Two threads write different bytes of one char array: byte-precise locations do not race.
#include <pthread.h>
char buf[4];
void *lo(void *arg) { buf[0] = 1; return 0; }
void *hi(void *arg) { buf[1] = 2; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, lo, 0);
  pthread_create(&b, 0, hi, 0);
  return 0;
}
