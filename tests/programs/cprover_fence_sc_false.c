// expect: FALSE unwind: 2
// `__CPROVER_fence` has no effect under sequential consistency: the racy increment still loses
// an update.
int n;

void inc(void) {
  int t = n;
  __CPROVER_fence("WWfence", "RRfence", "RWfence", "WRfence");
  n = t + 1;
}

int main(void) {
  __CPROVER_ASYNC_1: inc();
  inc();
  __CPROVER_assume(n != 0);
  int seen = n;
  __CPROVER_assert(seen == 2 || seen == 1, "one or two increments");
  __CPROVER_assert(seen != 1, "an update can be lost");
  return 0;
}
