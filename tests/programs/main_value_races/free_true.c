// Twin of free_false.c: main joins the thread before it frees the object, so no race.
#include <pthread.h>
#include <stdlib.h>
struct S { int x; int y; };
struct S *p;
void *t(void *a) { int v = p->x; (void)v; return 0; }
int main(void) {
  pthread_t h;
  p = malloc(sizeof(struct S));
  if (!p) return 0;
  p->x = 1;
  p->y = 2;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  free(p);
  return 0;
}
