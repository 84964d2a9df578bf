// expect: FALSE unwind: 2
// The twin of bytes_of_word_true.c: the second thread writes a short covering bytes 0 and 1.
#include <pthread.h>
#include <string.h>
char buf[4];
void *lo(void *arg) { buf[0] = 1; return 0; }
void *hi(void *arg) { short s = 0x0202; memcpy(buf, &s, 2); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, lo, 0);
  pthread_create(&b, 0, hi, 0);
  return 0;
}
