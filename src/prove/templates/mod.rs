//! Thread templates: the code of `main` and of every thread entry, every call inlined.
//!
//! [`build`] starts from `main` and adds a template for every entry function a creation in a
//! template names (directly, or through a pointer the sharing pass resolves), until no new
//! entry appears. Inlining:
//! - every inlined call gets fresh copies of the callee's parameters, locals and temporaries
//!   (`f::x#2`, with the source name kept), so two calls (or two templates) never share a
//!   private variable; the parameters are assigned the arguments, `Return(e)` assigns `e` to the
//!   call's destination and jumps to a `Skip` after the inlined body;
//! - a call through a pointer becomes a dispatch over the functions its points-to set names
//!   whose parameters fit the arguments (as symbolic execution resolves it): `if (fp == &g)
//!   goto G; ...; assume(0)`, then each inlined target (a target without a body returns a
//!   nondet value, the IR's policy for external functions). The final `assume(0)` drops the
//!   executions where the pointer names none of them. That is sound: the points-to analysis
//!   over-approximates every function address the pointer can hold (it follows every
//!   assignment, the contents of objects and calls), so such an execution calls through a
//!   value that is no function of a fitting type, which is undefined behaviour in C (and which
//!   symbolic execution reports as unsupported, never as an error reached), not a path to an
//!   assertion. A creation through a pointer is dispatched the same way.
//! - calls of `__VERIFIER_atomic_*` functions through a pointer are wrapped in
//!   `AtomicBegin`/`AtomicEnd`, as symbolic execution does (a nested begin inside an open
//!   section only deepens it, which is the same as not opening one); direct calls are wrapped
//!   by the frontend already and are not wrapped again.
//! - `pthread_cond_wait(c, m)` becomes `MutexUnlock(m); MutexLock(m)`, symbolic execution's
//!   model of a wait (spurious wake-ups allowed; signals change nothing), with a location
//!   between the two where other threads run;
//! - recursion gives up (inlining would not end).
//!
//! Atomic depth is a forward data flow over the inlined body; a location reached with two
//! depths, an end without a begin, or a thread that ends inside a section gives up.
//!
//! Instances: `main` has one; a thread template has one when exactly one creation site of
//! all templates creates it, that site is in `main`'s template and lies in no loop of it.
//! Every cycle of a body contains a backward jump, and every backward jump closes a loop whose
//! interval `[head, back_edge]` contains every instruction of such a cycle (follow the cycle
//! forward from the instruction to the first backward jump landing at or before it); so an
//! instruction in no loop interval runs at most once per instance of its template, and the
//! single `main` runs such a site at most once.
//!
//! Thread-local variables are private to every instance: each template starts by zeroing
//! them and running `tls_init` (as every thread does), and lists them among its locals; one
//! whose address is taken, or that is no scalar, gives up. So does an address-taken local
//! that the sharing pass finds may reach another thread: the proof system takes a
//! template's private variables to be changed by its own instance only.

use std::collections::{BTreeMap, HashMap, HashSet};

use cranelift_entity::{EntityRef, PrimaryMap, SecondaryMap};

use super::rename::Renaming;
use super::{GiveUp, Instances, Template, TemplateId, Templates};
use crate::ir::{
    BinOp, Body, Callee, Expr, ExprKind, FuncId, Instr, InstrId, InstrKind, Loc, LoopInfo, Place,
    Program, VarData, VarId, VarKind,
};
use crate::sharing::{AbsObj, Sharing};

/// The templates of `prog` (the sharing pass's results `sharing` resolve pointers).
pub fn build(prog: &Program, sharing: &Sharing) -> Result<Templates, GiveUp> {
    let main = prog.main.ok_or(GiveUp::NoMain)?;
    if let Some((_, v)) = prog
        .vars
        .iter()
        .find(|(_, v)| v.thread_local && (v.address_taken || !prog.types.is_scalar(v.ty)))
    {
        return Err(GiveUp::Unsupported {
            what: format!(
                "thread-local variable {} (address taken, or not a scalar)",
                v.source_name
            ),
            at: Some(prog.loc_str(v.loc)),
        });
    }
    let mut b = Builder {
        orig: prog,
        sharing,
        prog: prog.clone(),
        names: prog.vars.values().map(|v| v.name.clone()).collect(),
        copies: HashMap::new(),
        owners: BTreeMap::new(),
    };
    let mut templates: PrimaryMap<TemplateId, Template> = PrimaryMap::new();
    let mut by_entry: HashMap<FuncId, TemplateId> = HashMap::new();
    let mut work = vec![main];
    // Creation sites: (template, location, created entry).
    let mut sites: Vec<(TemplateId, InstrId, FuncId)> = Vec::new();
    while let Some(f) = work.pop() {
        if by_entry.contains_key(&f) {
            continue;
        }
        let t = b.template(f, f == main)?;
        let id = templates.push(t);
        by_entry.insert(f, id);
        for (i, ins) in templates[id].body.instrs.iter() {
            if let InstrKind::ThreadCreate {
                entry: Callee::Direct(g),
                ..
            } = ins.kind
            {
                sites.push((id, i, g));
                work.push(g);
            }
        }
    }
    let main_t = by_entry[&main];
    templates[main_t].instances = Instances::One;
    let main_body = templates[main_t].body.clone();
    for (id, t) in templates.iter_mut() {
        if id == main_t {
            continue;
        }
        let mine: Vec<&(TemplateId, InstrId, FuncId)> =
            sites.iter().filter(|s| s.2 == t.entry).collect();
        t.instances = match mine.as_slice() {
            [(site_t, site_i, _)] if *site_t == main_t && !in_loop(&main_body, *site_i) => {
                Instances::One
            }
            _ => Instances::Many,
        };
    }
    Ok(Templates {
        program: b.prog,
        templates,
        main: main_t,
        mutex_owners: b.owners,
    })
}

/// Whether `i` lies between a loop's head and its back edge (see the module doc).
fn in_loop(body: &Body, i: InstrId) -> bool {
    body.loops.values().any(|l| l.head <= i && i <= l.back_edge)
}

struct Builder<'a> {
    orig: &'a Program,
    sharing: &'a Sharing,
    /// The original program with the fresh variables.
    prog: Program,
    names: HashSet<String>,
    /// Copies made so far per original variable (for the names).
    copies: HashMap<VarId, u32>,
    owners: BTreeMap<VarId, VarId>,
}

/// The body of one template under construction.
#[derive(Default)]
struct Out {
    instrs: Vec<Instr>,
    origin: Vec<Option<(FuncId, InstrId)>>,
    loops: Vec<LoopInfo>,
    /// The fresh variables of this template.
    locals: Vec<VarId>,
}

impl Out {
    fn emit(&mut self, kind: InstrKind, loc: Loc, origin: Option<(FuncId, InstrId)>) -> usize {
        self.instrs.push(Instr { kind, loc });
        self.origin.push(origin);
        self.instrs.len() - 1
    }
    fn set_target(&mut self, at: usize, to: usize) {
        if let InstrKind::Goto { target, .. } = &mut self.instrs[at].kind {
            *target = InstrId::new(to);
        }
    }
}

/// Where an inlined body's returns go.
struct Ret {
    dst: Option<Place>,
    /// Indices of the jumps to patch to the join point.
    jumps: Vec<usize>,
}

impl Builder<'_> {
    fn template(&mut self, entry: FuncId, is_main: bool) -> Result<Template, GiveUp> {
        let f = &self.orig.funcs[entry];
        if f.body.is_none() {
            return Err(GiveUp::Unsupported {
                what: format!("thread entry {} without a body", f.name),
                at: Some(self.orig.loc_str(f.loc)),
            });
        }
        if !is_main && f.params.len() > 1 {
            return Err(GiveUp::Unsupported {
                what: format!("thread entry {} with {} parameters", f.name, f.params.len()),
                at: Some(self.orig.loc_str(f.loc)),
            });
        }
        let mut out = Out::default();
        let ren = self.fresh_frame(entry, &mut out);
        let param = if is_main {
            None
        } else {
            f.params.first().map(|&p| ren.var(p))
        };
        let mut stack = vec![entry];
        // Every thread (main included) starts with its thread-local variables zeroed, then
        // initialised by `tls_init`; they are private to the instance.
        let tls: Vec<VarId> = self
            .orig
            .vars
            .iter()
            .filter(|(_, d)| d.thread_local)
            .map(|(v, _)| v)
            .collect();
        for &v in &tls {
            let ty = self.orig.vars[v].ty;
            out.emit(
                InstrKind::Assign {
                    dst: Place::var(v, ty),
                    src: Expr::constant(0, ty),
                },
                f.loc,
                None,
            );
            out.locals.push(v);
        }
        let tls_init = self.orig.tls_init;
        if !tls.is_empty() && self.orig.funcs[tls_init].body.is_some() {
            self.inline_call(
                tls_init,
                None,
                &[],
                false,
                f.loc,
                None,
                &mut out,
                &mut stack,
            )?;
        }
        self.inline_body(entry, &ren, None, &mut out, &mut stack)?;
        let u32t = self.prog.types.int(32, false);
        let self_id = self.fresh_var(VarData {
            name: format!("{}::self", f.name),
            source_name: "self".into(),
            ty: u32t,
            kind: VarKind::Local(entry),
            thread_local: false,
            address_taken: false,
            loc: f.loc,
        });
        out.locals.push(self_id);
        let mut body = Body::default();
        for ins in out.instrs {
            body.instrs.push(ins);
        }
        for l in out.loops {
            body.loops.push(l);
        }
        let mut origin = SecondaryMap::new();
        for (i, o) in out.origin.into_iter().enumerate() {
            origin[InstrId::new(i)] = o;
        }
        let atomic_depth = self.atomic_depth(&body)?;
        Ok(Template {
            entry,
            is_main,
            body,
            param,
            locals: out.locals,
            self_id,
            instances: Instances::Many,
            atomic_depth,
            origin,
        })
    }

    fn fresh_var(&mut self, mut data: VarData) -> VarId {
        let base = data.name.clone();
        let mut name = base.clone();
        let mut n = 1;
        while self.names.contains(&name) {
            n += 1;
            name = format!("{base}#{n}");
        }
        self.names.insert(name.clone());
        data.name = name;
        self.prog.vars.push(data)
    }

    /// Fresh copies of `f`'s parameters and locals, recorded as the template's.
    fn fresh_frame(&mut self, f: FuncId, out: &mut Out) -> Renaming {
        let func = &self.orig.funcs[f];
        let mut ren = Renaming::default();
        for &v in func.params.iter().chain(&func.locals) {
            // A static local is one object for every call and thread: it stays as it is.
            if self.orig.vars[v].is_global() {
                continue;
            }
            let n = self.copies.entry(v).or_insert(0);
            *n += 1;
            let mut data = self.orig.vars[v].clone();
            data.name = format!("{}#{}", data.name, n);
            let nv = self.fresh_var(data);
            ren.0.insert(v, nv);
            out.locals.push(nv);
        }
        ren
    }

    fn at(&self, f: FuncId, i: InstrId) -> String {
        let body = self.orig.funcs[f]
            .body
            .as_ref()
            .expect("inlined function has a body");
        self.orig.loc_str(body.instrs[i].loc)
    }

    /// Inlines `f`'s body, renamed by `ren`, at the end of `out`. `ret`: where its returns go
    /// (none for the template's entry, whose returns end the thread).
    fn inline_body(
        &mut self,
        f: FuncId,
        ren: &Renaming,
        mut ret: Option<&mut Ret>,
        out: &mut Out,
        stack: &mut Vec<FuncId>,
    ) -> Result<(), GiveUp> {
        let body = self.orig.funcs[f]
            .body
            .as_ref()
            .expect("inlined function has a body");
        let mut map: Vec<usize> = Vec::with_capacity(body.instrs.len());
        let mut jumps: Vec<(usize, InstrId)> = Vec::new();
        for (i, ins) in body.instrs.iter() {
            map.push(out.instrs.len());
            let origin = Some((f, i));
            let loc = ins.loc;
            match &ins.kind {
                InstrKind::Call { dst, callee, args } => {
                    let dst = dst.as_ref().map(|d| ren.place(d));
                    let args: Vec<Expr> = args.iter().map(|a| ren.expr(a)).collect();
                    match callee {
                        Callee::Direct(g) => {
                            self.inline_call(*g, dst, &args, false, loc, origin, out, stack)?
                        }
                        Callee::Indirect(e) => {
                            let targets = self.call_targets(callee, &args);
                            if targets.is_empty() {
                                return Err(GiveUp::UnresolvedPointer {
                                    what: "call",
                                    at: self.at(f, i),
                                });
                            }
                            let fp = ren.expr(e);
                            let mut arms = Vec::new();
                            for &g in &targets {
                                let cond = self.is_func(&fp, g);
                                let at = out.emit(
                                    InstrKind::Goto {
                                        target: InstrId::new(0),
                                        cond: Some(cond),
                                        back_edge: None,
                                    },
                                    loc,
                                    origin,
                                );
                                arms.push(at);
                            }
                            let no = self.false_cond();
                            out.emit(InstrKind::Assume(no), loc, origin);
                            let mut ends = Vec::new();
                            for (&g, &arm) in targets.iter().zip(&arms) {
                                let here = out.instrs.len();
                                out.set_target(arm, here);
                                if self.orig.funcs[g].body.is_some() {
                                    let atomic = self.orig.funcs[g].atomic;
                                    self.inline_call(
                                        g,
                                        dst.clone(),
                                        &args,
                                        atomic,
                                        loc,
                                        origin,
                                        out,
                                        stack,
                                    )?;
                                } else if let Some(d) = &dst {
                                    out.emit(InstrKind::Nondet { dst: d.clone() }, loc, origin);
                                }
                                ends.push(out.emit(goto(0), loc, origin));
                            }
                            let join = out.emit(InstrKind::Skip, loc, origin);
                            for e in ends {
                                out.set_target(e, join);
                            }
                        }
                    }
                }
                InstrKind::Return(e) => match ret.as_deref_mut() {
                    None => {
                        out.emit(ren.instr(&ins.kind), loc, origin);
                    }
                    Some(r) => {
                        if let (Some(d), Some(e)) = (&r.dst, e) {
                            out.emit(
                                InstrKind::Assign {
                                    dst: d.clone(),
                                    src: ren.expr(e),
                                },
                                loc,
                                origin,
                            );
                        }
                        let j = out.emit(goto(0), loc, origin);
                        r.jumps.push(j);
                    }
                },
                InstrKind::ThreadCreate {
                    handle,
                    entry: entry @ Callee::Indirect(e),
                    arg,
                } => {
                    let targets: Vec<FuncId> = self
                        .sharing
                        .points_to
                        .callees(self.orig, entry)
                        .into_iter()
                        .filter(|&g| {
                            let gf = &self.orig.funcs[g];
                            gf.body.is_some() && gf.params.len() <= 1
                        })
                        .collect();
                    if targets.is_empty() {
                        return Err(GiveUp::UnresolvedPointer {
                            what: "thread creation",
                            at: self.at(f, i),
                        });
                    }
                    let fp = ren.expr(e);
                    let mut arms = Vec::new();
                    for &g in &targets {
                        let cond = self.is_func(&fp, g);
                        arms.push(out.emit(
                            InstrKind::Goto {
                                target: InstrId::new(0),
                                cond: Some(cond),
                                back_edge: None,
                            },
                            loc,
                            origin,
                        ));
                    }
                    let no = self.false_cond();
                    out.emit(InstrKind::Assume(no), loc, origin);
                    let mut ends = Vec::new();
                    for (&g, &arm) in targets.iter().zip(&arms) {
                        let here = out.instrs.len();
                        out.set_target(arm, here);
                        out.emit(
                            InstrKind::ThreadCreate {
                                handle: ren.place(handle),
                                entry: Callee::Direct(g),
                                arg: ren.expr(arg),
                            },
                            loc,
                            origin,
                        );
                        ends.push(out.emit(goto(0), loc, origin));
                    }
                    let join = out.emit(InstrKind::Skip, loc, origin);
                    for e in ends {
                        out.set_target(e, join);
                    }
                }
                InstrKind::CondWait { mutex, .. } => {
                    // An unlock, then (other threads run, spurious wake-ups allowed) a lock:
                    // symbolic execution's model of a wait, with the wait a location of its own.
                    self.note_mutex(&ins.kind);
                    out.emit(InstrKind::MutexUnlock(ren.expr(mutex)), loc, origin);
                    out.emit(InstrKind::MutexLock(ren.expr(mutex)), loc, origin);
                }
                InstrKind::Goto {
                    target,
                    cond,
                    back_edge,
                } => {
                    let kind = InstrKind::Goto {
                        target: InstrId::new(0),
                        cond: cond.as_ref().map(|c| ren.expr(c)),
                        back_edge: None,
                    };
                    let at = out.emit(kind, loc, origin);
                    if let Some(l) = back_edge {
                        let head = map[body.loops[*l].head.index()];
                        let lp = out.loops.len();
                        out.loops.push(LoopInfo {
                            head: InstrId::new(head),
                            back_edge: InstrId::new(at),
                            loc: body.loops[*l].loc,
                        });
                        if let InstrKind::Goto { back_edge, .. } = &mut out.instrs[at].kind {
                            *back_edge = Some(crate::ir::LoopId::new(lp));
                        }
                    }
                    jumps.push((at, *target));
                }
                kind => {
                    self.note_mutex(kind);
                    if let InstrKind::ThreadCreate {
                        entry: Callee::Direct(g),
                        ..
                    } = kind
                    {
                        if self.orig.funcs[*g].body.is_none() {
                            return Err(GiveUp::Unsupported {
                                what: format!(
                                    "thread entry {} without a body",
                                    self.orig.funcs[*g].name
                                ),
                                at: Some(self.at(f, i)),
                            });
                        }
                    }
                    out.emit(ren.instr(kind), loc, origin);
                }
            }
        }
        for (at, target) in jumps {
            out.set_target(at, map[target.index()]);
        }
        Ok(())
    }

    /// Inlines a call of `g` (which has a body): parameters, body, a join point.
    #[allow(clippy::too_many_arguments)]
    fn inline_call(
        &mut self,
        g: FuncId,
        dst: Option<Place>,
        args: &[Expr],
        wrap_atomic: bool,
        loc: Loc,
        origin: Option<(FuncId, InstrId)>,
        out: &mut Out,
        stack: &mut Vec<FuncId>,
    ) -> Result<(), GiveUp> {
        let gf = &self.orig.funcs[g];
        if stack.contains(&g) {
            return Err(GiveUp::Recursion {
                func: gf.name.clone(),
            });
        }
        if args.len() < gf.params.len() {
            return Err(GiveUp::Unsupported {
                what: format!("call of {} with too few arguments", gf.name),
                at: Some(self.orig.loc_str(loc)),
            });
        }
        let params = gf.params.clone();
        let ren = self.fresh_frame(g, out);
        // Every address-taken local must stay with its instance (see the module doc).
        for &v in params.iter().chain(&self.orig.funcs[g].locals) {
            if self.orig.vars[v].address_taken && self.sharing.is_shared(AbsObj::Local(v)) {
                return Err(GiveUp::Unsupported {
                    what: format!(
                        "address of local {} may reach another thread",
                        self.orig.vars[v].source_name
                    ),
                    at: Some(self.orig.loc_str(self.orig.vars[v].loc)),
                });
            }
        }
        if wrap_atomic {
            out.emit(InstrKind::AtomicBegin, loc, origin);
        }
        for (p, a) in params.iter().zip(args) {
            let nv = ren.var(*p);
            let ty = self.prog.vars[nv].ty;
            out.emit(
                InstrKind::Assign {
                    dst: Place::var(nv, ty),
                    src: a.clone(),
                },
                loc,
                origin,
            );
        }
        stack.push(g);
        let mut ret = Ret { dst, jumps: vec![] };
        self.inline_body(g, &ren, Some(&mut ret), out, stack)?;
        stack.pop();
        let join = out.emit(InstrKind::Skip, loc, origin);
        for j in ret.jumps {
            out.set_target(j, join);
        }
        if wrap_atomic {
            out.emit(InstrKind::AtomicEnd, loc, origin);
        }
        Ok(())
    }

    /// The functions a call through a pointer may reach whose parameters fit the arguments
    /// (as `symex::function_call::fits` decides), with a body or not.
    fn call_targets(&self, callee: &Callee, args: &[Expr]) -> Vec<FuncId> {
        let bits: Vec<Option<u32>> = args
            .iter()
            .map(|a| {
                self.orig
                    .types
                    .is_scalar(a.ty)
                    .then(|| self.orig.types.bits(a.ty))
            })
            .collect();
        let mut out: Vec<FuncId> = self
            .sharing
            .points_to
            .callees(self.orig, callee)
            .into_iter()
            .filter(|&g| {
                let gf = &self.orig.funcs[g];
                gf.params.len() == bits.len()
                    && gf.params.iter().zip(&bits).all(|(&p, b)| {
                        let ty = self.orig.vars[p].ty;
                        let pb = self
                            .orig
                            .types
                            .is_scalar(ty)
                            .then(|| self.orig.types.bits(ty));
                        pb == *b
                    })
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// `fp == &g`, as an `int` condition.
    fn is_func(&mut self, fp: &Expr, g: FuncId) -> Expr {
        let gty = self.prog.funcs[g].ty;
        let pty = self.prog.types.pointer(gty);
        let addr = Expr {
            kind: ExprKind::FuncAddr(g),
            ty: pty,
        };
        let addr = if pty == fp.ty {
            addr
        } else {
            Expr {
                kind: ExprKind::Cast(Box::new(addr)),
                ty: fp.ty,
            }
        };
        let int = self.prog.types.int32();
        Expr {
            kind: ExprKind::Binary(BinOp::Eq, Box::new(fp.clone()), Box::new(addr)),
            ty: int,
        }
    }

    fn false_cond(&mut self) -> Expr {
        let int = self.prog.types.int32();
        Expr::constant(0, int)
    }

    /// Records an owner ghost for every global a mutex operation may designate.
    fn note_mutex(&mut self, kind: &InstrKind) {
        let ops: Vec<&Expr> = match kind {
            InstrKind::MutexInit(m)
            | InstrKind::MutexLock(m)
            | InstrKind::MutexUnlock(m)
            | InstrKind::MutexDestroy(m)
            | InstrKind::MutexTryLock { mutex: m, .. } => vec![m],
            InstrKind::CondWait { mutex, .. } => vec![mutex],
            _ => return,
        };
        for m in ops {
            for o in self.sharing.pointees(self.orig, m) {
                if let AbsObj::Global(g) = o {
                    if self.owners.contains_key(&g) {
                        continue;
                    }
                    let u32t = self.prog.types.int(32, false);
                    let gv = &self.orig.vars[g];
                    let ghost = self.fresh_var(VarData {
                        name: format!("owner({})", gv.name),
                        source_name: format!("owner({})", gv.source_name),
                        ty: u32t,
                        kind: VarKind::Global,
                        thread_local: false,
                        address_taken: false,
                        loc: gv.loc,
                    });
                    self.owners.insert(g, ghost);
                }
            }
        }
    }

    /// Atomic depth before each location, the same on every path.
    fn atomic_depth(&self, body: &Body) -> Result<SecondaryMap<InstrId, u32>, GiveUp> {
        let n = body.instrs.len();
        let mut depth: Vec<Option<u32>> = vec![None; n];
        let at = |i: InstrId| GiveUp::AtomicDepth {
            at: self.prog.loc_str(body.instrs[i].loc),
        };
        if n > 0 {
            depth[0] = Some(0);
        }
        let mut work = vec![InstrId::new(0)];
        while let Some(i) = work.pop() {
            if i.index() >= n {
                continue;
            }
            let d = depth[i.index()].expect("visited with a depth");
            let after = match body.instrs[i].kind {
                InstrKind::AtomicBegin => d + 1,
                InstrKind::AtomicEnd => d.checked_sub(1).ok_or_else(|| at(i))?,
                InstrKind::Return(_) | InstrKind::ThreadExit(_) if d > 0 => return Err(at(i)),
                _ => d,
            };
            for s in body.successors(i) {
                match depth[s.index()] {
                    None => {
                        depth[s.index()] = Some(after);
                        work.push(s);
                    }
                    Some(x) if x != after => return Err(at(s)),
                    Some(_) => {}
                }
            }
        }
        let mut out = SecondaryMap::new();
        for (i, d) in depth.into_iter().enumerate() {
            // Unreachable locations count as interruptible (depth 0): no instance is there.
            out[InstrId::new(i)] = d.unwrap_or(0);
        }
        Ok(out)
    }
}

fn goto(target: usize) -> InstrKind {
    InstrKind::Goto {
        target: InstrId::new(target),
        cond: None,
        back_edge: None,
    }
}

#[cfg(test)]
mod tests;
