// expect: TRUE unwind: 4
// Symmetry breaking with joins (src/symex/symmetry.rs, "Joined twins"): main creates three
// identical lock-protected incrementers in a loop, then joins all of them in a loop (one join
// block naming every twin, no return value read, nothing checked in between) and asserts the
// count. The twins keep their orders; the verdict is TRUE either way.
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *add_one(void *arg) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++)
    pthread_create(&t[i], 0, add_one, 0);
  for (i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  if (counter != 3) {
    reach_error();
    abort();
  }
  return 0;
}
