// expect: FALSE unwind: 3
// Twin of main_value_struct_true.c: main writes `limit` again after creating the first
// thread, so that thread may read 20 (main's value at its create is not the only one it can
// see) and its assertion fails.
#include <pthread.h>
#include <assert.h>

struct shared {
  int limit;
  int scale;
  int count;
  pthread_mutex_t m;
};

struct shared s;

void *worker(void *arg) {
  struct shared *p = (struct shared *)arg;
  int step = p->scale * 2;
  pthread_mutex_lock(&p->m);
  if (p->count + step <= p->limit)
    p->count = p->count + step;
  pthread_mutex_unlock(&p->m);
  assert(p->limit == 10 && p->scale == 3);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_mutex_init(&s.m, 0);
  s.limit = 10;
  s.scale = 3;
  s.count = 0;
  pthread_create(&t1, 0, worker, &s);
  s.limit = 20;
  pthread_create(&t2, 0, worker, &s);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
