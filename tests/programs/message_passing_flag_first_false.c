// expect: FALSE unwind: 2
// Twin of message_passing_true.c with the sender's writes swapped (flag first): the receiver
// can read flag == 1 between the two writes and then data == 0.
#include <pthread.h>
#include <assert.h>

int data = 0, flag = 0;

void *sender(void *arg) {
  flag = 1;
  data = 1;
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
