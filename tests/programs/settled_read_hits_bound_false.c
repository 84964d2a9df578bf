// expect: FALSE unwind: 2
// A settled read whose step runs on into a loop's back edge and hits the (asserted) unwind
// bound: `a` spins on `stop`, which nobody writes, so each of its reads is settled (three
// rounds: past the bound of 2, yet finite, so that witness replay, which has no bound,
// ends). Taking that read alone at every node would end every explored run at the bound
// and lose the order where `b` reads x before main's write: the node must process b's read
// as well.
#include <pthread.h>
extern void reach_error(void);
int stop, x;
void *a(void *arg) { int i = 0; while (stop == 0 && i < 3) { i++; } return 0; }
void *b(void *arg) { int v = x; if (v != 1) reach_error(); return 0; }
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, a, 0);
  pthread_create(&h2, 0, b, 0);
  x = 1;
  return 0;
}
