// expect: FALSE unwind: 2
// Check-then-act through &&: `if (tickets > 0 && take())` where take() decrements. Two
// threads can both see tickets == 1 before either decrements, so both take a ticket and
// tickets ends at -1.
#include <pthread.h>
#include <assert.h>

int tickets = 1;

int take(void) {
  tickets--;
  return 1;
}

void *buyer(void *arg) {
  if (tickets > 0 && take()) {
    /* got a ticket */
  }
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, buyer, 0);
  pthread_create(&t2, 0, buyer, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(tickets >= 0);
  return 0;
}
