// expect: TRUE unwind: 2
// main reads the result only after joining the writer; the write before the create is
// ordered by the creation.
#include <pthread.h>
int result;
void *work(void *arg) { result = result + 7; return 0; }
int main(void) {
  pthread_t t;
  result = 1;
  pthread_create(&t, 0, work, 0);
  pthread_join(t, 0);
  return result;
}
