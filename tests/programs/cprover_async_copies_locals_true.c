// expect: TRUE unwind: 2
// A thread label copies the spawner's locals by value at the spawn (CBMC's semantics): the
// first thread writes 5 and the second 7, whatever main does to x afterwards, and x's own
// later writes never reach the threads. The label repeats, as CBMC allows.
int seen[2];

void record(int slot, int v) { seen[slot] = v; }

int main(void) {
  int x = 5;
  __CPROVER_ASYNC_1: record(0, x);
  x = 7;
  __CPROVER_ASYNC_1: record(1, x);
  x = 9;
  __CPROVER_assume(seen[0] != 0 && seen[1] != 0);
  __CPROVER_assert(seen[0] == 5 && seen[1] == 7, "each thread has its spawn-time copy");
  return 0;
}
