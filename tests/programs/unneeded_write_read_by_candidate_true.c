// expect: TRUE unwind: 2
// The twin of unneeded_write_read_by_candidate_false.c: the reader sets z only on a value no
// thread writes, so z stays 0 in every run.
#include <pthread.h>
extern void reach_error(void);
int y = 0;
int z = 0;

void *writer(void *arg) {
  y = 1;
  return 0;
}

void *reader(void *arg) {
  int v = y;
  if (v == 2)
    z = 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (z == 1)
    reach_error();
  return 0;
}
