// expect: FALSE unwind: 2
// `assert` without <assert.h> is implicitly declared; it is still the assertion (as for CBMC
// and every other C verifier), not a call of an unknown function that does nothing.
int main(void) {
  int x = 1;
  assert(x == 0);
  return 0;
}
