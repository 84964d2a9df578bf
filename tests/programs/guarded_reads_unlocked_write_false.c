// expect: FALSE unwind: 2
// Twin of guarded_reads_true.c whose writer forgets the lock: its write of g can come
// between the reader's two reads inside the critical section. g is then not guarded by m,
// and the rvf explorer must not take those reads into a node's extension (rvf::guarded).
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
  g = 1;
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
