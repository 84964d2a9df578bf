// expect: FALSE unwind: 2
// The trylock fails when it runs while `holder` is between its lock and its unlock. A
// trylock after the first thread creation makes m unclean (sharing::guards): the rvf
// explorer must not take holder's unlock into the extension right after its lock, or no
// node would have m held when the trylock is searched.
#include <pthread.h>
#include <assert.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g = 0;
void *holder(void *arg) {
  pthread_mutex_lock(&m);
  g = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
void *tryer(void *arg) {
  if (pthread_mutex_trylock(&m) == 0) {
    pthread_mutex_unlock(&m);
  } else {
    assert(0);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, holder, 0);
  pthread_create(&b, 0, tryer, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
