// expect: FALSE unwind: 2
// The twin of cprover_thread_local_true.c: without the thread-local class the write is shared.
#include <pthread.h>
int mine;

void *t(void *arg) {
  mine = 1;
  return 0;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  __CPROVER_assert(mine == 0, "the write is shared");
  return 0;
}
