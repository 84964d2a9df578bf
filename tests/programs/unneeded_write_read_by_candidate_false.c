// expect: FALSE unwind: 2
// The write y = 1 is read by no event of the instance in which the reader's read of y is
// the event whose values VerifySC enumerates: taking it alone there (VerifySC's greedy rule
// for writes whose values no event left needs) would hide the value 0 from that read, and
// the run where the reader goes first, sets z and reaches the error.
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
  if (v == 0)
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
