//! Running the system preprocessor and the exact token rewrites done before parsing.
//!
//! Every input (`.c` or `.i`) goes through `gcc -E -x c` (with `-m32` under ILP32): one path,
//! comments removed, line markers kept so that locations map back to the user's file.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use super::error::FrontendError;
use crate::ir::DataModel;

/// Runs `gcc -E -x c` on the text of `path` and returns the preprocessed text (line markers
/// included).
///
/// Line markers already in the input (a `.i` file names the `.c` it came from) are blanked
/// first, keeping the line count: locations then refer to lines of the file the user gave,
/// which is what traces and witnesses must cite. The text reaches gcc on its standard input,
/// with the file's directory first on the quote-include path, so `#include "x.h"` still
/// finds the file's neighbours; gcc's name for it, `<stdin>`, is replaced by the path.
///
/// CBMC's type and storage-class keywords `__CPROVER_bool` and `__CPROVER_thread_local` are
/// defined as their C11 spellings; the user's `-D` and `-I` options follow.
pub fn preprocess(
    path: &Path,
    model: DataModel,
    options: &super::FrontendOptions,
) -> Result<String, FrontendError> {
    let bytes = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(std::io::Error::other("is a directory")),
        _ => std::fs::read(path),
    }
    .map_err(|e| FrontendError::Input(format!("cannot read {}: {e}", path.display())))?;
    let source = String::from_utf8_lossy(&bytes);
    let input = blank_line_markers(&source);
    let mut cmd = Command::new("gcc");
    cmd.arg("-E").arg("-x").arg("c");
    if model == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    cmd.arg("-iquote").arg(dir.unwrap_or(Path::new(".")));
    cmd.arg("-isystem").arg(own_headers()?);
    cmd.arg("-D__CPROVER_bool=_Bool");
    cmd.arg("-D__CPROVER_thread_local=_Thread_local");
    for d in &options.defines {
        cmd.arg(format!("-D{d}"));
    }
    for i in &options.include_dirs {
        cmd.arg("-I").arg(i);
    }
    cmd.arg("-");
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| FrontendError::Input(format!("cannot run the preprocessor gcc: {e}")))?;
    // Feed stdin from a thread: gcc may fill its stdout pipe before reading all its input.
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(w) = stdin.as_mut() {
            let _ = w.write_all(input.as_bytes());
        }
    });
    let out = child
        .wait_with_output()
        .map_err(|e| FrontendError::Input(format!("preprocessor failed: {e}")))?;
    let _ = writer.join();
    let name = path.display().to_string();
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).replace("<stdin>", &name);
        let first = stderr
            .lines()
            .find(|l| l.contains("error"))
            .or_else(|| stderr.lines().next())
            .unwrap_or("failed");
        return Err(FrontendError::Input(format!(
            "preprocessor failed: {}",
            first.trim()
        )));
    }
    let text = String::from_utf8(out.stdout)
        .map_err(|_| FrontendError::Input(format!("{name}: preprocessed text is not UTF-8")))?;
    Ok(rename_stdin(&text, &name))
}

/// yogar's replacements of system headers the parser cannot take (`include/`), ahead of the
/// system ones on the include path.
const OWN_HEADERS: &[(&str, &str)] = &[("stdatomic.h", include_str!("include/stdatomic.h"))];

/// The directory holding [`OWN_HEADERS`]: written once per content under the temporary
/// directory (each file through a rename, so concurrent runs never see a partial one).
fn own_headers() -> Result<std::path::PathBuf, FrontendError> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    OWN_HEADERS.hash(&mut h);
    let dir = std::env::temp_dir().join(format!("yogar-include-{:016x}", h.finish()));
    let err = |e: std::io::Error| {
        FrontendError::Input(format!(
            "cannot write yogar's headers to {}: {e}",
            dir.display()
        ))
    };
    for (name, text) in OWN_HEADERS {
        let path = dir.join(name);
        if std::fs::read_to_string(&path).is_ok_and(|t| t == *text) {
            continue;
        }
        // A temporary name of this process and call: threads of one process (the tests) and
        // other processes may write at once; each rename installs a complete file.
        static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        std::fs::create_dir_all(&dir).map_err(err)?;
        let tmp = dir.join(format!("{name}.{}.{n}", std::process::id()));
        std::fs::write(&tmp, text).map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)?;
    }
    Ok(dir)
}

/// Replaces GNU line markers (`# 12 "file" ...`) by empty lines.
fn blank_line_markers(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    for line in src.split_inclusive('\n') {
        let t = line.trim_start();
        let is_marker = t
            .strip_prefix('#')
            .map(|r| r.trim_start())
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        if is_marker {
            if line.ends_with('\n') {
                out.push('\n');
            }
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Names the user's file in the markers where gcc wrote `<stdin>`.
fn rename_stdin(text: &str, name: &str) -> String {
    let quoted = format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""));
    let mut out = String::with_capacity(text.len() + 1024);
    for line in text.split_inclusive('\n') {
        if line.starts_with('#') && line.contains("\"<stdin>\"") {
            out.push_str(&line.replacen("\"<stdin>\"", &quoted, 1));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Token rewrites done before parsing, for two GNU extensions the parser rejects:
/// - the storage class `__thread` becomes the C11 keyword `_Thread_local` (same meaning);
/// - `$` inside identifiers (the SV-COMP weak-memory tasks use names like `y$w_buff0`)
///   becomes `marker`, a spelling absent from the text; the lowering maps it back to `$`.
///
/// The rewrite is token-exact: only identifiers outside string and character literals and
/// outside line markers change; line numbers are preserved (columns on such lines shift).
/// Returns the text and the marker used for `$` (if any `$` identifier occurs).
pub fn rewrite_tokens(src: &str) -> (String, Option<String>) {
    if !src.contains("__thread") && !src.contains('$') {
        return (src.to_string(), None);
    }
    let marker = (0..)
        .map(|i| format!("_Y{i}D_"))
        .find(|m| !src.contains(m.as_str()))
        .unwrap_or_default();
    let mut used_marker = false;
    let bytes = src.as_bytes();
    let mut out = String::with_capacity(src.len() + 64);
    let mut i = 0;
    let mut copied = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if line_start && c == b'#' {
            // A line marker or other directive: copy verbatim up to the newline.
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'"' | b'\'' => {
                line_start = false;
                i += 1;
                while i < bytes.len() && bytes[i] != c && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            c if c == b'_' || c.is_ascii_alphabetic() || c == b'$' => {
                line_start = false;
                let start = i;
                while i < bytes.len()
                    && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric() || bytes[i] == b'$')
                {
                    i += 1;
                }
                let word = &src[start..i];
                if word == "__thread" {
                    out.push_str(&src[copied..start]);
                    out.push_str("_Thread_local");
                    copied = i;
                } else if word.contains('$') {
                    out.push_str(&src[copied..start]);
                    out.push_str(&word.replace('$', &marker));
                    copied = i;
                    used_marker = true;
                }
            }
            _ => {
                line_start = false;
                i += 1;
            }
        }
    }
    out.push_str(&src[copied.min(src.len())..]);
    (out, used_marker.then_some(marker))
}

#[cfg(test)]
mod tests {
    use super::{blank_line_markers, rename_stdin, rewrite_tokens};

    #[test]
    fn input_line_markers_are_blanked_keeping_lines() {
        let src = "# 1 \"a.c\"\nint x;\n  #  7 \"b.h\" 1\n#define N 3\nint y;\n";
        assert_eq!(blank_line_markers(src), "\nint x;\n\n#define N 3\nint y;\n");
        let out =
            "# 0 \"<stdin>\"\n# 1 \"/usr/include/x.h\" 1 3\nint \"<stdin>\";\n# 3 \"<stdin>\" 2\n";
        assert_eq!(
            rename_stdin(out, "dir/t.i"),
            "# 0 \"dir/t.i\"\n# 1 \"/usr/include/x.h\" 1 3\nint \"<stdin>\";\n# 3 \"dir/t.i\" 2\n"
        );
    }

    #[test]
    fn thread_keyword_is_rewritten_only_as_a_token() {
        let src = "__thread int a;\nint __thread_x; char *s = \"__thread\";\n# 1 \"__thread\"\nstatic __thread int b;\n";
        let (out, marker) = rewrite_tokens(src);
        assert_eq!(marker, None);
        assert_eq!(
            out,
            "_Thread_local int a;\nint __thread_x; char *s = \"__thread\";\n# 1 \"__thread\"\nstatic _Thread_local int b;\n"
        );
        assert_eq!(out.lines().count(), src.lines().count());
    }

    #[test]
    fn dollar_identifiers_get_a_fresh_marker() {
        let src = "int y$w = 1; int _Y0D_; char *s = \"a$b\";\n";
        let (out, marker) = rewrite_tokens(src);
        assert_eq!(marker.as_deref(), Some("_Y1D_"));
        assert_eq!(out, "int y_Y1D_w = 1; int _Y0D_; char *s = \"a$b\";\n");
    }
}
