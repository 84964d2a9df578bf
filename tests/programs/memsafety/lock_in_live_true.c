// expect: TRUE unwind: 2
// A worker locks the mutex inside a shared heap record; main joins it before freeing the
// record. Twin of lock_in_freed_false.c.
#include <pthread.h>
#include <stdlib.h>
struct rec {
  pthread_mutex_t m;
  int n;
};
struct rec *r;
void *worker(void *arg) {
  pthread_mutex_lock(&r->m);
  pthread_mutex_unlock(&r->m);
  return 0;
}
int main(void) {
  pthread_t t;
  r = malloc(sizeof(struct rec));
  pthread_mutex_init(&r->m, 0);
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(r);
  return 0;
}
