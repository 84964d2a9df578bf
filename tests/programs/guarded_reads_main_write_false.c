// expect: FALSE unwind: 2
// Twin of guarded_reads_true.c whose main writes g after creating the reader, without the
// lock: only a write before the first thread creation is exempt from holding m
// (sharing::guards), so g is not guarded and the reads stay reads of their own.
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
int main(void) {
  pthread_t r;
  g = 5;
  pthread_create(&r, 0, reader, 0);
  g = 1;
  pthread_join(r, 0);
  return 0;
}
