// expect: FALSE unwind: 3
// Classic bug: main passes &i, the address of its loop counter, to each thread. A thread may
// dereference it after main has incremented i, so the two threads need not see 0 and 1:
// e.g. thread 0 runs after the loop ends and reads i == 2. The sum of the values seen is then
// not 0 + 1. The adds are atomic, so only the argument race matters. Loops: 2 iterations,
// unwind 3.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int sum = 0;

void *worker(void *arg) {
  int v = *(int *)arg;
  __VERIFIER_atomic_begin();
  sum = sum + v;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t[2];
  int i, j;
  for (i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, &i);
  for (j = 0; j < 2; j++)
    pthread_join(t[j], 0);
  assert(sum == 1);
  return 0;
}
