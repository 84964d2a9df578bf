//! The thread-modular fixpoint: every template's states, closed under its own steps and
//! under the interfering steps of the other instances (rely/guarantee).
//!
//! Completeness of the interference (why the result is a sound over-approximation of every
//! execution, whatever the number of instances): a step of another instance changes the
//! state of an instance at `(t, l)` only by writing shared variables or ghosts. Every such
//! step is either one instruction outside atomic sections that may write shared memory or a
//! ghost, or a whole atomic section (or a prefix of one that ends before an instruction that
//! may block, as the checker also counts it). When it happens, the global state satisfies
//! both the state of `(t, l)` and the state of the step's source location (both are
//! invariants, by induction on the execution); so it lies in a pair of partitions with
//! compatible keys (see [`super::keys`]) and in the meet of their shared parts; executing the
//! step there with the other instance's private variables from its own partition
//! over-approximates the step, and the result, with `t`'s private variables unchanged (no
//! other instance can write them: thread arguments pointing to private variables give up),
//! is joined into `(t, l)`. Iterating until nothing changes makes every location's state
//! closed under all steps of all templates from their (final) source states. `main`'s
//! locations that no creation precedes see no interference and make none (no thread exists
//! then). Widening after [`WIDEN_AFTER`] growths of a location bounds the iteration.

use std::collections::BTreeSet;

use cranelift_entity::{EntityRef, SecondaryMap};

use crate::ir::{InstrId, InstrKind, PlaceBase};
use crate::prove::domain::state::{Env, Key, State};
use crate::prove::{GiveUp, Instances, TemplateId};

use super::ctx::Ctx;
use super::keys::{KeyKind, FREE, HELD_OTHER, HELD_SELF};
use super::loop_writes::LoopWrites;
use super::transfer::{step, Out};

/// Growths of a location's state before joins become widenings.
pub const WIDEN_AFTER: u32 = 3;
/// Descending iterations after the fixpoint (they undo widening overshoots, such as a bound
/// widened to the next threshold beyond the loop's real bound).
pub const NARROWINGS: usize = 2;
/// Rounds of the whole system before giving up (widening makes it converge far earlier).
pub const MAX_ROUNDS: usize = 60;

/// An interfering step: from `src` of template `u`, one instruction or a whole atomic
/// section.
#[derive(Copy, Clone, Debug)]
pub struct Step {
    pub u: TemplateId,
    pub src: InstrId,
    pub atomic: bool,
}

pub struct Fixpoint<'c, 'a> {
    pub cx: &'c Ctx<'a>,
    pub states: SecondaryMap<TemplateId, Vec<State>>,
    growths: SecondaryMap<TemplateId, Vec<u32>>,
    pub steps: Vec<Step>,
    /// Locations of `main` some creation precedes (elsewhere: `true`).
    pub mhp: SecondaryMap<TemplateId, Vec<bool>>,
    /// Test-only sabotage: drop every interfering step (the checker must then reject).
    pub drop_interference: bool,
    /// Per template, what its loops write (widening at a head spares the rest).
    loop_writes: SecondaryMap<TemplateId, Option<LoopWrites>>,
}

impl<'c, 'a> Fixpoint<'c, 'a> {
    pub fn new(cx: &'c Ctx<'a>) -> Fixpoint<'c, 'a> {
        let mut states = SecondaryMap::new();
        let mut growths = SecondaryMap::new();
        let mut mhp = SecondaryMap::new();
        for (t, tpl) in cx.tpls.templates.iter() {
            let n = tpl.body.instrs.len();
            states[t] = vec![State::bottom(); n];
            growths[t] = vec![0; n];
            mhp[t] = if tpl.is_main {
                after_creation(&tpl.body)
            } else {
                vec![true; n]
            };
        }
        let mut loop_writes = SecondaryMap::new();
        let pts = super::pointsto::PointsTo::of(cx.tpls);
        for (t, tpl) in cx.tpls.templates.iter() {
            loop_writes[t] = Some(LoopWrites::of(&tpl.body, &pts));
        }
        let mut steps = Vec::new();
        for (u, tpl) in cx.tpls.templates.iter() {
            for (l, ins) in tpl.body.instrs.iter() {
                if tpl.atomic_depth[l] != 0 || !mhp[u][l.index()] {
                    continue;
                }
                if matches!(ins.kind, InstrKind::AtomicBegin) {
                    steps.push(Step {
                        u,
                        src: l,
                        atomic: true,
                    });
                } else if may_write_shared(cx, &ins.kind) {
                    steps.push(Step {
                        u,
                        src: l,
                        atomic: false,
                    });
                }
            }
        }
        Fixpoint {
            cx,
            states,
            growths,
            steps,
            mhp,
            drop_interference: false,
            loop_writes,
        }
    }

    /// Whether an instance at `(t, l)` can be interrupted by another thread.
    pub fn interferable(&self, t: TemplateId, l: InstrId) -> bool {
        self.cx.tpls.templates[t].atomic_depth[l] == 0 && self.mhp[t][l.index()]
    }

    /// Runs to the fixpoint from `main`'s entry partition.
    pub fn run(&mut self, main_entry: State) -> Result<(), GiveUp> {
        let main = self.cx.tpls.main;
        let main_entry_copy = main_entry.clone();
        self.states[main][0] = main_entry;
        for _ in 0..MAX_ROUNDS {
            let mut changed = false;
            let ids: Vec<TemplateId> = self.cx.tpls.templates.keys().collect();
            for t in ids {
                changed |= self.round(t)?;
            }
            if !changed {
                for _ in 0..NARROWINGS {
                    self.narrow(&main_entry_copy)?;
                }
                return Ok(());
            }
        }
        Err(GiveUp::NoInvariant(
            "the thread-modular fixpoint did not converge".into(),
        ))
    }

    /// One pass over template `t`; whether any state changed.
    fn round(&mut self, t: TemplateId) -> Result<bool, GiveUp> {
        let mut changed = false;
        let mut work: BTreeSet<InstrId> = self.states[t]
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.is_bottom())
            .map(|(i, _)| InstrId::new(i))
            .collect();
        while let Some(l) = work.pop_first() {
            let mut s = self.states[t][l.index()].clone();
            if s.is_bottom() {
                continue;
            }
            if self.interferable(t, l) && !self.drop_interference {
                let closed = self.close(t, l, s.clone())?;
                if closed != s {
                    self.states[t][l.index()] = closed.clone();
                    changed = true;
                    s = closed;
                }
            }
            let mut out = Out::default();
            for (k, e) in &s.parts {
                step(self.cx, t, l, k, e, &mut out)?;
            }
            for (u, k, e) in out.creates {
                let grown = self.absorb(u, InstrId::new(0), State::single(k, e));
                changed |= grown;
            }
            let mut by_loc: std::collections::BTreeMap<InstrId, State> = Default::default();
            for (s2, k, e) in out.succ {
                by_loc.entry(s2).or_default().add(k, e);
            }
            for (s2, new) in by_loc {
                if self.absorb(t, s2, new) {
                    changed = true;
                    work.insert(s2);
                }
            }
        }
        Ok(changed)
    }

    /// One descending step: every state recomputed from the current ones (entry, the
    /// predecessors' transfer, the creations, then the interference from the current source
    /// states), then met with the current state. From a post-fixpoint `X` of the (monotone)
    /// system `F`, `F(X) ⊓ X` is again a post-fixpoint below `X`: `F(F(X) ⊓ X) ⊑ F(X)` by
    /// monotonicity and `F(X) ⊑ X`. The meet matters because the interference closure below
    /// may widen (a location's growths already exceed the limit after the ascending phase),
    /// and a widened closure `F_w(X) ⊒ F(X)` alone can overshoot `X` at one location while its
    /// successor, computed from the old `X`, is tighter: a certificate that is not inductive
    /// (seen on the stack tasks: `0 ≤ curr ≤ 640` before `tmp := curr` but `tmp ≤ 639` after).
    /// With the meet, `F(X) ⊑ F_w(X) ⊓ X` still holds and the argument above goes through.
    fn narrow(&mut self, main_entry: &State) -> Result<(), GiveUp> {
        let cx = self.cx;
        let mut new: SecondaryMap<TemplateId, Vec<State>> = SecondaryMap::new();
        for (t, tpl) in cx.tpls.templates.iter() {
            new[t] = vec![State::bottom(); tpl.body.instrs.len()];
        }
        new[cx.tpls.main][0] = main_entry.clone();
        for (t, tpl) in cx.tpls.templates.iter() {
            for l in tpl.body.instrs.keys() {
                let s = &self.states[t][l.index()];
                let mut out = Out::default();
                for (k, e) in &s.parts {
                    step(cx, t, l, k, e, &mut out)?;
                }
                for (u, k, e) in out.creates {
                    new[u][0].add(k, e);
                }
                for (s2, k, e) in out.succ {
                    new[t][s2.index()].add(k, e);
                }
            }
        }
        for (t, tpl) in cx.tpls.templates.iter() {
            for l in tpl.body.instrs.keys() {
                let mut s = std::mem::take(&mut new[t][l.index()]);
                if self.interferable(t, l) && !self.drop_interference {
                    s = self.close(t, l, s)?;
                }
                new[t][l.index()] = s.meet(&self.states[t][l.index()]);
            }
        }
        self.states = new;
        Ok(())
    }

    /// Joins (or widens) `new` into the state of `(t, l)`; whether it grew.
    fn absorb(&mut self, t: TemplateId, l: InstrId, new: State) -> bool {
        let old = &self.states[t][l.index()];
        if new.leq(old) {
            return false;
        }
        let g = &mut self.growths[t][l.index()];
        *g += 1;
        let cx = self.cx;
        // Every cycle of a body passes through a loop head: widening there suffices, and
        // straight-line code keeps exact joins.
        let head = cx.tpls.templates[t]
            .body
            .loops
            .values()
            .any(|lp| lp.head == l);
        let merged = if *g > WIDEN_AFTER && (head || l.index() == 0) {
            let joined = old.join(&new);
            let mut w = old.widen(&joined, &|v| cx.range(v), &cx.thresholds);
            if let Some(lw) = &self.loop_writes[t] {
                lw.unwiden(cx, l, &mut w, &joined);
            }
            w
        } else {
            old.join(&new)
        };
        self.states[t][l.index()] = merged;
        true
    }

    /// `s` closed under the interfering steps of other instances.
    fn close(&mut self, t: TemplateId, l: InstrId, mut s: State) -> Result<State, GiveUp> {
        let mut rounds = 0u32;
        loop {
            let mut eff = State::bottom();
            for st in self.steps.clone() {
                if st.u == t && self.cx.tpls.templates[t].instances == Instances::One {
                    continue;
                }
                let src = self.states[st.u][st.src.index()].clone();
                if src.is_bottom() {
                    continue;
                }
                eff = eff.join(&self.effect(&s, st, &src)?);
            }
            if eff.leq(&s) {
                return Ok(s);
            }
            rounds += 1;
            // Growths by interference count for the location across rounds too, so that
            // the rely and the states cannot grow together forever.
            self.growths[t][l.index()] += 1;
            let joined = s.join(&eff);
            s = if rounds > WIDEN_AFTER || self.growths[t][l.index()] > 4 * WIDEN_AFTER {
                let mut w = s.widen(&joined, &|v| self.cx.range(v), &self.cx.thresholds);
                keep_private(self.cx, &mut w, &joined);
                w
            } else {
                joined
            };
        }
    }

    /// The states of an instance with state `s` after step `st` of another instance whose
    /// source state is `src`.
    fn effect(&self, s: &State, st: Step, src: &State) -> Result<State, GiveUp> {
        let cx = self.cx;
        let mut out = State::bottom();
        for (kt, et) in &s.parts {
            for (ku, eu) in &src.parts {
                if !compatible(cx, kt, ku) {
                    continue;
                }
                let mut shared_t = et.clone();
                shared_t.retain(|v| cx.is_shared(v));
                let mut combined = eu.clone();
                // The other instance's private variables, and the shared ones both know.
                let Some(m) = combined.meet(&shared_t) else {
                    continue;
                };
                combined = m;
                for (k2, e2) in self.run_step(st, ku, &combined)? {
                    let key = translate(cx, kt, &k2);
                    let mut env = e2;
                    env.retain(|v| cx.is_shared(v));
                    let mut private_t = et.clone();
                    private_t.retain(|v| !cx.is_shared(v));
                    let Some(env) = env.meet(&private_t) else {
                        continue;
                    };
                    out.add(key, env);
                }
            }
        }
        Ok(out)
    }

    /// The partitions a step leads to from one partition (the executing instance's view).
    fn run_step(&self, st: Step, key: &Key, env: &Env) -> Result<Vec<(Key, Env)>, GiveUp> {
        let cx = self.cx;
        let tpl = &cx.tpls.templates[st.u];
        if !st.atomic {
            let mut out = Out::default();
            step(cx, st.u, st.src, key, env, &mut out)?;
            return Ok(out.succ.into_iter().map(|(_, k, e)| (k, e)).collect());
        }
        // The whole section, and its prefixes ending before an instruction that may block.
        let n = tpl.body.instrs.len();
        let mut local: Vec<State> = vec![State::bottom(); n];
        let mut growth = vec![0u32; n];
        local[st.src.index()] = State::single(key.clone(), env.clone());
        let mut work: BTreeSet<InstrId> = [st.src].into();
        let mut exits = Vec::new();
        while let Some(l) = work.pop_first() {
            let s = local[l.index()].clone();
            if l != st.src && matches!(tpl.body.instrs[l].kind, InstrKind::Assume(_)) {
                exits.extend(s.parts.iter().map(|(k, e)| (k.clone(), e.clone())));
            }
            let mut out = Out::default();
            for (k, e) in &s.parts {
                step(cx, st.u, l, k, e, &mut out)?;
            }
            for (s2, k, e) in out.succ {
                if tpl.atomic_depth[s2] == 0 {
                    exits.push((k, e));
                    continue;
                }
                let new = State::single(k, e);
                let old = &local[s2.index()];
                if new.leq(old) {
                    continue;
                }
                growth[s2.index()] += 1;
                local[s2.index()] = if growth[s2.index()] > WIDEN_AFTER {
                    old.widen(&old.join(&new), &|v| cx.range(v), &cx.thresholds)
                } else {
                    old.join(&new)
                };
                work.insert(s2);
            }
        }
        Ok(exits)
    }
}

/// `widened` (a widening of `joined` in the interference closure) with every private
/// variable set back to its value in `joined`.
///
/// Interference never invents a private value: an effect's partition takes its private
/// variables from a partition of the state being closed ([`Fixpoint::effect`] meets the step's
/// shared result with the interrupted partition's private part, and [`translate`] keeps its
/// private tags). So along the closure every partition's private part is the join of a subset
/// of the private parts the closure started from: finitely many values, and the closure
/// terminates without widening them (the shared variables, which the steps do compute, are
/// still widened). Widening them anyway was harmful: the join of `curr = 0` with the odd
/// `curr ∈ [1, 639]` jumped to the next threshold, 640, and `memory[curr + 1]` then looked
/// out of bounds (the stack tasks).
fn keep_private(cx: &Ctx, widened: &mut State, joined: &State) {
    for (k, w) in widened.parts.iter_mut() {
        let Some(j) = joined.parts.get(k) else {
            continue;
        };
        for (v, val) in j.iter() {
            if !cx.is_shared(v) {
                w.set(v, Some(val.clone()), cx.range(v));
            }
        }
    }
}

/// Whether two instances' views of the keys can describe one global state.
pub fn compatible(cx: &Ctx, kt: &Key, ku: &Key) -> bool {
    kt.iter()
        .zip(ku)
        .enumerate()
        .all(|(i, (&a, &b))| match cx.keys.get(i).map(|k| k.kind) {
            // A private key (see `private_keys`): the other instance's is its own.
            None => true,
            Some(KeyKind::Flag) => a == b,
            Some(KeyKind::Lock { .. }) => matches!(
                (a, b),
                (FREE, FREE)
                    | (HELD_SELF, HELD_OTHER)
                    | (HELD_OTHER, HELD_SELF)
                    | (HELD_OTHER, HELD_OTHER)
            ),
        })
}

/// An instance's view (`kt` before) after another instance's step left that instance's view
/// at `ku`: a lock it holds is held by another, a lock it freed is free, a lock it did not
/// write is as before.
pub fn translate(cx: &Ctx, kt: &Key, ku: &Key) -> Key {
    kt.iter()
        .zip(ku)
        .enumerate()
        .map(|(i, (&a, &b))| match cx.keys.get(i).map(|k| k.kind) {
            // A private key: another instance's step leaves this instance's variables.
            None => a,
            Some(KeyKind::Flag) => b,
            Some(KeyKind::Lock { .. }) => match b {
                HELD_SELF => HELD_OTHER,
                FREE => FREE,
                _ => a,
            },
        })
        .collect()
}

/// Whether an instruction may write a shared variable (or anything through a pointer).
fn may_write_shared(cx: &Ctx, k: &InstrKind) -> bool {
    match k.dst() {
        Some(p) => match &p.base {
            PlaceBase::Var(v) => cx.is_shared(*v),
            PlaceBase::Deref(_) => true,
        },
        None => {
            matches!(
                k,
                InstrKind::Memset { .. }
                    | InstrKind::Memcpy { .. }
                    | InstrKind::Free(_)
                    | InstrKind::ThreadJoin {
                        retval: Some(_),
                        ..
                    }
            ) || k.synchronises()
        }
    }
}

/// The locations of a body reachable from the successor of a creation.
fn after_creation(body: &crate::ir::Body) -> Vec<bool> {
    let n = body.instrs.len();
    let mut seen = vec![false; n];
    let mut work: Vec<InstrId> = Vec::new();
    for (l, ins) in body.instrs.iter() {
        if matches!(ins.kind, InstrKind::ThreadCreate { .. }) {
            work.extend(body.successors(l));
        }
    }
    while let Some(l) = work.pop() {
        if std::mem::replace(&mut seen[l.index()], true) {
            continue;
        }
        work.extend(body.successors(l));
    }
    seen
}
