// Verdict: FALSE at --unwind 71.
// 70 threads created in a loop; only the last one sets the flag, and main joins only the first
// 69: the 70th thread may run after main's assertion, which then sees done == 0.
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
  for (int i = 0; i < 69; i++)
    pthread_join(t[i], 0);
  assert(done == 1);
  return 0;
}
