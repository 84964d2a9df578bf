// expect: TRUE unwind: 2
// Member offsets of shared pointers (sharing::offsets): `top` only ever holds the address of
// some slot, so reading `top->next` and `top->data` through it can hit only
// those members of the four slots: four alternatives each, not one per cell of `slots`
// (tests/member_offsets.rs counts them). The pushed values are positive, so no pop reads a
// negative value.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "member_offsets_true.c", 8, "reach_error"); }

struct node { long id; long data; struct node *next; long tag; };
struct node slots[4];
struct node *top;

void *pusher(void *arg) {
    int i = __VERIFIER_nondet_int();
    if (i < 0 || i >= 4) return 0;
    struct node *n = &slots[i];
    n->data = 7;
    n->next = top;
    top = n;
    return 0;
}

void *popper(void *arg) {
    struct node *t = top;
    if (t != 0) {
        struct node *u = t->next;
        if (t->data < 0) reach_error();
        if (u != 0 && u->data < 0) reach_error();
        top = u;
    }
    return 0;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, pusher, 0);
    pthread_create(&b, 0, pusher, 0);
    pthread_create(&c, 0, popper, 0);
    return 0;
}
