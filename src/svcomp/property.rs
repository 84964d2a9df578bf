//! SV-COMP property files (`.prp`): reading one and deciding which property it is.
//!
//! The properties of SV-COMP's ConcurrencySafety category are recognised: unreach-call (no
//! call of `reach_error()` is reachable from `main()`), no-data-race, no-overflow and
//! valid-memsafety (valid-free, valid-deref, valid-memtrack). Which engine checks which is the
//! pipeline's business (`Property::checked_by`); anything else (termination, another entry
//! point or another error function) is kept as text so that the caller can answer
//! `UNKNOWN (unsupported property)` instead of checking the wrong thing.

use std::fmt;
use std::path::Path;

/// What a property file asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Property {
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    UnreachCall,
    /// `CHECK( init(main()), LTL(G ! data-race) )`.
    NoDataRace,
    /// `CHECK( init(main()), LTL(G ! overflow) )`.
    NoOverflow,
    /// The three checks of `valid-memsafety.prp`: valid-free, valid-deref, valid-memtrack.
    ValidMemsafety,
    /// Any other specification, as written in the file (trimmed).
    Other(String),
}

impl Property {
    /// Classify the text of a property file. Whitespace is not significant; the file must hold
    /// exactly one `CHECK(...)` and it must be the reachability of `reach_error` from `main`.
    pub fn parse(text: &str) -> Property {
        let checks: Vec<String> = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .map(|line| {
                line.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<String>()
            })
            .filter(|line| !line.is_empty())
            .collect();
        let is = |canonical: &str| {
            let mut want: Vec<String> = canonical
                .lines()
                .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect())
                .collect();
            let mut got = checks.clone();
            want.sort();
            got.sort();
            want == got
        };
        if is(UNREACH_CALL_SPEC) {
            Property::UnreachCall
        } else if is(NO_DATA_RACE_SPEC) {
            Property::NoDataRace
        } else if is(NO_OVERFLOW_SPEC) {
            Property::NoOverflow
        } else if is(VALID_MEMSAFETY_SPEC) {
            Property::ValidMemsafety
        } else {
            Property::Other(text.trim().to_string())
        }
    }

    /// Read and classify a property file.
    pub fn load(path: &Path) -> Result<Property, PropertyError> {
        let text = std::fs::read_to_string(path).map_err(|e| PropertyError {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(Property::parse(&text))
    }

    /// The name SV-COMP gives this property (`unreach-call`, `no-data-race`, ...), if it is
    /// one yogar knows. A FALSE verdict names the violated (sub)property, see
    /// `crate::verdict::Violation`.
    pub fn verdict_name(&self) -> Option<&'static str> {
        match self {
            Property::UnreachCall => Some("unreach-call"),
            Property::NoDataRace => Some("no-data-race"),
            Property::NoOverflow => Some("no-overflow"),
            Property::ValidMemsafety => Some("valid-memsafety"),
            Property::Other(_) => None,
        }
    }

    /// The specification text as SV-COMP writes it (the witness `specification` entry).
    pub fn specification(&self) -> &str {
        match self {
            Property::UnreachCall => UNREACH_CALL_SPEC,
            Property::NoDataRace => NO_DATA_RACE_SPEC,
            Property::NoOverflow => NO_OVERFLOW_SPEC,
            Property::ValidMemsafety => VALID_MEMSAFETY_SPEC,
            Property::Other(text) => text,
        }
    }
}

/// The canonical text of the unreach-call specification.
pub const UNREACH_CALL_SPEC: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";
/// The canonical text of the no-data-race specification.
pub const NO_DATA_RACE_SPEC: &str = "CHECK( init(main()), LTL(G ! data-race) )";
/// The canonical text of the no-overflow specification.
pub const NO_OVERFLOW_SPEC: &str = "CHECK( init(main()), LTL(G ! overflow) )";
/// The canonical text of the valid-memsafety specification (three checks, in any order).
pub const VALID_MEMSAFETY_SPEC: &str = "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-memtrack) )";

/// A property file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropertyError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for PropertyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read property file {}: {}",
            self.path, self.message
        )
    }
}

impl std::error::Error for PropertyError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unreach_call_is_recognised_whatever_the_spacing() {
        assert_eq!(Property::parse(UNREACH_CALL_SPEC), Property::UnreachCall);
        assert_eq!(
            Property::parse("CHECK(init(main()),LTL(G!call(reach_error())))\n\n"),
            Property::UnreachCall
        );
        assert_eq!(
            Property::parse("  CHECK( init( main() ), LTL( G ! call( reach_error() ) ) )\r\n"),
            Property::UnreachCall
        );
        assert_eq!(Property::UnreachCall.verdict_name(), Some("unreach-call"));
    }

    #[test]
    fn the_concurrency_safety_properties_are_recognised() {
        assert_eq!(
            Property::parse("CHECK( init(main()), LTL(G ! data-race) )\n"),
            Property::NoDataRace
        );
        assert_eq!(Property::parse(NO_OVERFLOW_SPEC), Property::NoOverflow);
        assert_eq!(
            Property::parse(
                "CHECK( init(main()), LTL(G valid-deref) )\nCHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-memtrack) )\n"
            ),
            Property::ValidMemsafety
        );
        for p in [
            Property::UnreachCall,
            Property::NoDataRace,
            Property::NoOverflow,
            Property::ValidMemsafety,
        ] {
            assert_eq!(Property::parse(p.specification()), p);
        }
        assert_eq!(Property::NoDataRace.verdict_name(), Some("no-data-race"));
    }

    #[test]
    fn other_properties_are_kept_as_text() {
        for text in [
            "CHECK( init(main()), LTL(F end) )",
            "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
            "CHECK( init(start()), LTL(G ! call(reach_error())) )",
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )",
            "CHECK( init(main()), LTL(G valid-memcleanup) )",
            "",
        ] {
            let p = Property::parse(text);
            assert_eq!(p, Property::Other(text.trim().to_string()), "{text:?}");
            assert_eq!(p.verdict_name(), None);
        }
    }

    #[test]
    fn two_reach_error_checks_are_not_taken_for_one() {
        let text = format!("{UNREACH_CALL_SPEC}\n{UNREACH_CALL_SPEC}\n");
        assert!(matches!(Property::parse(&text), Property::Other(_)));
    }

    #[test]
    fn a_missing_file_is_a_one_line_error() {
        let err = Property::load(Path::new("/nonexistent/unreach-call.prp")).unwrap_err();
        let line = err.to_string();
        assert!(line.starts_with("cannot read property file /nonexistent/unreach-call.prp"));
        assert!(!line.contains('\n'));
    }
}
