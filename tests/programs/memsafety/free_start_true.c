// expect: TRUE unwind: 2
// A worker walks a heap record through a field pointer and frees the record at its start.
// Twin: free_interior_false.c (the free of the field's address).
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
  free(r);
  return 0;
}
int main(void) {
  pthread_t t;
  r = malloc(sizeof(struct rec));
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  return 0;
}
