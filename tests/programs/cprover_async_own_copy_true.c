// expect: TRUE unwind: 2
// `&x` in a thread label designates the thread's own copy of x (CBMC copies the frame): the
// thread's write through it never changes main's x.
int done;

void set(int *p) {
  *p = 1;
  done = 1;
}

int main(void) {
  int x = 0;
  __CPROVER_ASYNC_1: set(&x);
  __CPROVER_assume(done);
  __CPROVER_assert(x == 0, "main's x is not the thread's");
  return 0;
}
