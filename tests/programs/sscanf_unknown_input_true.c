// expect: TRUE unwind: 2
// sscanf of a string whose content is not a constant: each conversion may store any value or
// fail. Whatever the string, a call that does not return 1 stores nothing into x, so x keeps 5;
// and a stored value is copied to the shared y under a lock, which the other thread reads
// consistently with the count. The verdict rests on the over-approximation, which only adds
// executions.
#include <pthread.h>
#include <assert.h>

int sscanf(const char *s, const char *format, ...);
extern char __VERIFIER_nondet_char(void);

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int y = -1, have;

void *reader(void *arg) {
  pthread_mutex_lock(&m);
  if (!have)
    assert(y == -1);
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t;
  char buf[3];
  buf[0] = __VERIFIER_nondet_char();
  buf[1] = __VERIFIER_nondet_char();
  buf[2] = 0;
  pthread_create(&t, 0, reader, 0);
  int x = 5;
  int r = sscanf(buf, "%d", &x);
  if (r != 1)
    assert(x == 5);
  pthread_mutex_lock(&m);
  if (r == 1) {
    y = x;
    have = 1;
  }
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
