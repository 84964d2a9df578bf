// expect: FALSE unwind: 2
// An input added to a shared value: some input overflows. (dpor enumerates inputs under
// no-overflow and answers UNKNOWN for an int input.)
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
int total = 10;
void *add(void *arg) { int k = __VERIFIER_nondet_int(); total = total + k; return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, add, 0);
  pthread_join(t, 0);
  return 0;
}
