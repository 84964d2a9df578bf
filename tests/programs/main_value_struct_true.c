// expect: TRUE unwind: 3
// main fills a shared struct before creating the threads; the threads then only read `limit`
// and `scale` (through their argument) while they update `count` under a lock. Symbolic
// execution reads `limit` and `scale` in the threads by main's values, without events
// (symex::main_values); the FALSE twins are main_value_late_write_false.c and
// main_value_thread_writes_false.c.
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
  s.limit = 7;
  s.limit = 10;
  s.scale = 3;
  s.count = 0;
  pthread_create(&t1, 0, worker, &s);
  pthread_create(&t2, 0, worker, &s);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(s.count == 6);
  return 0;
}
