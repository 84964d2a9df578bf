// expect: FALSE unwind: 2
// Each thread claims a slot with `i = next; slots[i] = id; next = i + 1;` without a lock.
// If both read next == 0, both write slots[0] (last writer wins) and slots[1] stays 0, so
// slots[0] + slots[1] != 3.
#include <pthread.h>
#include <assert.h>

int slots[2];
int next = 0;

void *claim(void *arg) {
  int id = (int)(long)arg;
  int i = next;
  slots[i] = id;
  next = i + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, claim, (void *)1L);
  pthread_create(&t2, 0, claim, (void *)2L);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(slots[0] + slots[1] == 3);
  return 0;
}
