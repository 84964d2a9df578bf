// expect: FALSE unwind: 2
// main's argc is whatever the environment passes: the error needs argc == 5 and a worker that
// has not yet run. An explorer that fixed argc would never see the error.
#include <pthread.h>

extern void reach_error(void);

int x = 0;

void *worker(void *arg) {
  x = 1;
  return 0;
}

int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  if (argc == 5 && x == 0)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
