// expect: FALSE unwind: 2
// C's atomic section locks ms[idx] and writes passed. Main holds ms[1]; W sets idx to 1.
// A node's witness can run W's write before C starts (greedy rule 1b takes it first). Run
// from that state, C's step opens the section and blocks at once: (1) the extension took
// that cut-short step as a non-read event of C, forcing W's write before C's section in
// every witness; (2) as the candidate, it gave no cell C's step reads, so rule 1b took W's
// write alone at the start of every witness. From a state before W's write, C's step reads
// idx == 0, takes ms[0] and passes.
#include <pthread.h>
extern void reach_error(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
pthread_mutex_t ms[2];
int idx;
int passed;

void *W(void *a) { idx = 1; return 0; }
void *C(void *a) {
  __VERIFIER_atomic_begin();
  pthread_mutex_lock(&ms[idx]);
  passed = 1;
  __VERIFIER_atomic_end();
  return 0;
}

int main(void) {
  pthread_t w, c;
  pthread_mutex_init(&ms[0], 0);
  pthread_mutex_init(&ms[1], 0);
  pthread_mutex_lock(&ms[1]);
  pthread_create(&w, 0, W, 0);
  pthread_create(&c, 0, C, 0);
  pthread_join(c, 0);
  if (passed)
    reach_error();
  return 0;
}
