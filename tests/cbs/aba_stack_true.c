// expect: UNKNOWN
// The TRUE twin of aba_stack_false.c: a pop reads the top and its next cell and swaps them
// in one atomic section, so no push can reuse the top cell in between: no ABA, and the
// context-bounded search, which never answers TRUE, gives UNKNOWN (the SAT engines: TRUE).
#include <pthread.h>
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "aba_stack_true.c", 8, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

typedef struct Cell {
    struct Cell *next;
    int data;
} Cell;

Cell cells[3];
int allocated[3];
Cell *top;
int pushed;
int popped;

Cell *take_cell(void) {
    __VERIFIER_atomic_begin();
    int i = __VERIFIER_nondet_int();
    if (i < 0 || i >= 3 || allocated[i])
        abort();
    allocated[i] = 1;
    __VERIFIER_atomic_end();
    return &cells[i];
}

void give_cell(Cell *c) {
    __VERIFIER_atomic_begin();
    allocated[c - cells] = 0;
    __VERIFIER_atomic_end();
}

int cas(Cell **p, Cell *old, Cell *new) {
    int ok = 0;
    __VERIFIER_atomic_begin();
    if (*p == old) {
        *p = new;
        ok = 1;
    }
    __VERIFIER_atomic_end();
    return ok;
}

void *pusher(void *arg) {
    __VERIFIER_atomic_begin();
    pushed++;
    __VERIFIER_atomic_end();
    Cell *c = take_cell();
    c->data = 1;
    Cell *t = top;
    c->next = t;
    if (!cas(&top, t, c)) {
        __VERIFIER_atomic_begin();
        pushed--;
        __VERIFIER_atomic_end();
        give_cell(c);
    }
    return 0;
}

void *popper(void *arg) {
    __VERIFIER_atomic_begin();
    Cell *t = top;
    if (t != 0)
        top = t->next;
    __VERIFIER_atomic_end();
    if (t == 0)
        return 0;
    int v = t->data;
    give_cell(t);
    __VERIFIER_atomic_begin();
    if (v == 1)
        popped++;
    if (popped > pushed)
        reach_error();
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t t[7];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, pusher, 0);
    for (int i = 3; i < 7; i++)
        pthread_create(&t[i], 0, popper, 0);
    return 0;
}
