// expect: FALSE unwind: 3
// Twin of own_value_index_true.c: the worker writes `mask` too, so main's read of it may see
// 7; taking main's own last write would hide that (symex::main_values finds the guess wrong
// and executes again with main's reads of `mask` as events).
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
  q.tail = t + 1;
  q.mask = 7;
  return 0;
}

int main(void) {
  pthread_t w;
  q.mask = 1;
  pthread_create(&w, 0, worker, 0);
  int t = q.tail;
  if (t > 0)
    q.mask = 3;
  q.elems[t & 3] = 5;
  assert(q.mask == 1 || q.mask == 3);
  pthread_join(w, 0);
  return 0;
}
