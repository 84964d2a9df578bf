// expect: FALSE
// The error needs the input 100: the context-bounded search, which tries the values 0 .. 7 of
// a wide input, leaves it out and answers UNKNOWN (never TRUE); the SAT engines answer FALSE.
#include <pthread.h>
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "wide_input_false.c", 6, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int x;

void *writer(void *arg) {
    x = __VERIFIER_nondet_int();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    pthread_join(t, 0);
    if (x == 100)
        reach_error();
    return 0;
}
