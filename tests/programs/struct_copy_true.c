// expect: TRUE unwind: 2
// Struct assignment copies by value: the thread copies the shared point p into a local,
// modifies the copy and publishes it in r; p itself is unchanged. After the join
// p == {1, 2} and r == {10, 2}.
#include <pthread.h>
#include <assert.h>

struct point {
  int x;
  int y;
};

struct point p = {1, 2};
struct point r;

void *mover(void *arg) {
  struct point q = p;
  q.x = 10;
  r = q;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, mover, 0);
  pthread_join(t, 0);
  assert(p.x == 1 && p.y == 2);
  assert(r.x == 10 && r.y == 2);
  return 0;
}
