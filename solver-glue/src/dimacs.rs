//! DIMACS CNF: reading (strict about structure, lenient about layout) and writing.
//!
//! Accepted layout: comment lines starting with `c` anywhere, one `p cnf VARS CLAUSES` header
//! before the first clause, clauses as whitespace-separated literals ended by `0` that may span
//! lines or share one, and a SATLIB-style `%` line that ends the formula. Rejected, with the
//! line number: a missing or repeated header, a literal that is not an integer or exceeds the
//! header's variable count, a clause count other than the header's, a last clause without its
//! `0`. A wrong count usually means a truncated or corrupted file, and answering for a formula
//! other than the one in the file would be a wrong verdict.
//!
//! rustsat's DIMACS reader (0.7) is not used here because it is lenient exactly where this
//! one must be strict: it ignores the header's clause count (a truncated file reads as a
//! smaller formula), lets literals exceed the header's variable count, and reports errors
//! without a line.

use std::fmt;
use std::io::{self, Write};

use crate::{ClauseSink, Lit, Var};

/// A formula in conjunctive normal form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// Number of variables (variables are 1..=num_vars).
    pub num_vars: u32,
    pub clauses: Vec<Vec<Lit>>,
}

impl Cnf {
    /// Whether `assignment` (indexed by [`Var::index`], true for a true variable) satisfies
    /// every clause. Variables beyond the assignment count as false.
    pub fn is_satisfied_by(&self, assignment: &[bool]) -> bool {
        self.clauses.iter().all(|clause| {
            clause.iter().any(|&lit| {
                let value = assignment.get(lit.var().index()).copied().unwrap_or(false);
                value == lit.is_positive()
            })
        })
    }

    /// Writes the formula in DIMACS CNF.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "p cnf {} {}", self.num_vars, self.clauses.len())?;
        for clause in &self.clauses {
            for lit in clause {
                write!(out, "{lit} ")?;
            }
            writeln!(out, "0")?;
        }
        Ok(())
    }

    /// The formula as DIMACS text.
    pub fn to_dimacs_string(&self) -> String {
        let mut out = Vec::new();
        self.write(&mut out).expect("writing to memory cannot fail");
        String::from_utf8(out).expect("DIMACS output is ASCII")
    }
}

impl ClauseSink for Cnf {
    fn new_var(&mut self) -> Var {
        self.num_vars += 1;
        Var::from_dimacs(self.num_vars)
    }

    fn add_clause(&mut self, lits: &[Lit]) {
        for lit in lits {
            self.num_vars = self.num_vars.max(lit.var().to_dimacs());
        }
        self.clauses.push(lits.to_vec());
    }
}

/// Why a DIMACS text was rejected, with the 1-based line where it was noticed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimacsError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for DimacsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DimacsError {}

/// Parses DIMACS CNF text (see the module doc for what is accepted).
pub fn parse(text: &[u8]) -> Result<Cnf, DimacsError> {
    let error = |line: usize, message: String| DimacsError { line, message };
    let mut header: Option<(u32, usize)> = None;
    let mut clauses = Vec::new();
    let mut clause = Vec::new();
    // Line of the first literal of the clause being read, for "not terminated" errors.
    let mut clause_line = 0;
    // Last line with content, where errors found at the end of the text are reported.
    let mut last_line = 0;
    for (number, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = number + 1;
        let Ok(content) = std::str::from_utf8(raw) else {
            return Err(error(line, "not text (invalid UTF-8)".into()));
        };
        let content = content.trim();
        if content.is_empty() {
            continue;
        }
        last_line = line;
        if content.starts_with('c') {
            continue;
        }
        if content.starts_with('%') {
            break;
        }
        if content.starts_with('p') {
            if header.is_some() {
                return Err(error(line, "a second 'p' header".into()));
            }
            let fields: Vec<&str> = content.split_whitespace().collect();
            let parsed = match fields.as_slice() {
                ["p", "cnf", vars, count] => vars.parse::<u32>().ok().zip(count.parse().ok()),
                _ => None,
            };
            let Some((vars, count)) = parsed else {
                return Err(error(
                    line,
                    format!("malformed header '{content}' (expected 'p cnf VARIABLES CLAUSES')"),
                ));
            };
            if vars > i32::MAX as u32 {
                return Err(error(line, format!("too many variables ({vars})")));
            }
            header = Some((vars, count));
            continue;
        }
        let Some((vars, _)) = header else {
            return Err(error(line, "clause before the 'p cnf' header".into()));
        };
        for token in content.split_whitespace() {
            let Ok(value) = token.parse::<i64>() else {
                return Err(error(line, format!("'{token}' is not a literal")));
            };
            if value == 0 {
                clauses.push(std::mem::take(&mut clause));
                continue;
            }
            if value.unsigned_abs() > u64::from(vars) {
                return Err(error(
                    line,
                    format!("literal {value} exceeds the header's {vars} variables"),
                ));
            }
            if clause.is_empty() {
                clause_line = line;
            }
            clause.push(Lit::from_dimacs(value as i32));
        }
    }
    let Some((num_vars, count)) = header else {
        return Err(error(last_line.max(1), "no 'p cnf' header".into()));
    };
    if !clause.is_empty() {
        return Err(error(
            clause_line,
            "the last clause is not terminated by 0".into(),
        ));
    }
    if clauses.len() != count {
        return Err(error(
            last_line.max(1),
            format!(
                "the header announces {count} clauses but there are {}",
                clauses.len()
            ),
        ));
    }
    Ok(Cnf { num_vars, clauses })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(v: &[i32]) -> Vec<Lit> {
        v.iter().map(|&n| Lit::from_dimacs(n)).collect()
    }

    #[test]
    fn layout_variants() {
        let text = b"c a comment\n  p  cnf 3 3 \nc mid\n1 -2\n 0 2 3 0\n\n-1 0\n%\n0\n";
        let cnf = parse(text).unwrap();
        assert_eq!(cnf.num_vars, 3);
        assert_eq!(
            cnf.clauses,
            vec![lits(&[1, -2]), lits(&[2, 3]), lits(&[-1])]
        );
    }

    #[test]
    fn empty_clause_and_crlf() {
        let cnf = parse(b"p cnf 2 2\r\n0\r\n1 2 0\r\n").unwrap();
        assert_eq!(cnf.clauses, vec![vec![], lits(&[1, 2])]);
    }

    #[test]
    fn round_trip() {
        let cnf = Cnf {
            num_vars: 4,
            clauses: vec![lits(&[1, -4]), vec![], lits(&[2, 3, -1])],
        };
        assert_eq!(parse(cnf.to_dimacs_string().as_bytes()).unwrap(), cnf);
    }

    #[test]
    fn rejections() {
        let cases: &[(&[u8], usize, &str)] = &[
            (b"1 2 0\n", 1, "before the 'p cnf' header"),
            (b"p cnf 2 1\np cnf 2 1\n1 0\n", 2, "second"),
            (b"p dnf 2 1\n", 1, "malformed header"),
            (b"p cnf x 1\n", 1, "malformed header"),
            (b"p cnf 2 1\n1 x 0\n", 2, "'x' is not a literal"),
            (b"p cnf 2 1\n1 3 0\n", 2, "exceeds"),
            (
                b"p cnf 2 2\n1 0\n",
                2,
                "announces 2 clauses but there are 1",
            ),
            (b"p cnf 2 1\n1 0\n2 0\n", 3, "announces 1"),
            (b"p cnf 2 1\n1\n2\n", 2, "not terminated"),
            (b"c only comments\n", 1, "no 'p cnf' header"),
            (b"p cnf 2 1\n\xff 0\n", 2, "UTF-8"),
            (b"p cnf 2 1\n99999999999999999999 0\n", 2, "not a literal"),
        ];
        for (text, line, needle) in cases {
            let err = parse(text).unwrap_err();
            assert_eq!(
                err.line,
                *line,
                "{err} for {:?}",
                String::from_utf8_lossy(text)
            );
            assert!(err.message.contains(needle), "{err}");
            assert!(!err.to_string().contains('\n'));
        }
    }
}
