// expect: FALSE unwind: 2
// A settled read in one thread beside an unsettled one in another: `t` reads done (nobody
// writes it after main's write) and `u` reads flag, which main still writes. Taking t's
// read alone at a node must not lose the order where u reads flag before main sets it.
#include <pthread.h>
extern void reach_error(void);
int done, flag;
void *t(void *arg) { int d = done; if (d) return 0; return 0; }
void *u(void *arg) { int f = flag; if (f == 0) reach_error(); return 0; }
int main(void) {
  pthread_t a, b;
  done = 1;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  flag = 1;
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
