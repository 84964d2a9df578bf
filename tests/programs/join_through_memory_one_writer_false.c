// expect: FALSE unwind: 2
// The thread the joiner joins is named through `idx`, which only the writer writes, and
// hs[], which only main writes (after its first thread creation). stuck never ends, quick
// does; the joiner passes when it reads idx before `idx = 1`. Every witness of an instance
// holding the writer's write ends with idx == 1 (the joiner waits for stuck there), yet
// the joiner's reads can run before that write: its join must be searched.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t m;
pthread_t hs[2];
int idx;
int flag;

void *quick(void *arg) { return 0; }
void *stuck(void *arg) { pthread_mutex_lock(&m); return 0; }
void *writer(void *arg) { idx = 1; return 0; }
void *joiner(void *arg) {
  pthread_join(hs[idx], 0);
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t a, c;
  pthread_mutex_init(&m, 0);
  pthread_mutex_lock(&m);
  pthread_create(&hs[0], 0, quick, 0);
  pthread_create(&hs[1], 0, stuck, 0);
  pthread_create(&a, 0, writer, 0);
  pthread_create(&c, 0, joiner, 0);
  pthread_join(c, 0);
  if (flag)
    reach_error();
  return 0;
}
