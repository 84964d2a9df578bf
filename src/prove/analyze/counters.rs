//! Counter ghosts and the invariants over them: proofs that count ("the number of instances
//! between their two increments is `t - s`", "no more writers than creations").
//!
//! The analysis proposes counters ([`crate::prove::Counter`]) — per thread template the
//! instances created (every location counted) and, per assignment of a shared integer, the
//! instances that have passed it (every location reachable from it) — and candidate facts
//! at every location: the counter is zero (in `main`), equal to, at most or at least a shared
//! integer, related to the template's own integers, and a few relations among program
//! variables (`i < n`, `cond != 0`, `cond == (n > 0)` after `cond := n > 0`). It starts from
//! the plain analysis's certificate plus all candidates and weakens it until the checker
//! establishes every fact (Houdini: each round asks the checker for every fact some check
//! fails to establish, and drops those; a safety check that fails ends the search, since
//! dropping facts only weakens the invariants).
//!
//! Nothing here is trusted: the counters' updates and the counting facts are the checker's
//! own (see `check::counters`), and the certificate that comes out is checked in full by
//! [`crate::prove::check::check`] before any TRUE.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;

use cranelift_entity::EntityRef;

use crate::budget::Budget;
use crate::ir::{
    BinOp, Expr, ExprKind, InstrId, InstrKind, Loc, Place, PlaceBase, Type, TypeId, VarData, VarId,
    VarKind,
};
use crate::prove::check::{self, FactAt};
use crate::prove::rename::{expr_vars, instr_vars};
use crate::prove::{Certificate, Counter, Fact, GiveUp, TemplateId, Templates};

/// The method name the verdict line shows.
pub const METHOD: &str = "thread-modular intervals with counter ghosts";

/// At most this many counters (each multiplies the candidates).
pub const MAX_COUNTERS: usize = 6;

/// Restarts of the search (a location found reachable) before giving up.
pub const MAX_ROUNDS: usize = 24;

/// Deliberate mistakes, for the tests that show the checker rejects a wrong counter
/// certificate. Never set outside tests.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sabotage {
    /// Leave the entries out of the "created" counters' sets (as if a creation did not
    /// count the new instance), keeping the facts found with them.
    pub uncounted_creation: bool,
}

/// A certificate with counter ghosts for `ts`, or why none was found, within `timeout`.
pub fn analyze_counting(
    ts: &mut Templates,
    timeout: Option<Duration>,
) -> Result<Certificate, GiveUp> {
    analyze_counting_with(ts, timeout, Sabotage::default())
}

/// [`analyze_counting`] within `budget`, which the search consults before every check (a CPU
/// budget then holds however the machine's load changes).
pub fn analyze_counting_within(ts: &mut Templates, budget: &Budget) -> Result<Certificate, GiveUp> {
    search(ts, budget, Sabotage::default())
}

/// [`analyze_counting`] with deliberate mistakes (tests only).
pub fn analyze_counting_with(
    ts: &mut Templates,
    timeout: Option<Duration>,
    sabotage: Sabotage,
) -> Result<Certificate, GiveUp> {
    search(ts, &Budget::wall(timeout), sabotage)
}

fn search(ts: &mut Templates, budget: &Budget, sabotage: Sabotage) -> Result<Certificate, GiveUp> {
    let mut cert = super::analyze(ts)?;
    let sets = propose(ts);
    if sets.is_empty() {
        return Err(GiveUp::NoInvariant("no counter sites".into()));
    }
    let uint = ts.program.types.int(32, false);
    for (n, (name, set)) in sets.into_iter().enumerate() {
        let name = format!("__yogar_count{n}_{name}");
        let var = ts.program.vars.push(VarData {
            name: name.clone(),
            source_name: name,
            ty: uint,
            kind: VarKind::Global,
            thread_local: false,
            address_taken: false,
            loc: Loc::default(),
        });
        cert.counters.push(Counter { var, set });
    }
    let cands = Candidates::new(ts, &cert);
    for (t, tpl) in ts.templates.iter() {
        let facts = cands.at(ts, t);
        for l in tpl.body.instrs.keys() {
            let inv = &mut cert.invariants[t][l];
            if !inv.unreachable {
                inv.facts.extend(facts.iter().cloned());
            }
        }
    }
    houdini(ts, &mut cert, budget)?;
    if sabotage.uncounted_creation {
        for c in &mut cert.counters {
            let created: Vec<(TemplateId, InstrId)> = c
                .set
                .iter()
                .filter(|(_, l)| l.index() == 0)
                .copied()
                .collect();
            for x in created {
                c.set.remove(&x);
            }
        }
    }
    // Counters no fact mentions only cost the checker.
    let mut used = Vec::new();
    for per in cert.invariants.values() {
        for inv in per.values() {
            for f in &inv.facts {
                if let Fact::Holds(e) = f {
                    expr_vars(e, &mut used);
                }
            }
        }
    }
    let used: HashSet<VarId> = used.into_iter().collect();
    cert.counters.retain(|c| used.contains(&c.var));
    if cert.counters.is_empty() {
        return Err(GiveUp::NoInvariant("no counter invariant".into()));
    }
    cert.method = METHOD.to_string();
    Ok(cert)
}

/// Drops the facts the checker fails to establish until none fails: a worklist of checks,
/// where dropping a fact at a location puts back every check that assumes it.
fn houdini(ts: &Templates, cert: &mut Certificate, budget: &Budget) -> Result<(), GiveUp> {
    let give_up = |f: check::CheckFailure| GiveUp::NoInvariant(format!("counter invariants: {f}"));
    'restart: for _ in 0..MAX_ROUNDS {
        let all = check::all_obligations(ts, cert).map_err(give_up)?;
        let mut assuming: HashMap<(TemplateId, InstrId), Vec<usize>> = HashMap::new();
        for (i, o) in all.iter().enumerate() {
            for p in check::pre_locations(o) {
                assuming.entry(p).or_default().push(i);
            }
        }
        let mut queued = vec![true; all.len()];
        let mut queue: VecDeque<usize> = (0..all.len()).collect();
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            let failed = match check::failing_facts_of(ts, cert, &all[i], budget.left()) {
                // The check's wall-clock time ended before the CPU share (the machine got
                // busier): again, with what is left.
                Err(f) if f.is_timeout() && !budget.spent() => {
                    queued[i] = true;
                    queue.push_front(i);
                    continue;
                }
                r => r.map_err(give_up)?,
            };
            if failed.is_empty() {
                continue;
            }
            let revived = failed.iter().any(|f| f.2.is_none());
            drop_facts(cert, &failed);
            if revived {
                // A location became reachable: its checks are new.
                continue 'restart;
            }
            // A VC program assumes each assertion after it: a fact after a failed one may
            // fail too, unseen; check again.
            queued[i] = true;
            queue.push_back(i);
            for &(t, l, _) in &failed {
                for &j in assuming.get(&(t, l)).into_iter().flatten() {
                    if !std::mem::replace(&mut queued[j], true) {
                        queue.push_back(j);
                    }
                }
            }
        }
        return Ok(());
    }
    Err(GiveUp::NoInvariant(
        "counter invariants: too many rounds".into(),
    ))
}

/// Removes the failed facts; a failed `unreachable` makes the location reachable (with the
/// candidates it kept).
fn drop_facts(cert: &mut Certificate, failed: &[FactAt]) {
    let mut by_loc: std::collections::BTreeMap<(TemplateId, InstrId), Vec<usize>> =
        Default::default();
    for &(t, l, f) in failed {
        match f {
            None => cert.invariants[t][l].unreachable = false,
            Some(i) => by_loc.entry((t, l)).or_default().push(i),
        }
    }
    for ((t, l), mut idx) in by_loc {
        idx.sort_unstable();
        idx.dedup();
        let facts = &mut cert.invariants[t][l].facts;
        for i in idx.into_iter().rev() {
            if i < facts.len() {
                facts.remove(i);
            }
        }
    }
}

/// The counted sets: per template other than `main`, the instances created; per assignment
/// of a shared integer in such a template, the instances that have passed it. Distinct sets
/// only, at most [`MAX_COUNTERS`].
fn propose(ts: &Templates) -> Vec<(String, BTreeSet<(TemplateId, InstrId)>)> {
    let mut out: Vec<(String, BTreeSet<(TemplateId, InstrId)>)> = Vec::new();
    let mut push = |name: String, set: BTreeSet<(TemplateId, InstrId)>| {
        if !set.is_empty() && out.len() < MAX_COUNTERS && !out.iter().any(|(_, s)| *s == set) {
            out.push((name, set));
        }
    };
    for (t, tpl) in ts.templates.iter() {
        if t == ts.main {
            continue;
        }
        let fname = ts.program.funcs[tpl.entry].name.clone();
        push(
            format!("created_{fname}"),
            tpl.body.instrs.keys().map(|l| (t, l)).collect(),
        );
        for (w, ins) in tpl.body.instrs.iter() {
            let InstrKind::Assign { dst, .. } = &ins.kind else {
                continue;
            };
            let PlaceBase::Var(g) = dst.base else {
                continue;
            };
            if !dst.projs.is_empty() || !shared_int(ts, g) {
                continue;
            }
            let mut seen: BTreeSet<InstrId> = BTreeSet::new();
            let mut work = tpl.body.successors(w);
            while let Some(i) = work.pop() {
                if seen.insert(i) {
                    work.extend(tpl.body.successors(i));
                }
            }
            push(
                format!("past_{}_{}", ts.program.vars[g].name, w.index()),
                seen.into_iter().map(|l| (t, l)).collect(),
            );
        }
    }
    out
}

/// A global integer of at most 32 bits that every instance shares.
fn shared_int(ts: &Templates, v: VarId) -> bool {
    let d = &ts.program.vars[v];
    d.is_global() && !d.thread_local && small_int(ts, d.ty)
}

fn small_int(ts: &Templates, ty: TypeId) -> bool {
    matches!(ts.program.types.get(ty), Type::Int { bits, .. } if *bits <= 32)
}

/// The candidate facts.
struct Candidates {
    i64: TypeId,
    int: TypeId,
    counters: Vec<VarId>,
    /// Shared integers the templates mention.
    shared: Vec<VarId>,
}

impl Candidates {
    fn new(ts: &mut Templates, cert: &Certificate) -> Self {
        let i64 = ts.program.types.int(64, true);
        let int = ts.program.types.int32();
        let ghosts: HashSet<VarId> = cert
            .ghosts
            .iter()
            .chain(ts.mutex_owners.values())
            .copied()
            .collect();
        let mut mentioned = Vec::new();
        for tpl in ts.templates.values() {
            for i in tpl.body.instrs.values() {
                instr_vars(&i.kind, &mut mentioned);
            }
        }
        let mut shared: Vec<VarId> = mentioned
            .into_iter()
            .filter(|&v| shared_int(ts, v) && !ghosts.contains(&v))
            .collect();
        shared.sort();
        shared.dedup();
        Candidates {
            i64,
            int,
            counters: cert.counters.iter().map(|c| c.var).collect(),
            shared,
        }
    }

    fn read(&self, ts: &Templates, v: VarId) -> Expr {
        let ty = ts.program.vars[v].ty;
        self.wide(Expr::read(Place::var(v, ty)))
    }

    fn wide(&self, e: Expr) -> Expr {
        if e.ty == self.i64 {
            e
        } else {
            Expr {
                kind: ExprKind::Cast(Box::new(e)),
                ty: self.i64,
            }
        }
    }

    fn rel(&self, op: BinOp, a: Expr, b: Expr) -> Fact {
        Fact::Holds(Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: self.int,
        })
    }

    fn plus(&self, a: Expr, k: u64) -> Expr {
        Expr {
            kind: ExprKind::Binary(
                BinOp::Add,
                Box::new(a),
                Box::new(Expr::constant(k, self.i64)),
            ),
            ty: self.i64,
        }
    }

    /// The candidates at every location of `t`.
    fn at(&self, ts: &Templates, t: TemplateId) -> Vec<Fact> {
        let tpl = &ts.templates[t];
        let locals: HashSet<VarId> = tpl.locals.iter().copied().collect();
        // The template's own integers that it assigns, and its assignments `v := e` of
        // expressions that read variables only.
        let mut own: Vec<VarId> = Vec::new();
        let mut defs: Vec<(VarId, Expr)> = Vec::new();
        for ins in tpl.body.instrs.values() {
            if let InstrKind::Assign { dst, src } = &ins.kind {
                if let PlaceBase::Var(v) = dst.base {
                    if dst.projs.is_empty()
                        && locals.contains(&v)
                        && v != tpl.self_id
                        && small_int(ts, ts.program.vars[v].ty)
                    {
                        own.push(v);
                        if small_int(ts, src.ty) && reads_vars_only(src) {
                            defs.push((v, src.clone()));
                        }
                    }
                }
            }
        }
        own.sort();
        own.dedup();
        let zero = Expr::constant(0, self.i64);
        let mut out = Vec::new();
        for &c in &self.counters {
            let cv = self.read(ts, c);
            if t == ts.main {
                out.push(self.rel(BinOp::Eq, cv.clone(), zero.clone()));
            }
            for &g in &self.shared {
                let gv = self.read(ts, g);
                out.push(self.rel(BinOp::Eq, gv.clone(), cv.clone()));
                out.push(self.rel(BinOp::SLe, gv.clone(), cv.clone()));
                out.push(self.rel(BinOp::SLe, cv.clone(), gv));
            }
            for &v in &own {
                let vv = self.read(ts, v);
                out.push(self.rel(BinOp::Eq, vv.clone(), cv.clone()));
                out.push(self.rel(BinOp::SLe, vv.clone(), cv.clone()));
                out.push(self.rel(BinOp::SLe, cv.clone(), vv.clone()));
                out.push(self.rel(BinOp::SLe, cv.clone(), self.plus(vv, 1)));
            }
        }
        for &v in &own {
            let vv = self.read(ts, v);
            out.push(self.rel(BinOp::Ne, vv.clone(), zero.clone()));
            for &g in &self.shared {
                let gv = self.read(ts, g);
                out.push(self.rel(BinOp::SLe, vv.clone(), gv.clone()));
                out.push(self.rel(BinOp::SLt, vv.clone(), gv));
            }
        }
        for (v, e) in defs {
            let vv = self.read(ts, v);
            out.push(self.rel(BinOp::Eq, vv, self.wide(e)));
        }
        out
    }
}

/// An expression that reads variables and constants only (no memory through pointers, no
/// addresses).
fn reads_vars_only(e: &Expr) -> bool {
    let mut ok = true;
    e.walk(&mut |x| match &x.kind {
        ExprKind::Read(p) => ok &= matches!(p.base, PlaceBase::Var(_)) && p.projs.is_empty(),
        ExprKind::AddrOf(_) | ExprKind::FuncAddr(_) | ExprKind::Float(..) => ok = false,
        _ => {}
    });
    ok
}
