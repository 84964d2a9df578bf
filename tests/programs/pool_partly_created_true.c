// expect: TRUE unwind: 3
// The twin of pool_partly_created_false.c that checks a == 3: at most two producers run
// (n is clamped to 0..2), each adds 1 once under the lock, so a never exceeds 2 and the
// checker's error is unreachable. The third producer instance of the unwound loop is never
// created.
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
  if (x == 3)
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
