//! Byte objects (memory read and written at different widths) checked against gcc: each
//! deterministic program fills `res` through casts, unions, untyped `malloc`, `memset` and
//! `memcpy`; gcc (x86-64, little-endian, LP64) runs it and prints `res`, then `yogar verify`
//! must prove that `res` holds exactly those values (TRUE) and refute a claim with one value
//! off by one (FALSE). Skipped with a message when gcc is not there.

use std::process::Command;

const N: usize = 8;

const PROGRAMS: &[&str] = &[
    // Bytes of an int through a char pointer, written back at byte and halfword width.
    r#"unsigned int x = 0x01020304;
void compute(void) {
  unsigned char *p = (unsigned char *)&x;
  res[0] = p[0]; res[1] = p[3];
  p[1] = 9; res[2] = x;
  unsigned short *h = (unsigned short *)&x;
  h[1] = 0xBEEF; res[3] = x;
  res[4] = h[0];
}"#,
    // Untyped heap memory: long written, ints and bytes read; a symbolic-free index loop.
    r#"#include <stdlib.h>
void compute(void) {
  void *m = malloc(16);
  long *l = m; int *i = m; unsigned char *b = m;
  l[0] = 0x1122334455667788L; l[1] = -2;
  res[0] = (unsigned int)i[0]; res[1] = (unsigned int)i[1];
  res[2] = b[7]; res[3] = (unsigned int)i[3];
  for (int k = 0; k < 4; k++) b[8 + k] = (unsigned char)(k + 1);
  res[4] = (unsigned int)i[2]; res[5] = l[1];
}"#,
    // A union read through members of other widths.
    r#"union U { unsigned long long q; unsigned int w[2]; unsigned short h[4]; unsigned char b[8]; };
union U u;
void compute(void) {
  u.q = 0x0102030405060708ULL;
  res[0] = u.w[1]; res[1] = u.h[2]; res[2] = u.b[0];
  u.b[7] = 0xF0; u.h[0] = 0xAAAA;
  res[3] = u.q >> 32; res[4] = u.w[0];
}"#,
    // memset and memcpy into an int array, read at other widths.
    r#"#include <string.h>
int a[3];
unsigned char bytes[4] = { 0x10, 0x20, 0x30, 0x40 };
void compute(void) {
  memset(a, 0xFF, sizeof a);
  res[0] = (unsigned int)a[1];
  memcpy((char *)a + 2, bytes, 4);
  res[1] = (unsigned int)a[0]; res[2] = (unsigned int)a[1];
  res[3] = ((unsigned short *)a)[2];
  memset((char *)a + 9, 0, 2);
  res[4] = (unsigned int)a[2];
}"#,
];

fn run_gcc(src: &str, name: &str) -> Option<Vec<u64>> {
    let dir = std::env::temp_dir().join(format!("yogar-bytes-gcc-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let c = dir.join("p.c");
    let exe = dir.join("p");
    let text = format!(
        "#include <stdio.h>\nunsigned long long res[{N}];\n{src}\nint main(void) {{ compute(); for (int i = 0; i < {N}; i++) printf(\"%llu\\n\", res[i]); return 0; }}\n"
    );
    std::fs::write(&c, text).ok()?;
    let built = match Command::new("gcc")
        .args(["-w", "-o"])
        .arg(&exe)
        .arg(&c)
        .output()
    {
        Ok(b) => b,
        Err(e) => {
            eprintln!("skipped: gcc not runnable: {e}");
            return None;
        }
    };
    if !built.status.success() {
        eprintln!(
            "skipped: gcc cannot build: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        return None;
    }
    let out = Command::new(&exe).output().ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim().parse().expect("a number"))
            .collect(),
    )
}

/// `yogar verify --64` of `src` with a main that checks `res` against `want`; its exit code.
fn verify(src: &str, want: &[u64], name: &str) -> Option<i32> {
    let dir = std::env::temp_dir().join(format!("yogar-bytes-v-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let c = dir.join("p.c");
    let checks: String = want
        .iter()
        .enumerate()
        .map(|(i, v)| format!("  assert(res[{i}] == {v}ULL);\n"))
        .collect();
    let text = format!(
        "#include <assert.h>\nunsigned long long res[{N}];\n{src}\nint main(void) {{\n  compute();\n{checks}  return 0;\n}}\n"
    );
    std::fs::write(&c, text).ok()?;
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["verify", "--64", "--unwind", "6", "-q"])
        .arg(&c)
        .output()
        .expect("yogar runs");
    let _ = std::fs::remove_dir_all(&dir);
    out.status.code()
}

#[test]
fn byte_objects_compute_what_gcc_computes() {
    for (i, src) in PROGRAMS.iter().enumerate() {
        let Some(want) = run_gcc(src, &i.to_string()) else {
            return;
        };
        assert_eq!(want.len(), N, "program {i}: gcc printed {want:?}");
        assert_eq!(
            verify(src, &want, &format!("{i}-true")),
            Some(0),
            "program {i}: yogar does not prove gcc's values {want:?}"
        );
        // Every claim with one value off by one is refuted.
        for k in 0..N {
            let mut wrong = want.clone();
            wrong[k] = wrong[k].wrapping_add(1);
            assert_eq!(
                verify(src, &wrong, &format!("{i}-false-{k}")),
                Some(10),
                "program {i}: yogar does not refute res[{k}] == {}",
                wrong[k]
            );
        }
    }
}
