// expect: FALSE unwind: 2
// As array_input_index_locked_true.c, but the second thread adds without the lock through a
// pointer to the cell its input selects. When both select one cell (x = 1, y = 0: cell 1),
// and the second thread reads a[1] = 0, then the first adds 1, then the second writes its 1,
// one increment is lost: the cells sum to 1.
#include <pthread.h>
#include <assert.h>

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int a[4];
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *one(void *arg) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x >= 0 && x <= 3);
  pthread_mutex_lock(&m);
  a[x] = a[x] + 1;
  pthread_mutex_unlock(&m);
  return 0;
}

void *two(void *arg) {
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y >= 0 && y <= 5);
  int *p = &a[(y + 1) % 4];
  *p = *p + 1;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, one, 0);
  pthread_create(&t2, 0, two, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(a[0] + a[1] + a[2] + a[3] == 2);
  return 0;
}
