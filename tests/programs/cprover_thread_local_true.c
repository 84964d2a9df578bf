// expect: TRUE unwind: 2
// `__CPROVER_thread_local` is one instance per thread: the thread's write is to its own copy.
#include <pthread.h>
__CPROVER_thread_local int mine;

void *t(void *arg) {
  mine = 1;
  return 0;
}

int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t, 0);
  pthread_join(id, 0);
  __CPROVER_assert(mine == 0, "main's instance");
  return 0;
}
