// expect: FALSE unwind: 2
// The parent creates the reader, then works on a struct in its own frame that the reader sees
// through a pointer (no global names in the witness). The reader's first access comes late,
// so the witness must create it where the parent did, not just before its first step.
#include <pthread.h>
extern void reach_error(void);
struct box { int ready; int data; };
void *reader(void *arg) {
  struct box *p = arg;
  if (p->ready == 1 && p->data == 0) reach_error();
  return 0;
}
int main(void) {
  struct box b;
  b.ready = 0;
  b.data = 0;
  pthread_t t;
  pthread_create(&t, 0, reader, &b);
  b.ready = 1;
  b.data = 2;
  pthread_join(t, 0);
  return 0;
}
