// Verdict: TRUE at --unwind 71.
// 70 threads created in a loop; each sets a flag of its own; main joins them all, so the last
// flag is set. (More threads than the default limit of 64: the limit grows with the bound.)
#include <pthread.h>
#include <assert.h>

int done;

void *work(void *arg) {
  if (arg)
    done = 1;
  return 0;
}

int main(void) {
  pthread_t t[70];
  for (int i = 0; i < 70; i++)
    pthread_create(&t[i], 0, work, (void *)(long)(i == 69));
  for (int i = 0; i < 70; i++)
    pthread_join(t[i], 0);
  assert(done == 1);
  return 0;
}
