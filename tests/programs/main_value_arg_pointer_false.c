// expect: FALSE unwind: 3
// Twin of main_value_arg_pointer_true.c: main points the first thread's slot elsewhere after
// creating it, so that thread may write slot 1 (and the second thread slot 1 too), leaving
// slot 0 at 0.
#include <pthread.h>
#include <assert.h>

struct arg {
  int id;
  int *slot;
};

int slots[2];
struct arg args[2];

void *worker(void *p) {
  struct arg *a = (struct arg *)p;
  *a->slot = a->id + 1;
  return 0;
}

int main(void) {
  pthread_t t[2];
  int i;
  for (i = 0; i < 2; i++) {
    args[i].id = i;
    args[i].slot = &slots[i];
    pthread_create(&t[i], 0, worker, &args[i]);
  }
  args[0].slot = &slots[1];
  for (i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(slots[0] == 1 && slots[1] == 2);
  return 0;
}
