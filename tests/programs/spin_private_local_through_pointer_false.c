// expect: FALSE unwind: 2
// main's `c` is address-taken but private to main (sharing pass), so the explorers log no
// access to it. It is written only through `p`, so it is neither a logged write nor a
// variable live at the loop head by name: the spin reduction must count that write as an
// effect (`Object::escapes`), or it takes the first iteration (c: 0 -> 1) as effect-free,
// stops the thread, and never runs the second, where *p == 2. Found by review.
#include <pthread.h>
extern void reach_error(void);
int flag;
void *T(void *a) { flag = 1; return 0; }
int main(void) {
  int c = 0; int *p = &c; pthread_t t;
  pthread_create(&t, 0, T, 0);
  while (flag == 0) {
    *p = *p + 1;
    if (*p == 2) reach_error();
  }
  return 0;
}
