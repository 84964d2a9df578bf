// expect: TRUE unwind: 2
// The mutex lives inside a heap-allocated struct, initialised with pthread_mutex_init and
// destroyed after the joins. Both threads increment the struct's counter under that mutex,
// so no update is lost: count == 2.
#include <pthread.h>
#include <assert.h>
#include <stdlib.h>

struct shared {
  pthread_mutex_t lock;
  int count;
};

void *bump(void *arg) {
  struct shared *s = arg;
  pthread_mutex_lock(&s->lock);
  s->count = s->count + 1;
  pthread_mutex_unlock(&s->lock);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  struct shared *s = malloc(sizeof(struct shared));
  if (s == 0)
    return 0;
  pthread_mutex_init(&s->lock, 0);
  s->count = 0;
  pthread_create(&t1, 0, bump, s);
  pthread_create(&t2, 0, bump, s);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(s->count == 2);
  pthread_mutex_destroy(&s->lock);
  free(s);
  return 0;
}
