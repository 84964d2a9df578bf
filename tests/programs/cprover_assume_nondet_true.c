// expect: TRUE unwind: 2
// `nondet_int()` without a body is an input of its return type (CBMC's idiom);
// `__CPROVER_assume` keeps the executions where its condition holds.
int nondet_int(void);
__CPROVER_bool flag;

int main(void) {
  int x = nondet_int();
  __CPROVER_assume(x > 10 && x < 20);
  flag = x > 15;
  __CPROVER_assert(x != 5, "excluded by the assumption");
  __CPROVER_assert(flag == (x > 15), "a __CPROVER_bool holds 0 or 1");
  return 0;
}
