// expect: TRUE unwind: 4
// Three threads created in a loop, each gets a pointer to its own element of a global array
// of structs and writes out = in * in there. Elements are disjoint, so after joining all,
// every out is the square of its in. Loops: 3 iterations, unwind 4.
#include <pthread.h>
#include <assert.h>

struct job {
  int in;
  int out;
};

struct job jobs[3];

void *square(void *arg) {
  struct job *j = (struct job *)arg;
  j->out = j->in * j->in;
  return 0;
}

int main(void) {
  pthread_t t[3];
  int i;
  for (i = 0; i < 3; i++) {
    jobs[i].in = i + 2;
    pthread_create(&t[i], 0, square, &jobs[i]);
  }
  for (i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  assert(jobs[0].out == 4 && jobs[1].out == 9 && jobs[2].out == 16);
  return 0;
}
