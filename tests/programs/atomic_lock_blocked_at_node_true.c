// expect: TRUE unwind: 2
// Twin of atomic_lock_blocked_at_node_false.c: main holds both mutexes, so C's section
// never passes, whatever idx it reads.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
pthread_mutex_t ms[2];
int idx;
int passed;

void *W(void *a) { idx = 1; return 0; }
void *C(void *a) {
  __VERIFIER_atomic_begin();
  pthread_mutex_lock(&ms[idx]);
  passed = 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t w, c;
  pthread_mutex_init(&ms[0], 0);
  pthread_mutex_init(&ms[1], 0);
  pthread_mutex_lock(&ms[0]);
  pthread_mutex_lock(&ms[1]);
  pthread_create(&w, 0, W, 0);
  pthread_create(&c, 0, C, 0);
  if (passed)
    reach_error();
  return 0;
}
