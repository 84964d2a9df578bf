// expect: FALSE unwind: 2
// The twin of join_before_read_true.c with the join moved after main's read.
#include <pthread.h>
int result;
void *work(void *arg) { result = result + 7; return 0; }
int main(void) {
  pthread_t t;
  result = 1;
  pthread_create(&t, 0, work, 0);
  int r = result;
  pthread_join(t, 0);
  return r;
}
