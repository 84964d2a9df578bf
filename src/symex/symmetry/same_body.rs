//! Thread entry functions that are the same code under different names (`symmetry`): two
//! functions whose bodies are equal instruction by instruction, once each function's own
//! parameters, locals and temporaries are matched by position and each function's own
//! properties are matched with each other. Such entries make twins as one entry does.
//!
//! What else could tell the two functions apart, and why it cannot here:
//! * the function's identity: a body that names either function (a call, `&f`, a recursion
//!   the symbolic executor bounds per function) differs or is excluded, and neither function
//!   may be named anywhere in the program except as the entry of a `pthread_create`;
//! * its own objects: a `static` local is a variable of its function, compared by identity
//!   (so two bodies with static locals are never equal), and `__func__` is a string object of
//!   its own (also compared by identity);
//! * the per-loop unwinding bounds (`--unwindset`, keyed by the function's name): each loop of
//!   one must have the bound of the same loop of the other;
//! * the atomic-function flag, the signature: compared.
//!
//! Source locations are not compared: they name no value the program computes with. A
//! property's location differs, but unreach-call and no-overflow ask whether any property
//! fails, not which.
//!
//! The comparison walks the instructions' derived `Debug` text token by token: every token
//! must be equal, except a variable (`v…`) of the one matched with the variable at the same
//! position of the other, and a property (`prop…`) of the one matched with one of the other.
//! A token the walk does not recognise is compared as text, so any doubt is a difference.

use std::collections::{HashMap, HashSet};

use cranelift_entity::EntityRef;

use crate::ir::{Callee, ExprKind, FuncId, InstrKind, Program, PropId, VarId};

/// Maps each function of `entries` to the first (lowest id) of them with the same body;
/// a function with no body twin, or one that may not have one, maps to itself.
pub(super) fn representatives(
    prog: &Program,
    unwindset: &HashMap<String, u32>,
    entries: &[FuncId],
) -> HashMap<FuncId, FuncId> {
    let named = named_functions(prog);
    let mut sorted: Vec<FuncId> = entries.to_vec();
    sorted.sort();
    sorted.dedup();
    let mut reps: Vec<FuncId> = Vec::new();
    let mut out = HashMap::new();
    for f in sorted {
        let eligible = !named.contains(&f) && prog.funcs[f].body.is_some();
        let rep = if eligible {
            reps.iter()
                .copied()
                .find(|&r| same_body(prog, unwindset, r, f))
        } else {
            None
        };
        let rep = rep.unwrap_or_else(|| {
            if eligible {
                reps.push(f);
            }
            f
        });
        out.insert(f, rep);
    }
    out
}

/// Functions the program names other than as the direct entry of a `pthread_create`: called
/// directly, or whose address is taken.
fn named_functions(prog: &Program) -> HashSet<FuncId> {
    let mut named = HashSet::new();
    for (_, _, body) in prog.defined_funcs() {
        for instr in body.instrs.values() {
            if let InstrKind::Call {
                callee: Callee::Direct(g),
                ..
            } = &instr.kind
            {
                named.insert(*g);
            }
            instr.kind.walk_exprs(&mut |e| {
                e.walk(&mut |e| {
                    if let ExprKind::FuncAddr(g) = e.kind {
                        named.insert(g);
                    }
                })
            });
        }
    }
    named
}

/// Whether `a` and `b` are the same code (module doc).
fn same_body(prog: &Program, unwindset: &HashMap<String, u32>, a: FuncId, b: FuncId) -> bool {
    let (fa, fb) = (&prog.funcs[a], &prog.funcs[b]);
    let (Some(ba), Some(bb)) = (&fa.body, &fb.body) else {
        return false;
    };
    if fa.ty != fb.ty
        || fa.ret != fb.ret
        || fa.atomic != fb.atomic
        || fa.params.len() != fb.params.len()
        || fa.locals.len() != fb.locals.len()
        || ba.instrs.len() != bb.instrs.len()
        || ba.loops.len() != bb.loops.len()
    {
        return false;
    }
    let loops_match = ba
        .loops
        .iter()
        .zip(bb.loops.iter())
        .all(|((la, xa), (lb, xb))| {
            let bound = |name: &str, l: crate::ir::LoopId| {
                unwindset.get(&format!("{name}.{}", l.as_u32())).copied()
            };
            xa.head == xb.head
                && xa.back_edge == xb.back_edge
                && bound(&fa.name, la) == bound(&fb.name, lb)
        });
    if !loops_match {
        return false;
    }
    let own = |f: &crate::ir::Function| -> HashMap<VarId, usize> {
        f.params
            .iter()
            .chain(&f.locals)
            .enumerate()
            .map(|(i, &v)| (v, i))
            .collect()
    };
    let (own_a, own_b) = (own(fa), own(fb));
    let vars_match = own_a.iter().all(|(&va, &i)| {
        let vb = if i < fa.params.len() {
            fb.params[i]
        } else {
            fb.locals[i - fa.params.len()]
        };
        let (da, db) = (&prog.vars[va], &prog.vars[vb]);
        da.ty == db.ty
            && da.address_taken == db.address_taken
            && da.thread_local == db.thread_local
            && std::mem::discriminant(&da.kind) == std::mem::discriminant(&db.kind)
    });
    if !vars_match {
        return false;
    }
    let matcher = Matcher {
        prog,
        a,
        b,
        own_a,
        own_b,
    };
    ba.instrs
        .values()
        .zip(bb.instrs.values())
        .all(|(ia, ib)| matcher.same_text(&format!("{:?}", ia.kind), &format!("{:?}", ib.kind)))
}

/// Compares two instructions' text under the own-variable and own-property matching.
struct Matcher<'a> {
    prog: &'a Program,
    a: FuncId,
    b: FuncId,
    own_a: HashMap<VarId, usize>,
    own_b: HashMap<VarId, usize>,
}

impl Matcher<'_> {
    fn same_text(&self, ta: &str, tb: &str) -> bool {
        let (xa, xb) = (tokens(ta), tokens(tb));
        xa.len() == xb.len()
            && xa
                .iter()
                .zip(&xb)
                .all(|(p, q)| p == q || self.matched(p, q))
    }

    /// Two different tokens that still denote corresponding things.
    fn matched(&self, p: &str, q: &str) -> bool {
        if let (Some(i), Some(j)) = (numbered(p, "v"), numbered(q, "v")) {
            let (va, vb) = (VarId::new(i), VarId::new(j));
            return match (self.own_a.get(&va), self.own_b.get(&vb)) {
                (Some(x), Some(y)) => x == y,
                _ => false,
            };
        }
        if let (Some(i), Some(j)) = (numbered(p, "prop"), numbered(q, "prop")) {
            let n = self.prog.props.len();
            if i >= n || j >= n {
                return false;
            }
            let (pa, pb) = (
                &self.prog.props[PropId::new(i)],
                &self.prog.props[PropId::new(j)],
            );
            return pa.func == self.a && pb.func == self.b && pa.kind == pb.kind;
        }
        false
    }
}

/// `prefix` followed by a decimal number (and nothing else): the number.
fn numbered(token: &str, prefix: &str) -> Option<usize> {
    let digits = token.strip_prefix(prefix)?;
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Maximal runs of identifier characters, and every other non-blank character on its own.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let word = c.is_ascii_alphanumeric() || c == '_';
        match (word, start) {
            (true, None) => start = Some(i),
            (true, Some(_)) => {}
            (false, s) => {
                if let Some(s) = s {
                    out.push(&text[s..i]);
                    start = None;
                }
                if !c.is_whitespace() {
                    out.push(&text[i..i + c.len_utf8()]);
                }
            }
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_words_and_punctuation() {
        assert_eq!(
            tokens("Assign { dst: Var(v12), x: [1, 2] }"),
            vec![
                "Assign", "{", "dst", ":", "Var", "(", "v12", ")", ",", "x", ":", "[", "1", ",",
                "2", "]", "}"
            ]
        );
        assert_eq!(numbered("v12", "v"), Some(12));
        assert_eq!(numbered("vx", "v"), None);
        assert_eq!(numbered("prop3", "v"), None);
    }
}
