// expect: FALSE unwind: 2
// CBMC's thread label: the labelled statement runs in a new thread, so it may write 1 after
// main's write of 2 and before main's assertion. (A plain label would make this TRUE.)
int global;

int main(void) {
  __CPROVER_ASYNC_1: global = 1;
  global = 2;
  __CPROVER_assert(global == 2, "main's write is the last one");
  return 0;
}
