// expect: FALSE unwind: 2
// The twin of struct_fields_true.c where both threads write field a.
#include <pthread.h>
struct pair { int a; int b; } s;
void *fa(void *arg) { s.a = 1; return 0; }
void *fb(void *arg) { s.a = 2; return 0; }
int main(void) {
  pthread_t x, y;
  pthread_create(&x, 0, fa, 0);
  pthread_create(&y, 0, fb, 0);
  return 0;
}
