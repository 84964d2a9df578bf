//! Calls of functions without a body: a function that receives a pointer may write through it,
//! which the no-body policy (a nondet result, nothing written) cannot model, so the verdict is
//! UNKNOWN naming the function; the documented read-only library functions keep the policy.

mod common;

/// `yogar verify --unwind 2` of a program: (exit code, last stdout line).
fn verify(name: &str, source: &str) -> (i32, String) {
    common::verify("library-calls", name, source)
}

/// `fill` may set `x` to 1: a verdict built on `x` staying 0 would be a guess.
const WRITES_THROUGH_POINTER: &str = "extern void fill(int *p);\n\
    extern void reach_error(void);\n\
    int main(void) {\n  int x = 0;\n  fill(&x);\n  if (x != 0) reach_error();\n  return 0;\n}\n";

#[test]
fn unknown_bodyless_function_receiving_a_pointer_is_unknown() {
    let (code, last) = verify("writes", WRITES_THROUGH_POINTER);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.starts_with(
            "UNKNOWN (unsupported: call of fill, which has no body and may write through its arguments at "
        ),
        "{last}"
    );
}

#[test]
fn pointer_cast_to_an_integer_still_counts() {
    let src = "extern void fill(long p);\nextern void reach_error(void);\n\
        int main(void) {\n  int x = 0;\n  fill((long)&x);\n  if (x != 0) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("cast", src);
    assert_eq!(code, 5, "{last}");
    assert!(last.contains("call of fill, which has no body"), "{last}");
}

#[test]
fn bodyless_function_without_pointers_keeps_the_nondet_result() {
    // `get` returns any int: the error is reachable.
    let src = "extern int get(int a);\nextern void reach_error(void);\n\
        int main(void) {\n  int x = get(3);\n  if (x == 7) reach_error();\n  return 0;\n}\n";
    assert_eq!(verify("nondet", src), (10, "FALSE(unreach-call)".into()));
}

#[test]
fn read_only_library_functions_keep_their_verdicts() {
    let src = "#include <stdio.h>\n#include <string.h>\nextern void reach_error(void);\n\
        int main(void) {\n  char s[4] = \"abc\";\n  int x = 0;\n  printf(\"%s %d\\n\", s, x);\n  \
        puts(s);\n  if (strlen(s) > 100) x = 1;\n  if (x == 2) reach_error();\n  return 0;\n}\n";
    assert_eq!(verify("readonly", src), (0, "TRUE".into()));
}

#[test]
fn printf_with_a_count_conversion_is_unknown() {
    let src = "#include <stdio.h>\nextern void reach_error(void);\n\
        int main(void) {\n  int n = 0;\n  printf(\"ab%n\", &n);\n  if (n != 0) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("percent_n", src);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.contains("unsupported: printf with a %n conversion"),
        "{last}"
    );
}

#[test]
fn unreachable_bodyless_call_does_not_block_a_verdict() {
    let src = "extern void fill(int *p);\nextern void reach_error(void);\n\
        void never(void) { int y; fill(&y); }\n\
        int main(void) {\n  int x = 0;\n  if (x != 0) reach_error();\n  return 0;\n}\n";
    assert_eq!(verify("unreachable", src), (0, "TRUE".into()));
}

#[test]
fn pointer_inside_a_struct_passed_by_value_still_counts() {
    let src = "extern void reach_error(void);\nstruct box { int *p; };\n\
        extern void fill(struct box b);\n\
        int main(void) {\n  int x = 0;\n  struct box b;\n  b.p = &x;\n  fill(b);\n  \
        if (x != 0) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("struct_arg", src);
    assert_eq!(code, 5, "{last}");
    assert!(last.contains("call of fill, which has no body"), "{last}");
}

#[test]
fn printf_with_a_format_that_is_not_a_literal_is_unknown() {
    // The format may hold a %n: printf would write the count through &n.
    let src = "#include <stdio.h>\nextern void reach_error(void);\n\
        int main(void) {\n  int n = 0;\n  const char *f = \"ab%n\";\n  printf(f, &n);\n  \
        if (n != 0) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("format_var", src);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.contains("unsupported: printf with a format that is not a string literal"),
        "{last}"
    );
    // Without arguments after it, a format cannot write: the verdict stands.
    let plain = "#include <stdio.h>\nextern void reach_error(void);\n\
        int main(void) {\n  const char *f = \"ab\";\n  int x = 0;\n  printf(f);\n  \
        if (x != 0) reach_error();\n  return 0;\n}\n";
    assert_eq!(verify("format_var_plain", plain), (0, "TRUE".into()));
}
