// expect: FALSE unwind: 2
// A recursive mutex in a heap object, set up through a pointer: each thread locks it twice and
// unlocks it twice, so both increments happen and the assertion fails (with a normal mutex
// the second lock would block and nothing after it would be reachable).
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
struct obj { int v; pthread_mutex_t lock; };
void *w(void *arg) {
  struct obj *o = arg;
  pthread_mutex_lock(&o->lock);
  pthread_mutex_lock(&o->lock);
  o->v++;
  pthread_mutex_unlock(&o->lock);
  pthread_mutex_unlock(&o->lock);
  return 0;
}
int main(void) {
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  struct obj *o = malloc(sizeof *o);
  o->v = 0;
  pthread_mutex_init(&o->lock, &a);
  pthread_t t1, t2;
  pthread_create(&t1, 0, w, o);
  pthread_create(&t2, 0, w, o);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(o->v != 2);
  return 0;
}
