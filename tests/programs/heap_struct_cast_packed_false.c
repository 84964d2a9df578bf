// expect: FALSE unwind: 2
// As heap_struct_cast_packed_true, but the worker may move the position backwards (delta down
// to -10): delta = -10 gives pos = -5 < 5 after the join.
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
  if (delta < -10 || delta > 100)
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
