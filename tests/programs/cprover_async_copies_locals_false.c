// expect: FALSE unwind: 2
// The twin of cprover_async_copies_locals_true.c: the two threads write in either order, so
// the last value is 5 or 7, and claiming it is always 7 fails.
int last;

void record(int v) { last = v; }

int main(void) {
  int x = 5;
  __CPROVER_ASYNC_1: record(x);
  x = 7;
  __CPROVER_ASYNC_1: record(x);
  __CPROVER_assume(last != 0);
  __CPROVER_assert(last == 5 || last == 7, "a spawn-time copy");
  __CPROVER_assert(last == 7, "not always the later one");
  return 0;
}
