// expect: FALSE unwind: 2
// The mutex the locker takes is named through `idx`, which only the writer writes (the
// globals have no initialiser, so main writes none). Main holds ms[1] for good; the locker
// passes when it reads idx before `idx = 1`. Every witness of an instance that holds the
// writer's write ends with idx == 1, so a node decides from its run's end that the locker
// waits for ever; but the locker's read can run before that write, and take ms[0]. A wait
// named through memory is the same wherever it runs only when no other thread writes it.
#include <pthread.h>
extern void reach_error(void);
pthread_mutex_t ms[2];
int idx;
int flag;

void *writer(void *arg) {
  idx = 1;
  return 0;
}

void *locker(void *arg) {
  pthread_mutex_lock(&ms[idx]);
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t a, c;
  pthread_mutex_init(&ms[0], 0);
  pthread_mutex_init(&ms[1], 0);
  pthread_mutex_lock(&ms[1]);
  pthread_create(&a, 0, writer, 0);
  pthread_create(&c, 0, locker, 0);
  pthread_join(c, 0);
  if (flag)
    reach_error();
  return 0;
}
