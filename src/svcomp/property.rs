//! SV-COMP property files (`.prp`): reading one and deciding whether it is the property yogar
//! checks.
//!
//! yogar checks exactly one property: no call of `reach_error()` is reachable from `main()`.
//! Anything else (memory safety, overflow, termination, data races, another entry point or
//! another error function) is kept as text so that the caller can answer
//! `UNKNOWN (unsupported property)` instead of checking the wrong thing.

use std::fmt;
use std::path::Path;

/// What a property file asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Property {
    /// `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    UnreachCall,
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
        match checks.as_slice() {
            [only] if only == "CHECK(init(main()),LTL(G!call(reach_error())))" => {
                Property::UnreachCall
            }
            _ => Property::Other(text.trim().to_string()),
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

    /// The name SV-COMP gives this property in a FALSE verdict (`FALSE(unreach-call)`), if it
    /// is one yogar checks.
    pub fn verdict_name(&self) -> Option<&'static str> {
        match self {
            Property::UnreachCall => Some("unreach-call"),
            Property::Other(_) => None,
        }
    }

    /// The specification text as SV-COMP writes it (the witness `specification` entry).
    pub fn specification(&self) -> &str {
        match self {
            Property::UnreachCall => UNREACH_CALL_SPEC,
            Property::Other(text) => text,
        }
    }
}

/// The canonical text of the unreach-call specification.
pub const UNREACH_CALL_SPEC: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

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
    fn other_properties_are_kept_as_text() {
        for text in [
            "CHECK( init(main()), LTL(F end) )",
            "CHECK( init(main()), LTL(G ! data-race) )",
            "CHECK( init(main()), LTL(G ! call(__VERIFIER_error())) )",
            "CHECK( init(start()), LTL(G ! call(reach_error())) )",
            "CHECK( init(main()), LTL(G valid-free) )\nCHECK( init(main()), LTL(G valid-deref) )",
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
