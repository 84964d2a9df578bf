// expect: TRUE unwind: 2
// Every write of g happens holding m, so the two reads of g inside one critical section
// see the same value. Twins: guarded_reads_unlocked_write_false.c,
// guarded_reads_main_write_false.c (the rvf explorer takes reads of a global its thread's
// lock guards, and the unlock, into a node's extension: rvf::guarded).
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g = 0;
void *reader(void *arg) {
  pthread_mutex_lock(&m);
  int a = g;
  int b = g;
  pthread_mutex_unlock(&m);
  assert(a == b);
  return 0;
}
void *writer(void *arg) {
  pthread_mutex_lock(&m);
  g = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t r, w;
  g = 5;
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return 0;
}
