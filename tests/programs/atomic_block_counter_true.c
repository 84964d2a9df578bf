// expect: TRUE unwind: 4
// Three threads created in a loop each increment the counter once inside
// __VERIFIER_atomic_begin/end; the read and the write of the increment cannot be separated,
// so after joining all three counter == 3. Loops: 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int counter = 0;

void *worker(void *arg) {
  __VERIFIER_atomic_begin();
  counter = counter + 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(counter == 3);
  return 0;
}
