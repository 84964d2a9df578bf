// expect: TRUE unwind: 2
// Each thread writes its own field of one struct: different memory locations do not race.
#include <pthread.h>
struct pair { int a; int b; } s;
void *fa(void *arg) { s.a = 1; return 0; }
void *fb(void *arg) { s.b = 2; return 0; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, fa, 0);
  pthread_create(&y, 0, fb, 0);
  return 0;
}
