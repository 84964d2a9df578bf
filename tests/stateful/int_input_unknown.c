// expect: UNKNOWN
// A looping thread reads an int input: too many values to enumerate, so the search gives up.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

int last = 0;

void *reader(void *arg) {
  while (1) {
    int v = __VERIFIER_nondet_int();
    if (v >= 0 && v < 3)
      last = v;
  }
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, reader, 0);
  while (1) {
    assert(last < 3);
  }
  return 0;
}
