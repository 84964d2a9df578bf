// expect: FALSE unwind: 3
// main creates n producers (n a nondet input, at most 2) and then one checker. The unwound
// loop has a third producer instance that no execution creates, so the checker is the third
// thread created but the fourth instance. With n = 2, both producers add 1 under the lock
// before the checker reads a == 2 and reaches the error. A witness must name the checker by
// its number in creation order (3), or a replay that follows it runs the wrong thread.
#include <pthread.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int a = 0;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *producer(void *arg) {
  pthread_mutex_lock(&m);
  a = a + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *checker(void *arg) {
  pthread_mutex_lock(&m);
  int x = a;
  pthread_mutex_unlock(&m);
  if (x == 2)
    reach_error();
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 2)
    n = 2;
  pthread_t t[3], c;
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], 0, producer, 0);
  pthread_create(&c, 0, checker, 0);
  return 0;
}
