// expect: TRUE unwind: 2
// A __thread variable has one instance per thread: the writes of the two threads do not
// touch the same memory.
#include <pthread.h>
__thread int mine;
void *work(void *arg) { mine = mine + 1; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  mine = 9;
  return 0;
}
