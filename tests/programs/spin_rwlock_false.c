// expect: FALSE unwind: 2
// The twin of spin_rwlock_true.c: two readers hold the read lock together, so a read lock
// excludes no other reader.
#include <pthread.h>
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int readers;

void *reader(void *arg) {
  pthread_rwlock_rdlock(&rw);
  __CPROVER_atomic_begin();
  readers = readers + 1;
  __CPROVER_atomic_end();
  __CPROVER_assert(readers == 1, "two readers may be inside");
  __CPROVER_atomic_begin();
  readers = readers - 1;
  __CPROVER_atomic_end();
  pthread_rwlock_unlock(&rw);
  return 0;
}

int main(void) {
  pthread_t r1, r2;
  pthread_create(&r1, 0, reader, 0);
  pthread_create(&r2, 0, reader, 0);
  return 0;
}
