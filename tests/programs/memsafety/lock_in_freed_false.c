// expect: FALSE(valid-deref) unwind: 2
// A worker locks the mutex inside a shared heap record that main may already have freed
// (main does not join first). Twin: lock_in_live_true.c (the join moved before the free).
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
  free(r);
  pthread_join(t, 0);
  return 0;
}
