// expect: FALSE unwind: 2
// Two threads each toggle a shared _Bool with b = !b (read, then write). Sequentially two
// toggles give back 0, but if both read 0 before either writes, both write 1.
#include <pthread.h>
#include <assert.h>

_Bool b = 0;

void *toggle(void *arg) {
  b = !b;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, toggle, 0);
  pthread_create(&t2, 0, toggle, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(b == 0);
  return 0;
}
