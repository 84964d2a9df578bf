// expect: TRUE
// Each iteration a thread reads a nondet char, keeps it when it is a digit and stores its
// value; another thread asserts the stored value is a digit's. The 256 values of the char are
// enumerated at every step.
#include <pthread.h>
#include <assert.h>

extern char __VERIFIER_nondet_char(void);

int last = 0;

void *reader(void *arg) {
  while (1) {
    char c = __VERIFIER_nondet_char();
    if (c >= '0' && c <= '9')
      last = c - '0';
  }
  return 0;
}

void *checker(void *arg) {
  while (1) {
    assert(last >= 0 && last <= 9);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, reader, 0);
  pthread_create(&b, 0, checker, 0);
  return 0;
}
