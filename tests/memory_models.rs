//! Memory layouts that depend on the data model: a heap struct cast to its type is laid out
//! with the data model's offsets (an ILP32 `long long` is 4-aligned inside a struct).

use std::path::PathBuf;
use std::process::Command;

/// `yogar verify --unwind 2 MODEL` of a program: (exit code, last stdout line).
fn verify(name: &str, model: &str, source: &str) -> (i32, String) {
    let dir = std::env::temp_dir().join(format!("yogar-memory-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join(format!("{name}.c"));
    std::fs::write(&path, source).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--unwind", "2", model])
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("").to_string();
    (out.status.code().unwrap_or(-1), last)
}

/// A driver's file struct: under ILP32 `f_pos` (a `long long`) is at offset 20, a multiple of
/// 4 but not of 8. A thread reaches the struct through a pointer read from a global; `bad`
/// lets the seek move backwards.
fn llseek(bad: bool) -> String {
    let low = if bad { "-10" } else { "0" };
    format!(
        "#include <pthread.h>\n#include <stdlib.h>\n#include <assert.h>\n\
         extern char __VERIFIER_nondet_char(void);\n\
         typedef long long loff_t;\n\
         struct file {{ void *dentry; void *op; int count; unsigned flags; unsigned short mode;\n\
           loff_t f_pos; void *private_data; void *mapping; }};\n\
         struct file *fp;\n\
         loff_t llseek(struct file *file, loff_t offset) {{\n\
           if (offset < {low}) return -22;\n\
           offset += file->f_pos;\n\
           file->f_pos = offset;\n\
           return file->f_pos;\n}}\n\
         void *w(void *a) {{ llseek(fp, __VERIFIER_nondet_char()); return 0; }}\n\
         int main(void) {{\n  pthread_t t;\n\
           fp = (struct file *) malloc(sizeof(struct file));\n  fp->f_pos = 0;\n\
           pthread_create(&t, 0, w, 0);\n  pthread_join(t, 0);\n\
           assert(fp->f_pos >= 0);\n  return 0;\n}}\n"
    )
}

#[test]
fn heap_struct_cast_to_its_type_has_the_ilp32_layout() {
    assert_eq!(
        verify("llseek_true", "--32", &llseek(false)),
        (0, "TRUE".into())
    );
    assert_eq!(
        verify("llseek_false", "--32", &llseek(true)),
        (10, "FALSE(unreach-call)".into())
    );
    assert_eq!(
        verify("llseek_true64", "--64", &llseek(false)),
        (0, "TRUE".into())
    );
}

/// A read through `table + port` with an unchecked `port`; `feeds` makes the assertion depend
/// on the value read.
fn unchecked_read(feeds: bool) -> String {
    let cond = if feeds { "val < 100" } else { "1" };
    format!(
        "#include <assert.h>\nextern unsigned __VERIFIER_nondet_uint(void);\n\
         int table[4] = {{0, 4, 8, 10}};\n\
         int main(void) {{\n  unsigned port = __VERIFIER_nondet_uint() >> 3;\n\
           int *p = table;\n  int val = p[port];\n  assert({cond});\n  return 0;\n}}\n"
    )
}

#[test]
fn invalid_read_blocks_only_the_verdicts_its_value_may_decide() {
    // In bounds the value is < 100; out of bounds it is arbitrary: neither TRUE nor FALSE.
    let (code, last) = verify("oob_feeds", "--64", &unchecked_read(true));
    assert_eq!(code, 5, "{last}");
    assert!(
        last.starts_with("UNKNOWN (unsupported: invalid memory read"),
        "{last}"
    );
    // The value decides nothing: TRUE.
    assert_eq!(
        verify("oob_unused", "--64", &unchecked_read(false)),
        (0, "TRUE".into())
    );
}

/// A byte of an int chosen by a nondet index through an `unsigned char *` (a symbolic offset
/// into a byte object): every offset is a case, none is guessed. `claim` is what main asserts
/// of byte `k` for `k` in 0..4.
fn byte_at_nondet_index(claim: &str) -> String {
    format!(
        "#include <assert.h>\nextern int __VERIFIER_nondet_int(void);\n\
         unsigned int x = 0x0A0B0C0D;\n\
         int main(void) {{\n  unsigned char *p = (unsigned char *)&x;\n\
           int k = __VERIFIER_nondet_int();\n  __VERIFIER_assume(k >= 0 && k < 4);\n\
           p[k] = p[k] + 1;\n  unsigned char b = p[k];\n  assert({claim});\n  return 0;\n}}\n"
    )
}

#[test]
fn byte_objects_take_symbolic_offsets_exactly() {
    for model in ["--32", "--64"] {
        // Byte k of 0x0A0B0C0D is 0x0D - k, plus the increment; the word changed in byte k only.
        assert_eq!(
            verify(
                "byte_index_true",
                model,
                &byte_at_nondet_index("b == 0x0E - k && x == 0x0A0B0C0D + (1u << (8 * k))")
            ),
            (0, "TRUE".into())
        );
        // With k = 3 the byte is 0x0B.
        assert_eq!(
            verify(
                "byte_index_false",
                model,
                &byte_at_nondet_index("b != 0x0B")
            ),
            (10, "FALSE(unreach-call)".into())
        );
    }
}

/// A pointer stored into memory that is also read at another width: its bytes are not the
/// machine's address, so the verdict is UNKNOWN with the reason, never a guess.
#[test]
fn pointer_in_a_byte_object_is_unknown() {
    let source = "#include <assert.h>\n#include <stdlib.h>\nint g = 5;\n\
        int main(void) {\n  void *m = malloc(16);\n  int **pp = m;\n  *pp = &g;\n\
          unsigned char *b = m;\n  unsigned char c = b[1];\n  assert(**pp == 5 + c - c);\n\
          return 0;\n}\n";
    let (code, last) = verify("pointer_bytes", "--64", source);
    assert_eq!(code, 5, "{last}");
    assert!(
        last.contains("pointer stored in or read from memory accessed at different widths"),
        "{last}"
    );
}

/// A union copied as a whole after a write through one member, then read through another.
/// `first`: the union's first member; the copy moves the first member's scalars.
fn union_copy(first: &str, claim: &str) -> String {
    format!(
        "#include <assert.h>\n\
         union U {{ {first}; unsigned int i; unsigned char b[4]; }};\n\
         union U u1, u2;\n\
         int main(void) {{\n  u2.i = 0xFFFFFFFF;\n  u1.i = 0x01020304;\n  u2 = u1;\n\
           assert({claim});\n  return 0;\n}}\n"
    )
}

#[test]
fn union_copies_in_byte_objects_are_exact_or_unknown() {
    // The first member covers the union: the copy moves all four bytes.
    assert_eq!(
        verify(
            "union_copy_true",
            "--64",
            &union_copy("unsigned int w", "u2.i == 0x01020304 && u2.b[1] == 3")
        ),
        (0, "TRUE".into())
    );
    assert_eq!(
        verify(
            "union_copy_false",
            "--64",
            &union_copy("unsigned int w", "u2.b[3] == 4")
        ),
        (10, "FALSE(unreach-call)".into())
    );
    // A one-byte first member: copying its scalar alone would leave u2's other bytes at 0xFF
    // (a wrong FALSE); the copy is reported instead.
    let (code, last) = verify(
        "union_copy_partial",
        "--64",
        &union_copy("unsigned char c", "u2.i == 0x01020304"),
    );
    assert_eq!(code, 5, "{last}");
    assert!(
        last.contains("copy of a union whose first member does not cover it"),
        "{last}"
    );
}
