// expect: FALSE
// The cycle proviso: one thread loops forever on local steps (calls and returns of a helper
// with a private frame), the other's assertion fails at once. A reduction that expanded
// the spinning thread alone at every state, without the proviso, would close the cycle of
// the spinner's states and never run the other thread.
#include <assert.h>
#include <pthread.h>

int flag = 0;

int twice(int v) { return v + v; }

void *spinner(void *arg) {
  int x = 0;
  while (1)
    x = twice(x) % 7;
  return 0;
}

void *checker(void *arg) {
  assert(flag == 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, spinner, 0);
  pthread_create(&b, 0, checker, 0);
  return 0;
}
