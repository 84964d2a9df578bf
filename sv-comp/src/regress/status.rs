//! The status of one regression run, read from what `yogar verify` printed and how it ended,
//! and its SV-COMP category and score.
//!
//! A verdict is taken only when the last line and the exit code agree (`src/exit.rs`);
//! anything else is an error, never a verdict.

use std::collections::BTreeMap;
use std::fmt;

use yogar::exit;
use yogar::verdict::{ReasonClass, VerdictLine};

use crate::runs::agreed_verdict;

/// SV-COMP scores: correct TRUE +2, correct FALSE +1, wrong FALSE −16, wrong TRUE −32.
pub const SCORE_CORRECT_TRUE: i64 = 2;
pub const SCORE_CORRECT_FALSE: i64 = 1;
pub const SCORE_WRONG_FALSE: i64 = -16;
pub const SCORE_WRONG_TRUE: i64 = -32;

/// The status of a run, written in the result tables as BenchExec writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    True,
    /// A violation of the named property (`false(unreach-call)`).
    False(String),
    Unknown,
    Timeout,
    OutOfMemory,
    /// No verdict: the text says why (`internal`, `signal 9`, ...).
    Error(String),
}

/// The verdict a status carries, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerdictClass {
    True,
    False,
    None,
}

impl Status {
    pub fn class(&self) -> VerdictClass {
        match self {
            Status::True => VerdictClass::True,
            Status::False(_) => VerdictClass::False,
            _ => VerdictClass::None,
        }
    }

    /// The status of a table cell, as [`Display`](fmt::Display) writes it.
    pub fn parse(text: &str) -> Status {
        let text = text.trim();
        match text {
            "true" => Status::True,
            "unknown" => Status::Unknown,
            "TIMEOUT" => Status::Timeout,
            "OUT OF MEMORY" => Status::OutOfMemory,
            _ => {
                if let Some(p) = text
                    .strip_prefix("false(")
                    .and_then(|r| r.strip_suffix(')'))
                {
                    Status::False(p.to_string())
                } else if let Some(why) = text
                    .strip_prefix("ERROR (")
                    .and_then(|r| r.strip_suffix(')'))
                {
                    Status::Error(why.to_string())
                } else {
                    Status::Error(text.to_string())
                }
            }
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::True => write!(f, "true"),
            Status::False(p) => write!(f, "false({p})"),
            Status::Unknown => write!(f, "unknown"),
            Status::Timeout => write!(f, "TIMEOUT"),
            Status::OutOfMemory => write!(f, "OUT OF MEMORY"),
            Status::Error(why) => write!(f, "ERROR ({why})"),
        }
    }
}

/// The class of a status cell of an earlier table (empty: no verdict).
pub fn class_of(text: &str) -> VerdictClass {
    if text.trim().is_empty() {
        VerdictClass::None
    } else {
        Status::parse(text).class()
    }
}

/// The status from yogar's stdout and how it ended (`code`: the exit code, `None` when
/// `signal` ended it): a verdict only when the last line and the exit code agree
/// ([`agreed_verdict`]), else an error that says why.
pub fn parse_output(stdout: &str, code: Option<i32>, signal: Option<i32>) -> Status {
    let Some(code) = code else {
        return Status::Error(format!("signal {}", signal.unwrap_or(0)));
    };
    let error = match u8::try_from(code) {
        Ok(exit::INTERNAL) => Some("internal"),
        Ok(exit::USAGE) => Some("usage"),
        Ok(exit::INPUT) => Some("input"),
        Ok(exit::NOT_IMPLEMENTED) => Some("not implemented"),
        _ => None,
    };
    if let Some(e) = error {
        return Status::Error(e.into());
    }
    match agreed_verdict(stdout, Some(code)) {
        Some(VerdictLine::True) => Status::True,
        Some(VerdictLine::False(p)) => Status::False(p),
        Some(VerdictLine::Unknown { class, .. }) => match class {
            ReasonClass::Timeout => Status::Timeout,
            ReasonClass::OutOfMemory => Status::OutOfMemory,
            _ => Status::Unknown,
        },
        None => {
            let last = stdout.lines().map(str::trim).rfind(|l| !l.is_empty());
            let shown: String = last.unwrap_or("").chars().take(40).collect();
            Status::Error(format!("exit code {code}, last line '{shown}'"))
        }
    }
}

/// An allocation failure, by what stderr says: Rust's abort message, the C++ SAT back end's
/// `std::bad_alloc` termination, or a run killed by a signal that reports it.
pub fn out_of_memory(stderr: &str, code: Option<i32>) -> bool {
    stderr.contains("memory allocation of")
        || stderr.contains("std::bad_alloc")
        || (code.is_none() && stderr.to_lowercase().contains("out of memory"))
}

/// The `key: value` lines of `yogar verify --stats`.
pub fn parse_stats(stdout: &str) -> BTreeMap<String, String> {
    let mut stats = BTreeMap::new();
    for line in stdout.lines().map(str::trim) {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        let key_ok = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || " _.-".contains(c));
        if key_ok && !value.is_empty() {
            stats.insert(key.to_string(), value.to_string());
        }
    }
    stats
}

/// The SV-COMP category of a status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Correct,
    Wrong,
    Unknown,
    Error,
}

impl Category {
    pub fn name(self) -> &'static str {
        match self {
            Category::Correct => "correct",
            Category::Wrong => "wrong",
            Category::Unknown => "unknown",
            Category::Error => "error",
        }
    }
}

/// The category and score of `status` on a task whose expected verdict is `expected`. Only a
/// violation of the property asked for (unreach-call) is a correct FALSE.
pub fn categorize(expected: bool, status: &Status) -> (Category, i64) {
    match status {
        Status::True if expected => (Category::Correct, SCORE_CORRECT_TRUE),
        Status::True => (Category::Wrong, SCORE_WRONG_TRUE),
        Status::False(p) if p == "unreach-call" && !expected => {
            (Category::Correct, SCORE_CORRECT_FALSE)
        }
        Status::False(_) => (Category::Wrong, SCORE_WRONG_FALSE),
        Status::Error(_) => (Category::Error, 0),
        _ => (Category::Unknown, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sv_comp_scores() {
        let cases = [
            (true, "true", Category::Correct, 2),
            (false, "false(unreach-call)", Category::Correct, 1),
            (true, "false(unreach-call)", Category::Wrong, -16),
            (false, "true", Category::Wrong, -32),
            (false, "false(no-data-race)", Category::Wrong, -16),
            (true, "unknown", Category::Unknown, 0),
            (false, "TIMEOUT", Category::Unknown, 0),
            (true, "OUT OF MEMORY", Category::Unknown, 0),
            (false, "ERROR (internal)", Category::Error, 0),
        ];
        for (expected, text, category, score) in cases {
            let status = Status::parse(text);
            assert_eq!(status.to_string(), text);
            assert_eq!(categorize(expected, &status), (category, score), "{text}");
        }
    }

    #[test]
    fn verdict_line_and_exit_code_must_agree() {
        let cases = [
            ("x: 1\nTRUE\n", 0, Some("true")),
            ("FALSE(unreach-call)\n\n", 10, Some("false(unreach-call)")),
            ("UNKNOWN (timeout)\n", 5, Some("TIMEOUT")),
            ("UNKNOWN (out of memory)\n", 5, Some("OUT OF MEMORY")),
            (
                "UNKNOWN (unsupported: pthread_cond_wait)\n",
                5,
                Some("unknown"),
            ),
            ("TRUE\n", 10, None),
            ("FALSE(unreach-call)\n", 0, None),
            ("TRUE\ntrailing noise\n", 0, None),
            ("", 0, None),
            ("anything\n", 1, Some("ERROR (internal)")),
            ("anything\n", 3, Some("ERROR (input)")),
            ("anything\n", 4, Some("ERROR (not implemented)")),
        ];
        for (out, code, expected) in cases {
            let status = parse_output(out, Some(code), None).to_string();
            match expected {
                Some(e) => assert_eq!(status, e, "{out:?} {code}"),
                None => assert!(status.starts_with("ERROR (exit code"), "{out:?} {status}"),
            }
        }
        assert_eq!(
            parse_output("TRUE\n", None, Some(9)).to_string(),
            "ERROR (signal 9)"
        );
    }

    #[test]
    fn allocation_failures_are_out_of_memory() {
        let bad_alloc = "terminate called after throwing an instance of 'std::bad_alloc'\n  \
                         what():  std::bad_alloc";
        assert!(out_of_memory(bad_alloc, None));
        assert!(out_of_memory(bad_alloc, Some(134)));
        assert!(out_of_memory("memory allocation of 64 bytes failed", None));
        assert!(out_of_memory("yogar: Out of memory", None));
        assert!(!out_of_memory("thread 'main' panicked at src/x.rs", None));
        // A normal exit that mentions memory in a warning is not an allocation failure.
        assert!(!out_of_memory("warning: out of memory soon", Some(0)));
    }

    #[test]
    fn stats_lines() {
        let stats = parse_stats("refinements: 12\nsolver time: 0.5 s\nTRUE\n");
        assert_eq!(stats["refinements"], "12");
        assert_eq!(stats["solver time"], "0.5 s");
        assert!(!stats.contains_key("TRUE"));
        // A verdict line is not a statistic.
        assert!(parse_stats("UNKNOWN (x: y)\n").is_empty());
    }

    #[test]
    fn classes_of_table_cells() {
        assert_eq!(class_of("true"), VerdictClass::True);
        assert_eq!(class_of("false(unreach-call)"), VerdictClass::False);
        assert_eq!(class_of("TIMEOUT"), VerdictClass::None);
        assert_eq!(class_of(""), VerdictClass::None);
        assert_eq!(
            class_of("ERROR (exit code 0, last line 'TRUE')"),
            VerdictClass::None
        );
    }
}
