// expect: TRUE unwind: 2
// Message passing: the sender writes data then raises flag; under sequential consistency a
// receiver that sees flag == 1 must also see data == 1 (the write of data precedes the write
// of flag in the one global order).
#include <pthread.h>
#include <assert.h>

int data = 0, flag = 0;

void *sender(void *arg) {
  data = 1;
  flag = 1;
  return 0;
}

void *receiver(void *arg) {
  if (flag == 1)
    assert(data == 1);
  return 0;
}

int main(void) {
  pthread_t s, r;
  pthread_create(&s, 0, sender, 0);
  pthread_create(&r, 0, receiver, 0);
  pthread_join(s, 0);
  pthread_join(r, 0);
  return 0;
}
