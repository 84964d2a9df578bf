//! Every read-from map a solver with the ordering theory connected accepts: the enumeration
//! the brute-force comparisons of the theory share (`ordering.rs`, `lazy_values.rs`).

use std::collections::HashSet;

use cranelift_entity::EntityRef;
use encoder::{Encoder, LinkTable, OrderTheory, TheoryStats};
use solver_glue::{Lit, SolveResult};

/// One accepted model: the read-from map (per event index, the index of the write it reads)
/// and the model's value of every solver variable (index `v - 1` for DIMACS variable `v`).
pub struct Accepted {
    pub rf: Vec<Option<usize>>,
    pub model: Vec<bool>,
}

impl Accepted {
    /// Whether `l` holds in the model.
    pub fn holds(&self, l: Lit) -> bool {
        self.model[l.var().index()] == l.is_positive()
    }
}

/// The connected theory.
pub fn connected_theory<'e>(enc: &'e mut Encoder<'_>) -> &'e OrderTheory {
    let t = enc.solver().propagator().expect("a theory is connected");
    t.as_any()
        .downcast_ref::<OrderTheory>()
        .expect("the ordering theory")
}

/// Solves until unsat, each time handing the accepted map to `visit` and then blocking it
/// (the negation of its chosen links). Panics when a map is accepted twice (`what` names the
/// run). Returns the maps and the theory's counts.
pub fn each_accepted_map(
    enc: &mut Encoder,
    links: &LinkTable,
    events: usize,
    what: &str,
    mut visit: impl FnMut(&mut Encoder, &Accepted),
) -> (HashSet<Vec<Option<usize>>>, TheoryStats) {
    let mut found = HashSet::new();
    loop {
        match enc.solver().solve(&[]) {
            SolveResult::Unsat => break,
            SolveResult::Interrupted => panic!("{what}: no budget was set"),
            SolveResult::Sat => {}
        }
        let mut rf = vec![None; events];
        let mut chosen = Vec::new();
        for &r in links.reads() {
            for l in links.candidates(r) {
                if enc.value(l.lit) {
                    rf[r.index()] = Some(l.write.index());
                    chosen.push(l.lit);
                }
            }
        }
        let model = (1..=enc.solver_ref().num_vars())
            .map(|v| enc.value(Lit::from_dimacs(v as i32)))
            .collect();
        let accepted = Accepted { rf, model };
        visit(enc, &accepted);
        assert!(found.insert(accepted.rf), "{what}: map accepted twice");
        let block: Vec<Lit> = chosen.iter().map(|&l| !l).collect();
        if block.is_empty() {
            break;
        }
        enc.add_clause(&block);
    }
    let stats = connected_theory(enc).stats();
    (found, stats)
}
