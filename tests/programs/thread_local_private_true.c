// expect: TRUE unwind: 2
// `tl` is thread-local (__thread): each thread, and main, has its own copy. Each thread
// stores its id, lets the other run (any interleaving), and still reads its own id; main's
// copy starts at 7 and only main's own increment changes it, to 8.
#include <pthread.h>
#include <assert.h>

__thread int tl = 7;

void *worker(void *arg) {
  int id = (int)(long)arg;
  tl = id;
  assert(tl == id);
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, (void *)1L);
  pthread_create(&t2, 0, worker, (void *)2L);
  tl = tl + 1;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(tl == 8);
  return 0;
}
