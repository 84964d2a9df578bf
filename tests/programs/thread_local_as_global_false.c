// expect: FALSE unwind: 2
// Twin of thread_local_private_true.c where the variable is an ordinary global: T2 can
// overwrite it between T1's store of 1 and T1's read, so T1 reads 2.
#include <pthread.h>
#include <assert.h>

int tl = 7;

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
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
