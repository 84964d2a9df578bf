// expect: TRUE
// TRUE twin of por_local_spin_false.c: one thread loops forever on local steps, the
// other's assertion holds. The spinner's states form a cycle that the proviso must break by
// expanding some state of it fully.
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
  assert(flag == 0);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, spinner, 0);
  pthread_create(&b, 0, checker, 0);
  return 0;
}
