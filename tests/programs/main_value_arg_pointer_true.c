// expect: TRUE unwind: 3
// Each thread gets a struct only main writes (its id and a pointer to its own slot); reads of
// both take main's values (the sharing pass says no thread writes `args`), so the pointer is
// a constant and the thread writes exactly its slot. FALSE twin:
// main_value_arg_pointer_false.c.
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
  for (i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  assert(slots[0] == 1 && slots[1] == 2);
  return 0;
}
