//! The analyser: thread-modular abstract interpretation (rely/guarantee, in the style of
//! Flanagan–Qadeer, Miné and Goblint) whose result is directly an Owicki–Gries certificate.
//!
//! Per template and location, an abstract state over the template's private variables, the
//! globals and the lock-owner ghosts: intervals with one excluded constant and widening with
//! thresholds from the program's constants ([`crate::prove::domain::itv`]), pointer target
//! sets, and a partition by the values of a few *key* variables — lock words seen through
//! their owner ghost (free / held by me / held by another) and 0/1 flags ([`keys`]). Branch
//! conditions refine the states ([`eval`]).
//!
//! Interference ([`fixpoint`]): at a location of template `t`, every interfering step of
//! another instance (an instruction outside atomic sections that may write shared memory, or
//! a whole atomic section) is applied from the meet of `t`'s state with the step's source
//! state, partition by partition, only for *compatible* keys: a step whose source knows
//! `state == 0` does not interfere where `state == 1` is known, and a step inside another
//! instance's critical section does not interfere where this instance holds the lock. The
//! whole system is iterated to a fixpoint (the rely grows with the states).
//!
//! The states become invariants and the lock writes ghost updates ([`emit`]). Nothing here
//! is trusted: the certificate goes to the checker, and only a certificate that passes gives
//! TRUE. The analyser is meant to be sound on its own all the same; each module's doc gives
//! its argument.

pub mod counters;
pub mod ctx;
pub mod emit;
pub mod eval;
pub mod fixpoint;
pub mod keys;
pub mod live_facts;
pub mod loop_writes;
pub mod paths;
pub mod phases;
pub mod pointsto;
pub mod private_keys;
pub mod transfer;

use crate::ir::{InstrKind, Loc, PlaceBase, VarData, VarKind};
use crate::prove::domain::state::{Env, State, Tgt, Val};
use crate::prove::{Certificate, GiveUp, Templates};

use ctx::{Ctx, Scalar};
use emit::Emitter;
use fixpoint::Fixpoint;
use keys::{KeyKind, FREE};

/// Deliberate mistakes, for the tests that show the checker rejects what a broken analyser
/// produces. Never set outside tests.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Sabotage {
    /// Apply no interference at all (as if every thread ran alone).
    pub drop_interference: bool,
    /// Make the transfer function of `+` add one more than the program does.
    pub add_off_by_one: bool,
    /// Make a copy into a small variable (a flag wider than 0/1) store the next value of its
    /// range instead (a wrong tuple set).
    pub skew_small_copies: bool,
    /// Keep path facts over a variable when it is written (a stale relation).
    pub keep_path_facts_on_write: bool,
}

/// Phase ghost updates per location: key index and value (see [`phases`]).
type PhaseUpdates =
    std::collections::HashMap<(crate::prove::TemplateId, crate::ir::InstrId), Vec<(usize, u8)>>;

/// The method name the verdict line shows.
pub const METHOD: &str = "thread-modular intervals";

/// A certificate for `templates`, or why none was found. Adds the lock-owner ghosts to
/// `templates.program`.
pub fn analyze(templates: &mut Templates) -> Result<Certificate, GiveUp> {
    analyze_with(templates, Sabotage::default())
}

/// [`analyze`] with deliberate mistakes (tests only).
pub fn analyze_with(templates: &mut Templates, sabotage: Sabotage) -> Result<Certificate, GiveUp> {
    analyze_impl(templates, sabotage, false, false)
}

/// [`analyze`] partitioning also by private keys ([`private_keys`]): more precise, and on
/// some programs far more partitions, so the prover tries it only when the plain analysis's
/// certificate is rejected ([`crate::prove::run`]).
pub fn analyze_private(templates: &mut Templates) -> Result<Certificate, GiveUp> {
    analyze_impl(templates, Sabotage::default(), false, true)
}

/// The analysis with deliberate mistakes (tests only) and, when `private`, private keys.
pub fn analyze_opts(
    templates: &mut Templates,
    sabotage: Sabotage,
    private: bool,
) -> Result<Certificate, GiveUp> {
    analyze_impl(templates, sabotage, false, private)
}

/// [`analyze`] with phase ghosts for the locks that have phase sites ([`phases`]): more
/// partitions, for the proofs that need to know how far a lock's holder has got. Gives up
/// when no lock has phase sites (the result would be [`analyze`]'s).
pub fn analyze_phased(
    templates: &mut Templates,
    sabotage: Sabotage,
) -> Result<Certificate, GiveUp> {
    analyze_impl(templates, sabotage, true, false)
}

fn analyze_impl(
    templates: &mut Templates,
    sabotage: Sabotage,
    phased: bool,
    private: bool,
) -> Result<Certificate, GiveUp> {
    let (mut keys, lock_writes) = keys::choose(templates);
    let chosen_phases = if phased {
        let p = phases::choose(templates, &keys, &lock_writes);
        if p.is_empty() {
            return Err(GiveUp::NoInvariant("no lock has phase sites".into()));
        }
        p
    } else {
        Vec::new()
    };
    let inits = keys::init_values(templates);
    let prog = &mut templates.program;
    let uint = prog.types.int(32, false);
    let int_ty = prog.types.int32();
    let mut ghosts = Vec::new();
    for k in keys.iter_mut() {
        if let KeyKind::Lock { owner } = &mut k.kind {
            let name = format!("__yogar_owner_{}", prog.vars[k.var].name);
            let g = prog.vars.push(VarData {
                name: name.clone(),
                source_name: name,
                ty: uint,
                kind: VarKind::Global,
                thread_local: false,
                address_taken: false,
                loc: Loc::default(),
            });
            *owner = Some(g);
            ghosts.push(g);
        }
    }
    let mut phase_updates: PhaseUpdates = Default::default();
    let mut phase_keys = Vec::new();
    for p in chosen_phases.iter().take(phases::MAX_PHASES) {
        let name = format!("__yogar_phase_{}", prog.vars[keys[p.lock].var].name);
        let g = prog.vars.push(VarData {
            name: name.clone(),
            source_name: name,
            ty: uint,
            kind: VarKind::Global,
            thread_local: false,
            address_taken: false,
            loc: Loc::default(),
        });
        ghosts.push(g);
        let k = keys.len();
        phase_keys.push(k);
        keys.push(keys::KeyVar {
            var: g,
            kind: KeyKind::Flag,
            max: p.max,
        });
        for &(t, l, v) in &p.updates {
            phase_updates.entry((t, l)).or_default().push((k, v));
        }
    }
    let templates: &Templates = templates;
    let run = |keys: Vec<keys::KeyVar>, phase_updates: PhaseUpdates| {
        let mut cx = Ctx::new(templates, keys, lock_writes.clone(), int_ty, &ghosts);
        cx.phase_updates = phase_updates;
        cx.add_off_by_one = sabotage.add_off_by_one;
        cx.skew_small_copies = sabotage.skew_small_copies;
        cx.private = if private {
            private_keys::PrivateKeys::choose(templates, cx.keys.len())
        } else {
            private_keys::PrivateKeys::none(cx.keys.len())
        };
        let main_entry = main_entry(&cx, &inits);
        let mut fx = Fixpoint::new(&cx);
        fx.drop_interference = sabotage.drop_interference;
        fx.run(main_entry)?;
        no_escaping_private(&cx, &fx)?;
        let states = std::mem::take(&mut fx.states);
        Ok::<_, GiveUp>((cx, states))
    };
    let (mut cx, mut states) = run(keys.clone(), phase_updates.clone())?;
    // Phase values the states do not tell apart are merged, and the analysis run again
    // with fewer partitions (see `phases::merges`).
    if let Some(ren) = phases::merges(&states, &cx.keys, &phase_keys) {
        for (&i, r) in &ren {
            keys[i].max = r.iter().copied().max().unwrap_or(0);
        }
        for ups in phase_updates.values_mut() {
            for (i, v) in ups.iter_mut() {
                if let Some(r) = ren.get(i) {
                    *v = r[usize::from(*v)];
                }
            }
        }
        (cx, states) = run(keys, phase_updates)?;
    }
    let em = Emitter { cx: &cx };
    let mut invariants = em.invariants(&states);
    paths::strengthen(
        templates,
        int_ty,
        &mut invariants,
        sabotage.keep_path_facts_on_write,
    );
    live_facts::restrict(templates, &mut invariants);
    Ok(Certificate {
        method: METHOD.to_string(),
        ghosts,
        updates: em.updates(),
        invariants,
        counters: Vec::new(),
    })
}

/// `main`'s entry: the globals after their initialisers (all zero first), every lock free, every flag at its initial value.
fn main_entry(cx: &Ctx, inits: &std::collections::HashMap<crate::ir::VarId, Option<u64>>) -> State {
    let mut env = Env::default();
    for (v, d) in cx.prog.vars.iter() {
        if cx.is_shared(v) && cx.key_index(v).is_none() && d.is_global() {
            env.set(v, transfer::zero(cx, v), cx.range(v));
        }
    }
    let init = cx.prog.funcs[cx.prog.init].body.as_ref();
    if !transfer::straight_line(cx, init, &mut env) {
        env.retain(|v| !cx.is_shared(v));
    }
    // Thread-locals: the template's body zeroes and initialises them itself (see
    // `templates`), so at the entry they may hold anything.
    let key = cx
        .keys
        .iter()
        .map(|k| match k.kind {
            KeyKind::Lock { .. } => FREE,
            KeyKind::Flag => inits.get(&k.var).copied().flatten().unwrap_or(0) as u8,
        })
        .collect();
    let mut key = key;
    cx.private.extend(&mut key);
    State::single(key, env)
}

/// Gives up when a shared pointer may hold the address of a private variable: another
/// instance could then write it, which the proof system (and the interference) excludes.
fn no_escaping_private(cx: &Ctx, fx: &Fixpoint) -> Result<(), GiveUp> {
    for (t, states) in fx.states.iter() {
        for (i, s) in states.iter().enumerate() {
            for e in s.parts.values() {
                for (v, val) in e.iter() {
                    if !cx.is_shared(v) {
                        continue;
                    }
                    if let Val::Ptr(set) = val {
                        if set
                            .iter()
                            .any(|x| matches!(x, Tgt::Var(p) if !cx.is_shared(*p)))
                        {
                            return Err(GiveUp::Unsupported {
                                what: "a shared pointer to a private variable".into(),
                                at: Some(cx.at(
                                    t,
                                    <crate::ir::InstrId as cranelift_entity::EntityRef>::new(i),
                                )),
                            });
                        }
                    }
                }
            }
        }
    }
    // A shared pointer the domain cannot bound may also hold such an address: any write of
    // an address of a private variable into memory counts.
    for (t, tpl) in cx.tpls.templates.iter() {
        for (l, ins) in tpl.body.instrs.iter() {
            if let InstrKind::Assign { dst, src } = &ins.kind {
                let shared_dst = match &dst.base {
                    PlaceBase::Var(v) => cx.is_shared(*v),
                    PlaceBase::Deref(_) => true,
                };
                let mut private_addr = false;
                src.walk(&mut |e| {
                    if let crate::ir::ExprKind::AddrOf(p) = &e.kind {
                        if let PlaceBase::Var(v) = p.base {
                            private_addr |= !cx.is_shared(v);
                        }
                    }
                });
                if shared_dst && private_addr && cx.ty_scalar(src.ty) == Scalar::Ptr {
                    return Err(GiveUp::Unsupported {
                        what: "the address of a private variable stored in memory".into(),
                        at: Some(cx.at(t, l)),
                    });
                }
            }
        }
    }
    Ok(())
}
