//! What a counterexample violates, as SV-COMP names it. A leaf module: traces (which carry the
//! violation) and verdicts (which print it) both depend on it, and it on neither.

/// What a counterexample violates: the (sub)property SV-COMP names in `FALSE(...)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Violation {
    /// A `reach_error()` call or a failed `assert`.
    #[default]
    UnreachCall,
    /// Two conflicting accesses of different threads, at least one a write and not both
    /// atomic, that can occur one directly after the other.
    DataRace,
    ValidDeref,
    ValidFree,
    ValidMemtrack,
    Overflow,
}

impl Violation {
    /// Every violation, in the order of [`Violation::name`]'s table.
    pub const ALL: [Violation; 6] = [
        Violation::UnreachCall,
        Violation::DataRace,
        Violation::ValidDeref,
        Violation::ValidFree,
        Violation::ValidMemtrack,
        Violation::Overflow,
    ];

    /// The name in the verdict line `FALSE(name)`.
    pub fn name(self) -> &'static str {
        match self {
            Violation::UnreachCall => "unreach-call",
            Violation::DataRace => "no-data-race",
            Violation::ValidDeref => "valid-deref",
            Violation::ValidFree => "valid-free",
            Violation::ValidMemtrack => "valid-memtrack",
            Violation::Overflow => "no-overflow",
        }
    }

    /// The violation a verdict line names, if it is one.
    pub fn from_name(name: &str) -> Option<Violation> {
        Violation::ALL.into_iter().find(|v| v.name() == name)
    }
}
