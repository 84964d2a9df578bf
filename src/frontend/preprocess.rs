//! Running the system preprocessor and the exact token rewrites done before parsing.
//!
//! Every input (`.c` or `.i`) goes through `gcc -E -x c` (with `-m32` under ILP32): one path,
//! comments removed, line markers kept so that locations map back to the user's file.

use std::path::Path;
use std::process::Command;

use super::error::FrontendError;
use crate::ir::DataModel;

/// Runs `gcc -E -x c` on `path` and returns the preprocessed text (line markers included).
pub fn preprocess(path: &Path, model: DataModel) -> Result<String, FrontendError> {
    if let Err(e) = std::fs::metadata(path).and_then(|m| {
        if m.is_dir() {
            Err(std::io::Error::other("is a directory"))
        } else {
            std::fs::File::open(path).map(|_| ())
        }
    }) {
        return Err(FrontendError::Input(format!(
            "cannot read {}: {e}",
            path.display()
        )));
    }
    let mut cmd = Command::new("gcc");
    cmd.arg("-E").arg("-x").arg("c");
    if model == DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    cmd.arg(path);
    let out = cmd
        .output()
        .map_err(|e| FrontendError::Input(format!("cannot run the preprocessor gcc: {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
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
    let text = String::from_utf8(out.stdout).map_err(|_| {
        FrontendError::Input(format!(
            "{}: preprocessed text is not UTF-8",
            path.display()
        ))
    })?;
    Ok(text)
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
    use super::rewrite_tokens;

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
