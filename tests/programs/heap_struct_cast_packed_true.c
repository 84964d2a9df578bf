// expect: TRUE unwind: 2
// A struct allocated with malloc and cast to its type is laid out as that type: the long of a
// packed struct sits at offset 1 (not at a multiple of its size), and a thread that reaches it
// through a pointer read from a global writes and reads it back there. The position moves
// only forward from 5, so it stays >= 5.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

extern char __VERIFIER_nondet_char(void);

struct file {
  char mode;
  long pos;
  int flags;
} __attribute__((packed));

struct file *fp;

long seek(struct file *f, long delta) {
  if (delta < 0 || delta > 100)
    return -22;
  f->pos = f->pos + delta;
  return f->pos;
}

void *worker(void *arg) {
  seek(fp, __VERIFIER_nondet_char());
  return 0;
}

int main(void) {
  pthread_t t;
  fp = (struct file *)malloc(sizeof(struct file));
  fp->pos = 5;
  pthread_create(&t, 0, worker, 0);
  pthread_join(t, 0);
  assert(fp->pos >= 5);
  return 0;
}
