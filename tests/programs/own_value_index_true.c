// expect: TRUE unwind: 3
// main's own reads (symex::main_values): `mask` is written by main alone, also after it
// created the worker, so main's reads of it take main's last write without an event and the
// index `t & q.mask` is known in bounds; `tail`, which the worker writes too, stays an event,
// and so do the worker's reads of `mask`.
#include <pthread.h>
#include <assert.h>

struct queue {
  int mask;
  int tail;
  int elems[4];
};

struct queue q;

void *worker(void *arg) {
  int t = q.tail;
  int m = q.mask;
  q.tail = t + 1;
  assert(m == 1 || m == 3);
  return 0;
}

int main(void) {
  pthread_t w;
  q.mask = 1;
  pthread_create(&w, 0, worker, 0);
  int t = q.tail;
  if (t > 0)
    q.mask = 3;
  q.elems[t & q.mask] = 5;
  assert(q.mask == 1 || q.mask == 3);
  pthread_join(w, 0);
  return 0;
}
