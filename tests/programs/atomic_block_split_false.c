// expect: FALSE unwind: 2
// The read and the write of the increment sit in two separate atomic blocks, so another
// thread's whole increment can run between them: T1 reads 0 (block 1), T2 reads 0 and writes
// 1, T1 writes 1 (block 2) -> counter == 1 at the end.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int counter = 0;

void *worker(void *arg) {
  int tmp;
  __VERIFIER_atomic_begin();
  tmp = counter;
  __VERIFIER_atomic_end();
  __VERIFIER_atomic_begin();
  counter = tmp + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
