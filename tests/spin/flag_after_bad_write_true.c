// expect: TRUE unwind: 2 spin: yes
// Twin of flag_after_bad_write_false.c: the writer undoes x before raising the flag, so a
// thread that has seen the flag sees x == 0 (SC). The spin loop has no bound: without the
// reduction no unwinding bound proves this.
#include <pthread.h>
#include <assert.h>

int x = 0;
int flag = 0;

void *writer(void *arg) {
  x = 1;
  x = 0;
  flag = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  while (flag == 0)
    ;
  assert(x == 0);
  return 0;
}
