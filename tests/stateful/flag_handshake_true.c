// expect: TRUE
// A producer and a consumer hand a token back and forth through a flag, forever: the
// producer writes data only while the flag is 0, the consumer checks it only while the flag
// is 1. The data it reads is always the last one written; the values cycle through 0..2.
#include <pthread.h>
#include <assert.h>

int flag = 0;
int data = 0;
int expected = 0;

void *producer(void *arg) {
  int v = 0;
  while (1) {
    while (flag != 0) {
    }
    v = (v + 1) % 3;
    data = v;
    expected = v;
    flag = 1;
  }
  return 0;
}

void *consumer(void *arg) {
  while (1) {
    while (flag != 1) {
    }
    assert(data == expected);
    flag = 0;
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, producer, 0);
  pthread_create(&b, 0, consumer, 0);
  return 0;
}
