// expect: FALSE unwind: 2
// The twin of cprover_assume_nondet_true.c: 15 is an input the assumption keeps.
int nondet_int(void);

int main(void) {
  int x = nondet_int();
  __CPROVER_assume(x > 10 && x < 20);
  __CPROVER_assert(x != 15, "15 is possible");
  return 0;
}
