// expect: FALSE unwind: 2
// The twin of member_offsets_true.c: one pusher stores a pointer moved by byte arithmetic
// (`(char *)n - 8`, the `id` member seen as a node), so `top->data` may read a slot's `id`,
// which holds -1: the offsets analysis must follow the byte arithmetic (the offset moves by
// -8) and let that cell in, or the bug would be hidden.
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "member_offsets_shifted_false.c", 9, "reach_error"); }

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

void *odd_pusher(void *arg) {
    int i = __VERIFIER_nondet_int();
    if (i < 0 || i >= 4) return 0;
    struct node *n = &slots[i];
    n->id = -1;
    n->data = 7;
    top = (struct node *)((char *)n - 8);
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
    pthread_create(&b, 0, odd_pusher, 0);
    pthread_create(&c, 0, popper, 0);
    return 0;
}
