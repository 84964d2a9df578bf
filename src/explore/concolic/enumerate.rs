//! Flip queries over inputs of small ranges, decided by evaluating the decisions on every
//! input value in range instead of by the SAT solver.
//!
//! The generated and the typical test programs bound their inputs with range assumptions
//! (`assume(lo <= x && x <= hi)`) or read bytes, and then branch on arithmetic of them
//! (`(x + y) % 3`, an index). Each such branch is a flip query (`split::Splitter::other_way`)
//! whose circuit holds dividers and adders; the incremental solver must also assign every
//! variable of every circuit built so far before it answers SAT, so a query costs time in the
//! size of the whole exploration's circuits. Enumeration costs time in the size of the boxes.
//!
//! # Why its answers are exact
//!
//! A query is a conjunction of decisions (one-bit terms, each wanted true or false). Its inputs
//! are split into components: two inputs are in one component when some decision mentions
//! both, and the query is satisfiable exactly when every component's decisions are (they share
//! no input). For each input `k` of a component, read at most `w` bits wide by the query's
//! terms (a term reads the low bits of the input's one value, `Terms::eval`, so the query
//! depends on the low `w` bits of `k` only), the *atoms* are the decisions that compare the
//! `w`-bit input itself with a constant (`k < c`, `c <= k`, `k == c`, signed or unsigned, maybe
//! negated). Every solution satisfies the atoms, so its low `w` bits of `k` lie in the
//! intersection of the atoms' signed interval and of their unsigned interval: the smaller of
//! the two is a *domain* that holds the value of `k` in every solution (an input 8 bits wide
//! or less has its whole range as domain). Every decision is then evaluated by
//! `Terms::eval`, the same function as the circuits (`encode` tests that they agree), on each
//! point of the product of the component's domains:
//! * a point that satisfies the component's decisions is a solution (no bound needed: it is
//!   checked), and the solutions of the components together are a model of the query;
//! * when every domain of a component was enumerated whole and no point satisfies its
//!   decisions, the component, and so the query, is unsatisfiable (every solution would lie in
//!   the product);
//! * otherwise (a domain too large, a product too large) the query goes to the solver.
//!
//! Inputs the query does not mention keep the values they had (they change no decision of it).

use std::collections::{BTreeMap, HashMap};

use super::term::{BvOp, CmpOp, InputKey, SymId, Term, Terms};
use super::Decision;

/// The most points a component's product may have (beyond it, the solver decides).
const MAX_POINTS: u128 = 1 << 12;

/// What enumeration says about a query.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Values for the query's inputs that make every decision as wanted.
    Sat(Vec<(InputKey, u64)>),
    /// No inputs make every decision as wanted.
    Unsat,
    /// Too large to enumerate: ask the solver.
    Unknown,
}

/// The decisions of one component of a query, the inputs they mention, and what enumeration
/// says about them.
#[derive(Debug)]
pub struct Component {
    pub decisions: Vec<Decision>,
    pub inputs: Vec<InputKey>,
    pub answer: Answer,
}

/// Splits `want` into its components and decides each by enumeration when its inputs'
/// domains are small (module doc). The query holds exactly when every component does.
pub fn components(terms: &Terms, want: &[Decision]) -> Vec<Component> {
    // The inputs of each decision and the widest read of each input.
    let mut width: BTreeMap<InputKey, u32> = BTreeMap::new();
    let mut mentions: Vec<Vec<InputKey>> = Vec::with_capacity(want.len());
    for d in want {
        let mut ins = Vec::new();
        terms.inputs(d.cond, &mut ins);
        for &(k, w) in &ins {
            let e = width.entry(k).or_insert(0);
            *e = (*e).max(w);
        }
        let mut keys: Vec<InputKey> = ins.into_iter().map(|(k, _)| k).collect();
        keys.sort_unstable();
        keys.dedup();
        mentions.push(keys);
    }
    // Components: union-find over the inputs.
    let keys: Vec<InputKey> = width.keys().copied().collect();
    let index: HashMap<InputKey, usize> = keys.iter().enumerate().map(|(i, k)| (*k, i)).collect();
    let mut parent: Vec<usize> = (0..keys.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for m in &mentions {
        for w in m.windows(2) {
            let (a, b) = (
                root(&mut parent, index[&w[0]]),
                root(&mut parent, index[&w[1]]),
            );
            parent[a] = b;
        }
    }
    // Each input's bounds from its atoms.
    let mut bounds: Vec<Bounds> = keys.iter().map(|k| Bounds::full(width[k])).collect();
    for d in want {
        let mut found = Vec::new();
        atoms(terms, d.cond, d.taken, &mut found);
        for (k, w, op, c, input_left, holds) in found {
            if width[&k] == w {
                bounds[index[&k]].narrow(op, c, input_left, holds);
            }
        }
    }
    let mut comps: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..keys.len() {
        comps.entry(root(&mut parent, i)).or_default().push(i);
    }
    let mut out = Vec::new();
    // A decision on no input (a constant is never recorded) is left to the solver.
    for (d, _) in want.iter().zip(&mentions).filter(|(_, m)| m.is_empty()) {
        out.push(Component {
            decisions: vec![*d],
            inputs: Vec::new(),
            answer: Answer::Unknown,
        });
    }
    for members in comps.values() {
        let r = root(&mut parent, members[0]);
        let decisions: Vec<Decision> = want
            .iter()
            .zip(&mentions)
            .filter(|(_, m)| !m.is_empty() && root(&mut parent, index[&m[0]]) == r)
            .map(|(d, _)| *d)
            .collect();
        let domains: Vec<(InputKey, Domain)> = members
            .iter()
            .map(|&i| (keys[i], bounds[i].domain(width[&keys[i]])))
            .collect();
        let answer = search(terms, &decisions, &domains);
        out.push(Component {
            decisions,
            inputs: members.iter().map(|&i| keys[i]).collect(),
            answer,
        });
    }
    out
}

/// The points of a domain: an interval of `w`-bit values (as signed or unsigned numbers).
#[derive(Debug)]
struct Domain {
    lo: i128,
    hi: i128,
    width: u32,
}

impl Domain {
    fn size(&self) -> u128 {
        if self.hi < self.lo {
            0
        } else {
            (self.hi - self.lo) as u128 + 1
        }
    }

    fn value(&self, i: u128) -> u64 {
        let v = (self.lo + i as i128) as u64;
        if self.width >= 64 {
            v
        } else {
            v & ((1u64 << self.width) - 1)
        }
    }
}

/// Enumerates the product of `domains` for a point satisfying `decisions`.
fn search(terms: &Terms, decisions: &[Decision], domains: &[(InputKey, Domain)]) -> Answer {
    let mut total: u128 = 1;
    for (_, d) in domains {
        total = total.saturating_mul(d.size());
    }
    if total == 0 {
        return Answer::Unsat;
    }
    if total > MAX_POINTS {
        // Too many to try all: a few points of each domain (its ends and middle) may still
        // give a model; no point found says nothing.
        let picks: Vec<(InputKey, Vec<u64>)> = domains
            .iter()
            .map(|(k, d)| {
                let mut v = vec![d.value(0), d.value(d.size() / 2), d.value(d.size() - 1)];
                v.dedup();
                (*k, v)
            })
            .collect();
        return match first(terms, decisions, &picks) {
            Some(point) => Answer::Sat(point),
            None => Answer::Unknown,
        };
    }
    let all: Vec<(InputKey, Vec<u64>)> = domains
        .iter()
        .map(|(k, d)| (*k, (0..d.size()).map(|i| d.value(i)).collect()))
        .collect();
    match first(terms, decisions, &all) {
        Some(point) => Answer::Sat(point),
        None => Answer::Unsat,
    }
}

/// The first point of the product of `values` that makes every decision as wanted.
fn first(
    terms: &Terms,
    decisions: &[Decision],
    values: &[(InputKey, Vec<u64>)],
) -> Option<Vec<(InputKey, u64)>> {
    let total: usize = values.iter().map(|(_, v)| v.len()).product();
    if total > MAX_POINTS as usize {
        return None;
    }
    let mut memo = HashMap::new();
    for n in 0..total {
        let mut rest = n;
        let mut point: Vec<(InputKey, u64)> = Vec::with_capacity(values.len());
        for (k, v) in values {
            point.push((*k, v[rest % v.len()]));
            rest /= v.len();
        }
        memo.clear();
        let input = |k: InputKey| {
            point
                .iter()
                .find(|(p, _)| *p == k)
                .map(|(_, v)| *v)
                .unwrap_or(0)
        };
        if decisions
            .iter()
            .all(|d| (terms.eval(d.cond, &input, &mut memo) != 0) == d.taken)
        {
            return Some(point);
        }
    }
    None
}

/// One atom: the input `k`, read `w` bits wide, compared with a constant `c` by `op`
/// (`input_left`: the input is the left operand), wanted to hold or not.
type Atom = (InputKey, u32, CmpOp, u64, bool, bool);

/// The atoms the one-bit condition `s` wanted `holds` implies: through negations, a
/// comparison of a 0/1 value with zero, and a conjunction wanted true (both conjuncts hold).
fn atoms(terms: &Terms, s: SymId, holds: bool, out: &mut Vec<Atom>) {
    match terms.get(s) {
        Term::Not(a) if terms.width(*a) == 1 => atoms(terms, *a, !holds, out),
        Term::Bin {
            op: BvOp::And,
            a,
            b,
        } if holds && terms.width(s) == 1 => {
            atoms(terms, *a, true, out);
            atoms(terms, *b, true, out);
        }
        Term::Cmp {
            op: CmpOp::Eq,
            a,
            b,
        } if zero_test(terms, *a, *b).is_some() => {
            // `v == 0` for a 0/1 value `v`: the negation of `v`'s condition.
            let v = zero_test(terms, *a, *b).expect("checked");
            atoms(terms, v, !holds, out)
        }
        Term::Cmp { op, a, b } => {
            if let Some(at) = comparison(terms, *op, *a, *b, holds) {
                out.push(at)
            }
        }
        _ => {}
    }
}

/// For `a == b` with one side zero and the other a one-bit condition or its extension: the
/// condition.
fn zero_test(terms: &Terms, a: SymId, b: SymId) -> Option<SymId> {
    let x = match (terms.get(a), terms.get(b)) {
        (_, Term::Const { value: 0, .. }) => a,
        (Term::Const { value: 0, .. }, _) => b,
        _ => return None,
    };
    match terms.get(x) {
        _ if terms.width(x) == 1 => Some(x),
        Term::Ext { a: inner, .. } if terms.width(*inner) == 1 => Some(*inner),
        _ => None,
    }
}

/// `a op b` as an atom, when one side is an input and the other a constant.
fn comparison(terms: &Terms, op: CmpOp, a: SymId, b: SymId, holds: bool) -> Option<Atom> {
    match (terms.get(a), terms.get(b)) {
        (Term::Input { key, width }, Term::Const { value, .. }) => {
            Some((*key, *width, op, *value, true, holds))
        }
        (Term::Const { value, .. }, Term::Input { key, width }) => {
            Some((*key, *width, op, *value, false, holds))
        }
        _ => None,
    }
}

/// The signed and the unsigned interval an input's `w`-bit value must lie in.
#[derive(Debug)]
struct Bounds {
    width: u32,
    signed: (i128, i128),
    unsigned: (i128, i128),
}

impl Bounds {
    fn full(w: u32) -> Bounds {
        let w = w.clamp(1, 64);
        Bounds {
            width: w,
            signed: (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1),
            unsigned: (0, (1i128 << w) - 1),
        }
    }

    /// Narrows by one atom: `k op c` (or `c op k` when not `input_left`) is `holds`.
    fn narrow(&mut self, op: CmpOp, c: u64, input_left: bool, holds: bool) {
        let w = self.width;
        let (signed, c) = match op {
            CmpOp::Slt | CmpOp::Sle => (true, to_signed(c, w)),
            CmpOp::Ult | CmpOp::Ule => (false, c as i128),
            CmpOp::Eq => {
                if holds {
                    let (s, u) = (to_signed(c, w), c as i128);
                    self.signed = (self.signed.0.max(s), self.signed.1.min(s));
                    self.unsigned = (self.unsigned.0.max(u), self.unsigned.1.min(u));
                }
                return;
            }
        };
        let strict = matches!(op, CmpOp::Slt | CmpOp::Ult);
        // As `k <= hi` or `k >= lo`.
        let (upper, bound) = match (input_left, strict, holds) {
            (true, true, true) => (true, c - 1),    // k < c
            (true, false, true) => (true, c),       // k <= c
            (true, true, false) => (false, c),      // k >= c
            (true, false, false) => (false, c + 1), // k > c
            (false, true, true) => (false, c + 1),  // c < k
            (false, false, true) => (false, c),     // c <= k
            (false, true, false) => (true, c),      // k <= c
            (false, false, false) => (true, c - 1), // k < c
        };
        let iv = if signed {
            &mut self.signed
        } else {
            &mut self.unsigned
        };
        if upper {
            iv.1 = iv.1.min(bound);
        } else {
            iv.0 = iv.0.max(bound);
        }
    }

    /// The smaller interval, as the domain of the input's `w`-bit value.
    fn domain(&self, w: u32) -> Domain {
        let size = |(lo, hi): (i128, i128)| if hi < lo { 0 } else { hi - lo + 1 };
        let (lo, hi) = if size(self.signed) <= size(self.unsigned) {
            self.signed
        } else {
            self.unsigned
        };
        Domain { lo, hi, width: w }
    }
}

fn to_signed(c: u64, w: u32) -> i128 {
    if w >= 64 {
        c as i64 as i128
    } else {
        let s = 64 - w;
        (((c << s) as i64) >> s) as i128
    }
}

#[cfg(test)]
mod tests;
