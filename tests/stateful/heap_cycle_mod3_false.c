// expect: FALSE
// The twin of heap_cycle_true.c counting modulo 3: a published node holds 2.
#include <pthread.h>
#include <stdlib.h>
#include <assert.h>

struct node {
  int v;
};

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
struct node *pub = 0;

void *writer(void *arg) {
  int k = 0;
  while (1) {
    struct node *n = malloc(sizeof(struct node));
    if (!n)
      return 0;
    k = (k + 1) % 3;
    n->v = k;
    pthread_mutex_lock(&m);
    struct node *old = pub;
    pub = n;
    pthread_mutex_unlock(&m);
    free(old);
  }
  return 0;
}

void *reader(void *arg) {
  while (1) {
    pthread_mutex_lock(&m);
    if (pub)
      assert(pub->v < 2);
    pthread_mutex_unlock(&m);
  }
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  return 0;
}
