// expect: TRUE unwind: 2
// A spin lock and a read-write lock protect their counters; readers see a writer's update
// whole (both fields or neither).
#include <pthread.h>
pthread_spinlock_t spin;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int counter;
int a, b;

void *writer(void *arg) {
  pthread_spin_lock(&spin);
  counter = counter + 1;
  pthread_spin_unlock(&spin);
  pthread_rwlock_wrlock(&rw);
  a = 1;
  b = 1;
  pthread_rwlock_unlock(&rw);
  return 0;
}

void *reader(void *arg) {
  pthread_rwlock_rdlock(&rw);
  __CPROVER_assert(a == b, "a writer's update is whole");
  pthread_rwlock_unlock(&rw);
  if (pthread_spin_trylock(&spin) == 0) {
    counter = counter + 1;
    pthread_spin_unlock(&spin);
  }
  return 0;
}

int main(void) {
  pthread_t w1, w2, r;
  pthread_spin_init(&spin, 0);
  pthread_create(&w1, 0, writer, 0);
  pthread_create(&w2, 0, writer, 0);
  pthread_create(&r, 0, reader, 0);
  pthread_join(w1, 0);
  pthread_join(w2, 0);
  pthread_join(r, 0);
  __CPROVER_assert(counter == 2 || counter == 3, "no lost update");
  __CPROVER_assert(pthread_rwlock_tryrdlock(&rw) == 0, "free: a read lock");
  __CPROVER_assert(pthread_rwlock_trywrlock(&rw) == 16, "read-locked: EBUSY for a writer");
  return 0;
}
