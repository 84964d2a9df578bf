//! Over-approximated constructs (an `sscanf` of a string that is not a constant, `long double`
//! arithmetic) and dynamic objects (`malloc` of a size that is not a constant): a TRUE verdict
//! may rest on them (the TRUE/FALSE twins in tests/programs), but an error reachable only
//! through an approximated value, or only through an access beyond a dynamic object's size, is
//! UNKNOWN with its reason, never FALSE.

mod common;

/// `yogar verify --unwind 2` of a program: (exit code, last stdout line).
fn verify(name: &str, source: &str) -> (i32, String) {
    common::verify("approximations", name, source)
}

#[test]
fn error_through_a_scan_of_an_unknown_string_is_unknown() {
    // The string may well be "7", but the model does not know it: no counterexample.
    let src = "int sscanf(const char *, const char *, ...);\nextern char *get(void);\n\
        extern void reach_error(void);\n\
        int main(void) {\n  int x = 0;\n  sscanf(get(), \"%d\", &x);\n  \
        if (x == 7) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("scan_unknown", src);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.starts_with(
            "UNKNOWN (unsupported: sscanf of a string that is not a constant, over-approximated at "
        ),
        "{last}"
    );
}

#[test]
fn scan_of_a_literal_is_exact_both_ways() {
    let src = |v: i32| {
        format!(
            "int sscanf(const char *, const char *, ...);\nextern void reach_error(void);\n\
             int main(void) {{\n  int x = 0, y = 0;\n  int r = sscanf(\"-12 0x10\", \"%d %i\", &x, &y);\n  \
             if (r == 2 && x == {v} && y == 16) reach_error();\n  return 0;\n}}\n"
        )
    };
    assert_eq!(
        verify("scan_hit", &src(-12)),
        (10, "FALSE(unreach-call)".into())
    );
    assert_eq!(verify("scan_miss", &src(12)), (0, "TRUE".into()));
}

#[test]
fn scan_of_a_literal_reads_it_as_the_c_library_does() {
    let src = |input: &str, cond: &str| {
        format!(
            "int sscanf(const char *, const char *, ...);\nextern void reach_error(void);\n\
             int main(void) {{\n  int x = 0;\n  int r = sscanf(\"{input}\", \"%d\", &x);\n  \
             if ({cond}) reach_error();\n  return 0;\n}}\n"
        )
    };
    // The library stops at the first NUL: the input is empty, the result EOF.
    assert_eq!(
        verify("scan_nul", &src("\\0 5", "r == -1")),
        (10, "FALSE(unreach-call)".into())
    );
    // A number too long for any integer is one conversion out of range (its value not fixed
    // by the standard), never a matching failure that returns 0.
    for (name, cond) in [("scan_long_zero", "r == 0"), ("scan_long_one", "r == 1")] {
        let (code, last) = verify(name, &src(&"1".repeat(45), cond));
        assert_eq!(code, 5, "{last}");
        assert!(last.contains("out of range of its conversion"), "{last}");
    }
}

#[test]
fn error_decided_by_long_double_is_unknown() {
    // `long double` arithmetic stays over-approximated.
    let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
        int main(void) {\n  int n = __VERIFIER_nondet_int();\n  long double d = n;\n  \
        if (d > 1e30) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("long_double_decides", src);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.starts_with("UNKNOWN (unsupported: floating-point arithmetic, over-approximated at "),
        "{last}"
    );
}

#[test]
fn error_decided_by_double_arithmetic_is_exact_both_ways() {
    // `double` is exact: n * 0.5 exceeds 1e9 for some int n, never 1e30.
    let src = |bound: &str| {
        format!(
            "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
             int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  double d = n * 0.5;\n  \
             if (d > {bound}) reach_error();\n  return 0;\n}}\n"
        )
    };
    assert_eq!(
        verify("double_decides_false", &src("1e9")),
        (10, "FALSE(unreach-call)".into())
    );
    assert_eq!(
        verify("double_decides_true", &src("1e30")),
        (0, "TRUE".into())
    );
}

#[test]
fn float_to_int_out_of_range_is_unknown() {
    // Undefined in C: an execution converting 1e10 to int gets no verdict.
    let src = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
        int main(void) {\n  int n = __VERIFIER_nondet_int();\n  double d = n * 10.0;\n  \
        int i = (int)d;\n  if (i == 7) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("float_to_int_range", src);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.contains("out of the range of its integer type"),
        "{last}"
    );
}

#[test]
fn negative_zero_as_a_constant_condition_is_false() {
    // `-0.0` folds to a constant whose bit pattern is not 0, yet it compares equal to 0: a
    // condition `-0.0 ? a : b` picks `b`.
    let src = "extern void reach_error(void);\n\
        int main(void) {\n  int r = -0.0 ? 1 : 2;\n  if (r == 1) reach_error();\n  return 0;\n}\n";
    assert_eq!(verify("negative_zero_condition", src), (0, "TRUE".into()));
}

#[test]
fn extended_floating_type_is_not_taken_for_float() {
    // `_Float32x` is at least as wide as `double` (it is `double` on x86): 16777217 is exact
    // in it, though not in `float`. It is not modelled, so no verdict.
    let src = "extern void reach_error(void);\n\
        int main(void) {\n  int n = 16777217;\n  _Float32x x = n;\n  \
        if ((int)x != n) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("float32x", src);
    assert!(last.starts_with("UNKNOWN"), "{code} {last}");
}

#[test]
fn floating_point_constants_copied_exactly_give_a_counterexample() {
    // No floating-point operation: the stored bit pattern is exact, and so is the error.
    let src = "extern void reach_error(void);\n\
        union { double d; unsigned long long u; } x;\n\
        int main(void) {\n  x.d = 1.5;\n  if (x.u == 0x3FF8000000000000ULL) reach_error();\n  return 0;\n}\n";
    assert_eq!(
        verify("float_bits", src),
        (10, "FALSE(unreach-call)".into())
    );
}

#[test]
fn write_beyond_a_symbolic_malloc_size_is_unknown() {
    let src = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n\
        int main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n < 1 || n > 4) return 0;\n  \
        int *a = malloc(n * sizeof(int));\n  a[n] = 1;\n  return 0;\n}\n";
    let (code, last) = verify("dyn_oob_write", src);
    assert_eq!(code, 5, "{last}");
    assert!(last.contains("invalid memory write"), "{last}");
}

#[test]
fn read_beyond_a_symbolic_malloc_size_feeding_an_error_is_unknown() {
    let src = "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n\
        extern void reach_error(void);\n\
        int main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n < 1 || n > 4) return 0;\n  \
        int *a = calloc(n, sizeof(int));\n  if (a[n] == 3) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("dyn_oob_read", src);
    assert_eq!(code, 5, "{last}");
    assert!(last.contains("invalid memory read"), "{last}");
}

#[test]
fn access_within_a_symbolic_malloc_size_is_exact() {
    // calloc zeroes the n elements, the last included.
    let src = |v: i32| {
        format!(
            "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\n\
             extern void reach_error(void);\n\
             int main(void) {{\n  int n = __VERIFIER_nondet_int();\n  if (n < 1 || n > 4) return 0;\n  \
             int *a = calloc(n, sizeof(int));\n  if (a[n - 1] == {v}) reach_error();\n  return 0;\n}}\n"
        )
    };
    assert_eq!(
        verify("dyn_in_hit", &src(0)),
        (10, "FALSE(unreach-call)".into())
    );
    assert_eq!(verify("dyn_in_miss", &src(1)), (0, "TRUE".into()));
}

#[test]
fn address_of_a_variable_length_array_is_unsupported() {
    // `&a` is the array's address; the pointer that stands for it must not leak out.
    let src = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
        int main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n < 1 || n > 4) return 0;\n  \
        int a[n];\n  a[0] = 1;\n  if (*(int *)&a != 1) reach_error();\n  return 0;\n}\n";
    let (code, last) = verify("vla_addr", src);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.contains("address of a variable-length array"),
        "{last}"
    );
}
