// expect: FALSE
// The twin of flag_handshake_true.c where the producer raises the flag before it writes the
// expected value: the consumer can check between the two writes.
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
    flag = 1;
    expected = v;
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
