// expect: TRUE unwind: 2
// The twin of assert_without_header_false.c: the assertion holds.
int main(void) {
  int x = 1;
  assert(x == 1);
  return 0;
}
