// expect: FALSE unwind: 2
// `t1 = t2` overwrites a handle. rsmc's translation of main accepts a join of a handle read
// into a temporary (the lowering reads a join's operand first); this assignment is to a
// program variable, not a temporary, and must not be taken for one: `pthread_join(t1)`
// joins B, and A is never joined. rsmc answers UNKNOWN (main does more than create and
// join); the SAT engine and dpor FALSE. Found by review (rsmc answered TRUE). B is joined
// twice, which POSIX leaves undefined; yogar's engines let the second join return at once.
#include <pthread.h>
extern void reach_error(void);
int x;
void *A(void *a) { x = 1; return 0; }
void *B(void *a) { return 0; }
int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, A, 0);
  pthread_create(&t2, 0, B, 0);
  t1 = t2;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  if (x != 1) reach_error();
  return 0;
}
