// expect: FALSE unwind: 2
// Two shared reads on one line, with the other thread's write between them in the only
// failing interleaving: sum sees a before the increment and b after it. A replay that matches
// witness steps by line alone lets the writer in before the first read.
#include <pthread.h>
extern void reach_error(void);
int a = 1, b = 1;
void *writer(void *arg) {
  a = a + 1;
  b = b + 1;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int sum = a; sum = sum + b;
  pthread_join(t, 0);
  if (sum == 3) reach_error();
  return 0;
}
