// expect: FALSE unwind: 2
// One thread: main reads its own indeterminate local, whose address is taken (so the read
// is logged, from an object of owner 0 like the globals'). The read fills it with a nondet
// value without a logged write: the value 1 must not be rejected by the closure.
extern void reach_error(void);
_Bool *gp;
int main(void) {
  _Bool x;
  gp = &x;
  if (x)
    reach_error();
  return 0;
}
