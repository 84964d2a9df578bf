//! At-most-one and exactly-one constraints over a slice of literals.
//!
//! Pairwise for a few literals (no new variables, and unit propagation is as strong as it
//! gets); above that the sequential counter (Sinz 2005), linear in size with `n - 1` new
//! variables, because pairwise grows quadratically. Both propagate fully: setting any literal
//! true forces all others false by unit propagation alone.

use crate::{ClauseSink, Lit};

/// Up to this many literals the pairwise encoding (n·(n−1)/2 binary clauses) is used.
pub const PAIRWISE_MAX: usize = 6;

/// Constrains at most one of `lits` to be true.
pub fn at_most_one(sink: &mut (impl ClauseSink + ?Sized), lits: &[Lit]) {
    if lits.len() <= PAIRWISE_MAX {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                sink.add_clause(&[!a, !b]);
            }
        }
        return;
    }
    // s_i is true when some of lits[0..=i] is true.
    let n = lits.len();
    let s: Vec<Lit> = (0..n - 1).map(|_| sink.new_var().pos()).collect();
    sink.add_clause(&[!lits[0], s[0]]);
    for i in 1..n - 1 {
        sink.add_clause(&[!lits[i], s[i]]);
        sink.add_clause(&[!s[i - 1], s[i]]);
        sink.add_clause(&[!lits[i], !s[i - 1]]);
    }
    sink.add_clause(&[!lits[n - 1], !s[n - 2]]);
}

/// Constrains exactly one of `lits` to be true (no literals: unsatisfiable).
pub fn exactly_one(sink: &mut (impl ClauseSink + ?Sized), lits: &[Lit]) {
    sink.add_clause(lits);
    at_most_one(sink, lits);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dimacs::Cnf;
    use crate::generate::Rng;

    /// Whether some assignment of the variables after the first `inputs` extends `input`
    /// (bit i = value of variable i+1) to a model of `cnf`.
    fn extends(cnf: &Cnf, inputs: u32, input: u64) -> bool {
        let aux = cnf.num_vars - inputs;
        (0..1u64 << aux).any(|extra| {
            let bits = input | (extra << inputs);
            let assignment: Vec<bool> = (0..cnf.num_vars).map(|i| bits >> i & 1 == 1).collect();
            cnf.is_satisfied_by(&assignment)
        })
    }

    #[test]
    fn against_brute_force() {
        let mut rng = Rng::new(7);
        for n in 0..=9u32 {
            for exact in [false, true] {
                let mut cnf = Cnf {
                    num_vars: n,
                    clauses: Vec::new(),
                };
                // Random polarities, so the encodings are checked on negative literals too.
                let lits: Vec<Lit> = (1..=n)
                    .map(|v| {
                        let lit = Lit::from_dimacs(v as i32);
                        if rng.coin() {
                            lit
                        } else {
                            !lit
                        }
                    })
                    .collect();
                if exact {
                    exactly_one(&mut cnf, &lits);
                } else {
                    at_most_one(&mut cnf, &lits);
                }
                if n as usize <= PAIRWISE_MAX {
                    assert_eq!(cnf.num_vars, n, "pairwise adds no variables");
                }
                for input in 0..1u64 << n {
                    let true_lits = lits
                        .iter()
                        .filter(|l| (input >> l.var().index() & 1 == 1) == l.is_positive())
                        .count();
                    let expected = if exact {
                        true_lits == 1
                    } else {
                        true_lits <= 1
                    };
                    assert_eq!(
                        extends(&cnf, n, input),
                        expected,
                        "n={n} exact={exact} input={input:b}"
                    );
                }
            }
        }
    }
}
