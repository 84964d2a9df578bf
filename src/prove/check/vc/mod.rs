//! Compiling checks into a sequential verification-condition program.
//!
//! The VC program is [`Templates::program`] with every variable made global (a VC program has
//! one thread: every instance's private variables become plain variables of it), a second
//! copy of every template's private variables (the interfering or created instance), and a
//! fresh `main`: `check := nondet; if (check == 0) goto B0; ...; halt`, each branch `Bk`
//! one [`Obligation`] ending in `halt`:
//!
//! 1. havoc: `nondet` of every variable the branch mentions (for initiation only `main`'s
//!    private variables: the globals keep the initialisers' values, the ghosts and lock owners
//!    zero), and of every variable whose address the VC program takes when the branch
//!    dereferences a pointer (a pointer read from a havocked variable may then designate it);
//! 2. the pre-invariants: a `PointsTo` fact assigns the pointer constructively
//!    (`p := pick ? &a : &b`) — symbolic execution resolves a dereference by the objects a
//!    pointer's assignments may give it, not by assumptions on its value — the first time the
//!    branch meets the variable, and is assumed (`p == &a || p == &b`) after that; `Holds(e)`
//!    is `assume(e)`. The `self` ghosts are assumed non-zero, two instances' distinct, and a
//!    created instance's different from every ghost's value (see [`Vc::fresh_self`]);
//! 3. the step (see [`Vc::effect`]);
//! 4. the post-invariant, asserted fact by fact (each assertion a property of the VC program,
//!    mapped back to its obligation).
//!
//! Mutexes are modelled by their owner ghosts ([`Templates::mutex_owners`]): a lock of a mutex
//! `m` is `assume(owner(m) == 0); owner(m) := self`, an unlock (and an initialisation)
//! `owner(m) := 0`, a trylock takes the lock when the owner is 0 and stores 0, else stores
//! EBUSY. That is exactly symbolic execution's model (a lock bit per mutex, read free and
//! written taken in one step; unlock writes it free), with the bit refined to the holder's
//! `self`: every execution of the program extends to one with owners, where the owner is
//! non-zero exactly when the bit is set. The operand is compared with the address of every
//! mutex global; an operand that designates none of them fails the check (an assertion of the
//! branch), so a lock the model does not cover is never assumed to succeed or to block.

use std::collections::{HashMap, HashSet};

use cranelift_entity::EntityRef;

use super::obligations::section;
use super::{invariant, Kind, Obligation};
use crate::ir::{
    BinOp, Body, Expr, ExprKind, FuncId, Function, Instr, InstrId, InstrKind, Loc, LoopInfo, Place,
    PlaceBase, Program, PropId, PropKind, Property, Type, TypeId, UnOp, VarId, VarKind,
};
use crate::prove::rename::{instr_vars, Renaming};
use crate::prove::{Certificate, Fact, GhostValue, Invariant, PtrTarget, TemplateId, Templates};

mod branch;
mod facts;
mod step;

/// A compiled chunk of checks.
pub(super) struct Built {
    pub program: Program,
    pub main: FuncId,
    /// Each assertion's obligation (index in the chunk).
    pub props: HashMap<PropId, usize>,
    /// What a failed assertion means.
    pub reasons: HashMap<PropId, String>,
}

/// Compiles `chunk` into a VC program.
pub(super) fn build(ts: &Templates, cert: &Certificate, chunk: &[Obligation]) -> Built {
    let mut prog = ts.program.clone();
    // One thread: every instance's private variable (thread-locals included) is a plain
    // global of the VC program.
    for v in prog.vars.values_mut() {
        if !v.is_global() {
            v.kind = VarKind::Global;
        }
        v.thread_local = false;
    }
    let int = prog.types.int32();
    let uint = prog.types.int(32, false);
    let mut second: HashMap<TemplateId, Renaming> = HashMap::new();
    for (t, tpl) in ts.templates.iter() {
        let mut ren = Renaming::default();
        for &v in &tpl.locals {
            let mut d = prog.vars[v].clone();
            d.name = format!("{}'", d.name);
            let nv = prog.vars.push(d);
            ren.0.insert(v, nv);
        }
        second.insert(t, ren);
    }
    let choice = new_global(&mut prog, "vc::check", int);
    let pick = new_global(&mut prog, "vc::pick", int);
    // Every variable a pointer may designate in the VC program.
    let mut addressed: HashSet<VarId> = prog
        .vars
        .iter()
        .filter(|(_, v)| v.address_taken)
        .map(|(id, _)| id)
        .collect();
    let mut taken = Vec::new();
    for tpl in ts.templates.values() {
        for i in tpl.body.instrs.values() {
            i.kind.walk_exprs(&mut |e| {
                if let ExprKind::AddrOf(p) = &e.kind {
                    if let PlaceBase::Var(v) = p.base {
                        taken.push(v);
                    }
                }
            });
        }
    }
    for per in cert.invariants.values() {
        for inv in per.values() {
            for f in &inv.facts {
                if let Fact::PointsTo { targets, .. } = f {
                    for tg in targets {
                        if let PtrTarget::Var(v) = tg {
                            taken.push(*v);
                        }
                    }
                }
            }
        }
    }
    for v in taken {
        addressed.insert(v);
        for ren in second.values() {
            addressed.insert(ren.var(v));
        }
    }
    let main_ty = prog.types.intern(Type::Func {
        ret: int,
        params: vec![],
        variadic: false,
    });
    let main = prog.funcs.push(Function {
        name: "vc::main".into(),
        ty: main_ty,
        ret: int,
        params: vec![],
        locals: vec![],
        body: None,
        atomic: false,
        loc: Loc::default(),
    });
    let mut vc = Vc {
        ts,
        cert,
        prog,
        main,
        int,
        uint,
        second,
        pick,
        addressed,
        props: HashMap::new(),
        reasons: HashMap::new(),
    };
    let mut code: Vec<Instr> = Vec::new();
    let mut loops: Vec<(usize, usize)> = Vec::new();
    let loc0 = Loc::default();
    code.push(Instr {
        kind: InstrKind::Nondet {
            dst: Place::var(choice, int),
        },
        loc: loc0,
    });
    let heads = chunk.len();
    for k in 0..heads {
        let cond = vc.cmp(BinOp::Eq, vc.var(choice), Expr::constant(k as u64, int));
        code.push(Instr {
            kind: InstrKind::Goto {
                target: InstrId::new(0),
                cond: Some(cond),
                back_edge: None,
            },
            loc: loc0,
        });
    }
    code.push(Instr {
        kind: InstrKind::Halt,
        loc: loc0,
    });
    for (k, o) in chunk.iter().enumerate() {
        let start = code.len();
        if let InstrKind::Goto { target, .. } = &mut code[1 + k].kind {
            *target = InstrId::new(start);
        }
        let branch = vc.branch(k, o);
        for (h, b) in branch.loops {
            loops.push((h + start, b + start));
        }
        for mut ins in branch.code {
            if let InstrKind::Goto { target, .. } = &mut ins.kind {
                *target = InstrId::new(target.index() + start);
            }
            code.push(ins);
        }
    }
    let mut body = Body::default();
    for ins in code {
        body.instrs.push(ins);
    }
    for (h, b) in loops {
        let lp = body.loops.push(LoopInfo {
            head: InstrId::new(h),
            back_edge: InstrId::new(b),
            loc: body.instrs[InstrId::new(b)].loc,
        });
        if let InstrKind::Goto { back_edge, .. } = &mut body.instrs[InstrId::new(b)].kind {
            *back_edge = Some(lp);
        }
    }
    vc.prog.funcs[main].body = Some(body);
    vc.prog.main = Some(main);
    Built {
        program: vc.prog,
        main,
        props: vc.props,
        reasons: vc.reasons,
    }
}

fn new_global(prog: &mut Program, name: &str, ty: TypeId) -> VarId {
    prog.vars.push(crate::ir::VarData {
        name: name.into(),
        source_name: name.into(),
        ty,
        kind: VarKind::Global,
        thread_local: false,
        address_taken: false,
        loc: Loc::default(),
    })
}

struct Vc<'a> {
    ts: &'a Templates,
    cert: &'a Certificate,
    prog: Program,
    main: FuncId,
    int: TypeId,
    uint: TypeId,
    /// Per template, its private variables to their second copies.
    second: HashMap<TemplateId, Renaming>,
    pick: VarId,
    addressed: HashSet<VarId>,
    props: HashMap<PropId, usize>,
    reasons: HashMap<PropId, String>,
}

/// One branch under construction; jump targets are indices into `code`.
#[derive(Default)]
struct Branch {
    code: Vec<Instr>,
    loops: Vec<(usize, usize)>,
    /// Pointer variables assigned constructively so far.
    built: HashSet<VarId>,
    loc: Loc,
}

impl Branch {
    fn emit(&mut self, kind: InstrKind) -> usize {
        self.code.push(Instr {
            kind,
            loc: self.loc,
        });
        self.code.len() - 1
    }
    fn goto(&mut self, cond: Option<Expr>) -> usize {
        self.emit(InstrKind::Goto {
            target: InstrId::new(0),
            cond,
            back_edge: None,
        })
    }
    fn patch(&mut self, at: usize, to: usize) {
        if let InstrKind::Goto { target, .. } = &mut self.code[at].kind {
            *target = InstrId::new(to);
        }
    }
    fn here(&self) -> usize {
        self.code.len()
    }
}

/// One instance taking part in a check: its template, renaming and `self`.
#[derive(Clone)]
struct Inst {
    t: TemplateId,
    ren: Renaming,
    self_id: VarId,
}
