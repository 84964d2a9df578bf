// expect: FALSE unwind: 2
// The FALSE twin of settled_read_after_joins_true.c: the read main takes alone (no thread
// can write x any more) must still observe both orders of the two writes; the run where
// `one` writes last gives v == 1.
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
  if (v != 2) reach_error();
  return 0;
}
