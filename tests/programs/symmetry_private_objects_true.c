// expect: TRUE unwind: 2
// Symmetry breaking (src/symex/symmetry.rs) for twins that make their own objects: each worker
// takes a ticket into a member of its own address-taken local through a helper, and copies
// it into its own heap cell. The objects are private to each worker and only accessed
// through their addresses (never compared, converted or stored where another thread reads),
// so the workers stay twins although their objects' numbers differ. Two workers draw tickets
// 0 and 1 from `next`: none is above 1 (the verdict is TRUE either way).
#include <pthread.h>
#include <stdlib.h>

extern void abort(void);
void reach_error(void) {}
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

struct ticket {
  int kind;
  int number;
};

int next;

void take(int *out) {
  __VERIFIER_atomic_begin();
  *out = next;
  next = next + 1;
  __VERIFIER_atomic_end();
}

void *worker(void *arg) {
  struct ticket mine;
  int *copy;
  take(&mine.number);
  copy = malloc(sizeof(int));
  *copy = mine.number;
  if (*copy > 1) {
    reach_error();
    abort();
  }
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_create(&t, 0, worker, 0);
  return 0;
}
