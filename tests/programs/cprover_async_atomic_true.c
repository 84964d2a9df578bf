// expect: TRUE unwind: 2
// The labelled statement runs in a new thread; main's write and assertion form one atomic
// section, so the thread's write lands before or after both, never between.
int global;

int main(void) {
  __CPROVER_ASYNC_1: global = 1;
  __CPROVER_atomic_begin();
  global = 2;
  __CPROVER_assert(global == 2, "no write between");
  __CPROVER_atomic_end();
  return 0;
}
