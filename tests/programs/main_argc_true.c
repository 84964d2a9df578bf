// expect: TRUE unwind: 2
// As main_argc_false.c, but the error needs a negative argc, which C excludes (C11
// 5.1.2.2.1: argc is nonnegative), so no interleaving reaches it.
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
  if (argc < 0 && x == 0)
    reach_error();
  pthread_join(t, 0);
  return 0;
}
