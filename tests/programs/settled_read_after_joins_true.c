// expect: TRUE unwind: 2
// Two writers set x to 1 and 2; main joins both and then reads x into a register: no thread
// can write x any more, so rvf takes that read alone (a settled read). Either order of the
// writes is possible, so the read sees 1 or 2, and the assertion allows both.
#include <pthread.h>
extern void reach_error(void);
int x;
void *one(void *arg) { x = 1; return 0; }
void *two(void *arg) { x = 2; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, one, 0);
  pthread_create(&b, 0, two, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  int v = x;
  if (v != 1 && v != 2) reach_error();
  return 0;
}
