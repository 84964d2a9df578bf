// expect: FALSE unwind: 2
// The README's CBMC-style program: two __CPROVER_ASYNC_1 threads increment a counter with a
// read and a write; main waits (by assumption) until both are done. An update can be lost:
// FALSE. With `-D ATOMIC_UPDATE` each increment is an atomic section: TRUE.
int counter;
int finished;

void worker(void) {
#ifdef ATOMIC_UPDATE
  __CPROVER_atomic_begin();
#endif
  int seen = counter;
  counter = seen + 1;
#ifdef ATOMIC_UPDATE
  __CPROVER_atomic_end();
#endif
  __CPROVER_atomic_begin();
  finished = finished + 1;
  __CPROVER_atomic_end();
}

int main(void) {
  __CPROVER_ASYNC_1: worker();
  __CPROVER_ASYNC_1: worker();
  __CPROVER_assume(finished == 2);
  __CPROVER_assert(counter == 2, "no update is lost");
  return 0;
}
