// expect: UNKNOWN
// The input picks a cell of a four-cell array without a check: the values 4 .. 7 the
// context-bounded search tries read past the array, a construct the interpreter cannot run
// exactly. No run violates, and the search reports the out-of-bounds access (UNKNOWN
// (unsupported: ...)) rather than "no violation": the runs past it were never tried.
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int a[4];

int main(void) {
    int i = __VERIFIER_nondet_int();
    int *p = a + i;
    if (*p > 3)
        reach_error();
    return 0;
}
