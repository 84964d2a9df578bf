// expect: FALSE unwind: 2
// Both threads increment the same counter, but each under a DIFFERENT mutex, which gives no
// mutual exclusion: T1 reads 0 under m1, T2 reads 0 under m2, both write 1 -> counter == 1.
#include <pthread.h>
#include <assert.h>

pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;
int counter = 0;

void *t1(void *arg) {
  pthread_mutex_lock(&m1);
  counter = counter + 1;
  pthread_mutex_unlock(&m1);
  return 0;
}

void *t2(void *arg) {
  pthread_mutex_lock(&m2);
  counter = counter + 1;
  pthread_mutex_unlock(&m2);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(counter == 2);
  return 0;
}
