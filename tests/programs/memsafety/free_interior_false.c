// expect: FALSE(valid-free) unwind: 2
// As free_start_true.c, but the worker frees the field's address, which is no start of an
// allocation.
#include <pthread.h>
#include <stdlib.h>
struct rec {
  int id;
  int val;
};
struct rec *r;
void *worker(void *arg) {
  int *v = &r->val;
  *v = 5;
  free(v);
  return 0;
}
int main(void) {
  pthread_t t;
  r = malloc(sizeof(struct rec));
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  free(r);
  return 0;
}
