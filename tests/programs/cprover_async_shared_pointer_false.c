// expect: FALSE unwind: 2
// The twin of cprover_async_own_copy_true.c: a pointer copied into the thread still points to
// main's x, so the thread's write through it is seen.
int done;

void set(int *p) {
  *p = 1;
  done = 1;
}

int main(void) {
  int x = 0;
  int *p = &x;
  __CPROVER_ASYNC_1: set(p);
  __CPROVER_assume(done);
  __CPROVER_assert(x == 0, "main's x was written through the copied pointer");
  return 0;
}
