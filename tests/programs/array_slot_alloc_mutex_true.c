// expect: TRUE unwind: 2
// Twin of array_slot_alloc_race_false.c with the slot claim inside a mutex: the two threads
// get slots 0 and 1 in some order, so slots[0] + slots[1] == 3 and next == 2.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int slots[2];
int next = 0;

void *claim(void *arg) {
  int id = (int)(long)arg;
  int i;
  pthread_mutex_lock(&m);
  i = next;
  slots[i] = id;
  next = i + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, claim, (void *)1L);
  pthread_create(&t2, 0, claim, (void *)2L);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(slots[0] + slots[1] == 3 && next == 2);
  return 0;
}
