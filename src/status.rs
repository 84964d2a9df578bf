//! Where a verification is: the bound, the phase, how many refinements (or theory conflicts)
//! so far. The pipeline and the engines update a [`Status`] as they go (plain atomics, cheap
//! enough for every round); whoever shows progress reads it from another thread, e.g. the
//! command line's status line on a terminal.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// What a verification is doing.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    Frontend,
    /// The sharing pass and symbolic execution.
    Symex,
    /// Formula, ζ and ξ to the solver.
    Encoding,
    Solving,
    /// Event order graphs and exact order checks of counterexamples.
    Refining,
}

impl Phase {
    const ALL: [Phase; 5] = [
        Phase::Frontend,
        Phase::Symex,
        Phase::Encoding,
        Phase::Solving,
        Phase::Refining,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Phase::Frontend => "frontend",
            Phase::Symex => "symbolic execution",
            Phase::Encoding => "encoding",
            Phase::Solving => "solving",
            Phase::Refining => "refining",
        }
    }
}

/// The shared progress record of one verification.
#[derive(Debug)]
pub struct Status {
    start: Instant,
    bound: AtomicU32,
    phase: AtomicU8,
    refinements: AtomicU64,
    conflicts: AtomicU64,
}

/// A copy of a [`Status`] at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub elapsed: Duration,
    /// The unwind bound being tried (0 before the first).
    pub bound: u32,
    pub phase: Phase,
    pub refinements: u64,
    /// Conflicts of an engine with an ordering theory (0 for the others).
    pub conflicts: u64,
}

impl Default for Status {
    fn default() -> Self {
        Status::new()
    }
}

impl Status {
    pub fn new() -> Status {
        Status {
            start: Instant::now(),
            bound: AtomicU32::new(0),
            phase: AtomicU8::new(Phase::Frontend as u8),
            refinements: AtomicU64::new(0),
            conflicts: AtomicU64::new(0),
        }
    }

    pub fn set_bound(&self, bound: u32) {
        self.bound.store(bound, Ordering::Relaxed);
    }

    pub fn set_phase(&self, phase: Phase) {
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    /// Refinements of the current bound so far.
    pub fn set_refinements(&self, n: u64) {
        self.refinements.store(n, Ordering::Relaxed);
    }

    pub fn set_conflicts(&self, n: u64) {
        self.conflicts.store(n, Ordering::Relaxed);
    }

    pub fn snapshot(&self) -> Snapshot {
        let phase = self.phase.load(Ordering::Relaxed);
        Snapshot {
            elapsed: self.start.elapsed(),
            bound: self.bound.load(Ordering::Relaxed),
            phase: Phase::ALL
                .into_iter()
                .find(|p| *p as u8 == phase)
                .unwrap_or(Phase::Frontend),
            refinements: self.refinements.load(Ordering::Relaxed),
            conflicts: self.conflicts.load(Ordering::Relaxed),
        }
    }
}

impl Snapshot {
    /// One line: `unwind 4 · solving · 12 refinements · 3.2 s`.
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        if self.bound > 0 {
            parts.push(format!("unwind {}", self.bound));
        }
        parts.push(self.phase.name().to_string());
        if self.refinements > 0 {
            parts.push(format!("{} refinements", self.refinements));
        }
        if self.conflicts > 0 {
            parts.push(format!("{} theory conflicts", self.conflicts));
        }
        parts.push(format!("{:.1} s", self.elapsed.as_secs_f64()));
        parts.join(" · ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_says_bound_phase_counts_and_time() {
        let s = Status::new();
        assert!(s.snapshot().line().starts_with("frontend · "));
        s.set_bound(4);
        s.set_phase(Phase::Solving);
        s.set_refinements(12);
        let line = s.snapshot().line();
        assert!(
            line.starts_with("unwind 4 · solving · 12 refinements · "),
            "{line}"
        );
        assert!(line.ends_with(" s"));
        s.set_conflicts(3);
        assert!(s.snapshot().line().contains("3 theory conflicts"));
    }
}
