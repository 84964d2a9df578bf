// expect: FALSE unwind: 2
// A deterministic program: count(&c) raises c from 0 to 1 in one iteration, then main calls
// reach_error. main's `c` is address-taken but private to main (sharing pass), so the
// explorers log no access to it; the spin reduction must still count the write through `x`
// as an effect (`Object::escapes`): it compares only the top frame's variables live at the
// head (`x`, unchanged), and `c` is in main's frame. Found by review: the explorers answered
// TRUE when only logged writes counted.
#include <pthread.h>
extern void reach_error(void);
int g;
void *T(void *a) { g = 1; return 0; }
void count(int *x) { while (*x < 1) *x = *x + 1; }
int main(void) {
  int c = 0; pthread_t t;
  pthread_create(&t, 0, T, 0);
  count(&c);
  if (c != 1) return 0;
  reach_error();
  return 0;
}
