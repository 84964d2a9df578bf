// expect: FALSE unwind: 3
// Twin of global_one_thread_private_true.c in spirit: the counter is touched by one thread
// function only, but that function runs as two threads (created in a loop), so the counter is
// shared between the instances and increments can be lost: both read 0, both write 1, and
// main's check after the joins sees 1. Loops: 2 iterations, unwind 3.
#include <pthread.h>
#include <assert.h>

int count = 0;

void *counting(void *arg) {
  count = count + 1;
  return 0;
}

int main(void) {
  pthread_t t[2];
  int i;
  for (i = 0; i < 2; i++)
    pthread_create(&t[i], 0, counting, 0);
  for (i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(count == 2);
  return 0;
}
