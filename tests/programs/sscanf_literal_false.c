// expect: FALSE unwind: 2
// As sscanf_literal_true.c: "12 x-3" against "%d x%d" stores 12 and -3. The reader asserts the
// second value is 3: a model that lost the sign, or that left the target unwritten, would
// call this program correct.
#include <pthread.h>
#include <assert.h>

int sscanf(const char *s, const char *format, ...);
extern void __VERIFIER_assume(int);

int a, b, ready;

void *reader(void *arg) {
  __VERIFIER_assume(ready);
  assert(b == 3);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  int r = sscanf("12 x-3", "%d x%d", &a, &b);
  ready = r;
  pthread_join(t, 0);
  return 0;
}
