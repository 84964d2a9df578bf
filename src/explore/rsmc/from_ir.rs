//! C programs of a small subset as register programs for the POWER explorer: `main` only
//! creates threads (direct entry, constant argument) and joins them, then may check the
//! final state; thread functions are loop-free and call-free code over integer locals
//! (registers) and integer globals (locations); globals start at constant values; POWER
//! barriers come from `__yogar_sync()`, `__yogar_lwsync()`, `__yogar_isync()`.
//! Anything else is `unsupported`: the explorer never guesses a semantics.
//!
//! What `main` does after joining every thread runs on the final state of each trace: the
//! joins order all the threads' accesses before it, so its reads see the coherence-last
//! stores.

use cranelift_entity::EntityRef;

use super::program::{Expr, Fence, Instr, Op, Program, Reg, Thread};
use crate::ir::{
    self, BinOp, Callee, ExprKind, FenceKind, FuncId, InstrKind, Loc, PlaceBase, UnOp, VarId,
};
use crate::verdict::UnknownReason;

/// A translated C program.
pub struct CProgram {
    pub program: Program,
    /// Per thread and instruction, the C source location.
    pub locs: Vec<Vec<Loc>>,
    /// Per thread, its entry function.
    pub entries: Vec<FuncId>,
    /// What `main` does after the joins (run on final states), with its locations.
    pub epilogue: Option<(Thread, Vec<Loc>)>,
    /// The global variable of each location.
    pub vars: Vec<VarId>,
}

fn unsupported<T>(
    what: impl Into<String>,
    prog: &ir::Program,
    at: Loc,
) -> Result<T, UnknownReason> {
    Err(UnknownReason::Unsupported {
        what: what.into(),
        at: Some(prog.loc_str(at)),
    })
}

struct Tr<'a> {
    prog: &'a ir::Program,
    out: &'a mut Program,
    vars: &'a mut Vec<VarId>,
    th: Thread,
    locs: Vec<Loc>,
    func: FuncId,
    at: Loc,
    temps: u32,
    /// The thread's argument (its parameter's initial value); `None` for `main`, whose
    /// parameters are inputs the explorer does not enumerate.
    arg: Option<u64>,
    /// `main` checks the final state after the joins (see `translate`).
    halt_before_check: bool,
}

impl Tr<'_> {
    fn unsupported<T>(&self, what: impl Into<String>) -> Result<T, UnknownReason> {
        unsupported(what, self.prog, self.at)
    }

    fn emit(&mut self, i: Instr) {
        self.th.instrs.push(i);
        self.locs.push(self.at);
    }

    fn int_type(&self, ty: ir::TypeId) -> Result<(u32, bool), UnknownReason> {
        let t = &self.prog.types;
        if !t.is_integer(ty) {
            return self.unsupported(format!("non-integer value ({})", t.display(ty)));
        }
        Ok((t.bits(ty), t.is_signed(ty)))
    }

    fn norm(&self, e: Expr, ty: ir::TypeId) -> Result<Expr, UnknownReason> {
        let (bits, signed) = self.int_type(ty)?;
        if matches!(self.prog.types.get(ty), ir::Type::Bool) {
            return Ok(Expr::bin(Op::Ne, e, Expr::Const(0)));
        }
        Ok(if bits >= 64 {
            e
        } else {
            Expr::Ext(Box::new(e), bits, signed)
        })
    }

    /// The location of a global variable.
    fn location(&mut self, v: VarId) -> Result<usize, UnknownReason> {
        let d = &self.prog.vars[v];
        if !d.is_global() || d.thread_local {
            return self.unsupported(format!("access to '{}'", d.source_name));
        }
        self.int_type(d.ty)?;
        let l = self.out.loc(&d.name);
        if self.vars.len() <= l {
            self.vars.push(v);
        }
        Ok(l)
    }

    /// The register of a local variable.
    fn register(&mut self, v: VarId) -> Result<Reg, UnknownReason> {
        let d = &self.prog.vars[v];
        if d.is_global() || d.address_taken || d.thread_local {
            return self.unsupported(format!("'{}' as a register", d.source_name));
        }
        self.int_type(d.ty)?;
        let fresh = !self.th.regs.contains(&d.name);
        let r = self.th.reg(&d.name);
        if fresh && d.kind == ir::VarKind::Param(self.func) {
            let Some(arg) = self.arg else {
                return self.unsupported(format!("main's parameter '{}'", d.source_name));
            };
            // The argument converted to the parameter's type, as the thread reads it.
            let v = self.norm(Expr::Const(arg as i64), d.ty)?.eval(&|_| 0);
            self.th.init.push((r, v));
        }
        Ok(r)
    }

    fn place_var(&self, p: &ir::Place) -> Result<VarId, UnknownReason> {
        match (&p.base, p.projs.is_empty()) {
            (PlaceBase::Var(v), true) => Ok(*v),
            _ => self.unsupported("pointer, array or struct access"),
        }
    }

    fn expr(&mut self, e: &ir::Expr) -> Result<Expr, UnknownReason> {
        Ok(match &e.kind {
            ExprKind::Const(c) => self.norm(Expr::Const(*c as i64), e.ty)?,
            ExprKind::Read(p) => {
                let v = self.place_var(p)?;
                if self.prog.vars[v].is_global() {
                    let l = self.location(v)?;
                    self.temps += 1;
                    let r = self.th.reg(&format!("$t{}", self.temps));
                    self.emit(Instr::Load {
                        dst: r,
                        addr: Expr::Const(Program::address(l)),
                    });
                    Expr::Reg(r)
                } else {
                    Expr::Reg(self.register(v)?)
                }
            }
            ExprKind::Cast(x) => {
                let a = self.expr(x)?;
                self.int_type(x.ty)?;
                self.norm(a, e.ty)?
            }
            ExprKind::Unary(op, x) => {
                let a = self.expr(x)?;
                match op {
                    UnOp::Neg => self.norm(Expr::bin(Op::Sub, Expr::Const(0), a), e.ty)?,
                    UnOp::BitNot => self.norm(Expr::bin(Op::Xor, a, Expr::Const(-1)), e.ty)?,
                    UnOp::LogNot => Expr::bin(Op::Eq, a, Expr::Const(0)),
                }
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), x, y) => {
                self.logical(*op == BinOp::LogAnd, x, y)?
            }
            ExprKind::Binary(op, x, y) => {
                let a = self.expr(x)?;
                let b = self.expr(y)?;
                let (bits, signed) = self.int_type(x.ty)?;
                let cmp = |o: Op| -> Result<Expr, UnknownReason> {
                    // Values are kept extended by their type: a signed comparison of the
                    // 64-bit forms is exact unless the type is 64-bit unsigned.
                    if bits >= 64 && !signed {
                        return unsupported("64-bit unsigned comparison", self.prog, self.at);
                    }
                    Ok(Expr::bin(o, a.clone(), b.clone()))
                };
                match op {
                    BinOp::Add => self.norm(Expr::bin(Op::Add, a, b), e.ty)?,
                    BinOp::Sub => self.norm(Expr::bin(Op::Sub, a, b), e.ty)?,
                    BinOp::Mul => self.norm(Expr::bin(Op::Mul, a, b), e.ty)?,
                    BinOp::BitAnd => self.norm(Expr::bin(Op::And, a, b), e.ty)?,
                    BinOp::BitOr => self.norm(Expr::bin(Op::Or, a, b), e.ty)?,
                    BinOp::BitXor => self.norm(Expr::bin(Op::Xor, a, b), e.ty)?,
                    BinOp::Eq => Expr::bin(Op::Eq, a, b),
                    BinOp::Ne => Expr::bin(Op::Ne, a, b),
                    BinOp::SLt | BinOp::ULt => cmp(Op::Lt)?,
                    BinOp::SLe | BinOp::ULe => cmp(Op::Le)?,
                    BinOp::SGt | BinOp::UGt => cmp(Op::Gt)?,
                    BinOp::SGe | BinOp::UGe => cmp(Op::Ge)?,
                    _ => return self.unsupported(format!("operator {}", op.symbol())),
                }
            }
            _ => return self.unsupported("expression outside the POWER explorer's subset"),
        })
    }

    /// `x && y` (`and`) or `x || y`. When `y` reads a global, it is evaluated only when `x`
    /// does not decide, behind a branch, as C sequences it: loading it always would add a
    /// load whose dependencies (and `po-loc` to later accesses) order events that the
    /// program leaves unordered on POWER, losing traces.
    fn logical(&mut self, and: bool, x: &ir::Expr, y: &ir::Expr) -> Result<Expr, UnknownReason> {
        let truth = |v: Expr| Expr::bin(Op::Ne, v, Expr::Const(0));
        let a = truth(self.expr(x)?);
        let prog = self.prog;
        let mut loads = false;
        y.walk(&mut |e| {
            if let ExprKind::Read(p) = &e.kind {
                loads |= !matches!(p.base, PlaceBase::Var(v) if !prog.vars[v].is_global());
            }
        });
        if !loads {
            let b = truth(self.expr(y)?);
            return Ok(Expr::bin(if and { Op::And } else { Op::Or }, a, b));
        }
        self.temps += 1;
        let t = self.th.reg(&format!("$t{}", self.temps));
        self.emit(Instr::Assign { dst: t, e: a });
        let decided = Expr::bin(
            if and { Op::Eq } else { Op::Ne },
            Expr::Reg(t),
            Expr::Const(0),
        );
        let skip = self.th.instrs.len();
        self.emit(Instr::Branch {
            cond: decided,
            target: 0,
        });
        let b = truth(self.expr(y)?);
        self.emit(Instr::Assign { dst: t, e: b });
        let end = self.th.instrs.len();
        if let Instr::Branch { target, .. } = &mut self.th.instrs[skip] {
            *target = end;
        }
        Ok(Expr::Reg(t))
    }

    /// Translates the instructions `from..` of the function; `None` ends at the end.
    fn body(&mut self, from: usize) -> Result<(), UnknownReason> {
        let body = self.prog.funcs[self.func]
            .body
            .as_ref()
            .expect("a defined function");
        let n = body.instrs.len();
        let mut start = vec![0usize; n + 1];
        let mut fix: Vec<(usize, usize)> = Vec::new();
        let mut ends: Vec<usize> = Vec::new();
        for (k, first) in start.iter_mut().enumerate().take(n).skip(from) {
            let instr = &body.instrs[ir::InstrId::new(k)];
            self.at = instr.loc;
            *first = self.th.instrs.len();
            match &instr.kind {
                InstrKind::Skip | InstrKind::Decl(_) => {}
                InstrKind::Assign { dst, src } => {
                    let v = self.place_var(dst)?;
                    let val = self.expr(src)?;
                    if self.prog.vars[v].is_global() {
                        let l = self.location(v)?;
                        self.emit(Instr::Store {
                            addr: Expr::Const(Program::address(l)),
                            val,
                        });
                    } else {
                        let r = self.register(v)?;
                        self.emit(Instr::Assign { dst: r, e: val });
                    }
                }
                InstrKind::Assert { cond, .. } => {
                    let c = self.expr(cond)?;
                    self.emit(Instr::Assert { cond: c });
                }
                InstrKind::Goto {
                    target,
                    cond,
                    back_edge,
                } => {
                    if back_edge.is_some() || target.index() <= k {
                        return self.unsupported("loops in the POWER explorer");
                    }
                    let c = match cond {
                        Some(c) => {
                            let c = self.expr(c)?;
                            Expr::bin(Op::Ne, c, Expr::Const(0))
                        }
                        None => Expr::Const(1),
                    };
                    fix.push((self.th.instrs.len(), target.index()));
                    self.emit(Instr::Branch { cond: c, target: 0 });
                }
                InstrKind::Halt if self.halt_before_check && !after_failed_assert(body, k) => {
                    return self.unsupported("exit or abort in a thread before main's checks");
                }
                // Without checks in `main`, `exit` and `abort` may stop the thread only (as
                // in symbolic execution): no other thread observes the end, so the events
                // after it could as well run before it.
                InstrKind::Return(_) | InstrKind::ThreadExit(_) | InstrKind::Halt => {
                    ends.push(self.th.instrs.len());
                    self.emit(Instr::Branch {
                        cond: Expr::Const(1),
                        target: 0,
                    });
                }
                InstrKind::Fence(f) => {
                    self.emit(Instr::Fence(match f {
                        FenceKind::Sync => Fence::Sync,
                        FenceKind::Lwsync => Fence::Lwsync,
                        FenceKind::Isync => Fence::Isync,
                        FenceKind::Cprover => return self.unsupported(
                            "__CPROVER_fence on the POWER explorer (not mapped to a POWER barrier)",
                        ),
                    }))
                }
                _ => return self.unsupported("statement outside the POWER explorer's subset"),
            }
        }
        start[n] = self.th.instrs.len();
        let end = self.th.instrs.len();
        for (at, t) in fix {
            if let Instr::Branch { target, .. } = &mut self.th.instrs[at] {
                *target = start[t];
            }
        }
        for at in ends {
            if let Instr::Branch { target, .. } = &mut self.th.instrs[at] {
                *target = end;
            }
        }
        self.defined_before_use()
    }

    /// Every register is written on every path before it is read (C locals start
    /// indeterminate; a read of one would be a nondet input, which the explorer lacks).
    fn defined_before_use(&self) -> Result<(), UnknownReason> {
        let n = self.th.instrs.len();
        let all: u128 = u128::MAX;
        if self.th.regs.len() > 128 {
            return unsupported("more than 128 locals in a thread", self.prog, self.at);
        }
        let mut defined: Vec<u128> = vec![all; n + 1];
        let mut init: u128 = 0;
        for (r, _) in &self.th.init {
            init |= 1 << r;
        }
        defined[0] = init;
        for pc in 0..n {
            let d = defined[pc];
            let i = &self.th.instrs[pc];
            for r in i.uses() {
                if d >> r & 1 == 0 {
                    return unsupported(
                        format!(
                            "'{}' may be read before it is written",
                            self.th.regs[r as usize]
                        ),
                        self.prog,
                        self.locs[pc],
                    );
                }
            }
            let out = d | i.def().map_or(0, |r| 1u128 << r);
            match i {
                Instr::Branch { cond, target } => {
                    defined[*target] &= out;
                    if *cond != Expr::Const(1) {
                        defined[pc + 1] &= out;
                    }
                }
                _ => defined[pc + 1] &= out,
            }
            // A point reached by no edge keeps `all` (unreachable code reads nothing).
        }
        Ok(())
    }
}

/// Translates `prog`, or says what is outside the subset.
pub fn translate(prog: &ir::Program) -> Result<CProgram, UnknownReason> {
    let mut out = Program::default();
    let mut vars = Vec::new();
    let Some(main) = prog.main else {
        return Err(UnknownReason::unsupported("a program without main"));
    };
    // Initial values of globals: constants only.
    if let Some(body) = &prog.funcs[prog.init].body {
        for instr in body.instrs.values() {
            match &instr.kind {
                InstrKind::Skip | InstrKind::Return(None) => {}
                // Strings and other aggregates: no thread can access them (accesses
                // with projections are outside the subset).
                InstrKind::Assign { dst, .. }
                    if !dst.projs.is_empty()
                        || matches!(dst.base, PlaceBase::Var(v)
                            if !prog.types.is_integer(prog.vars[v].ty)) => {}
                InstrKind::Assign { dst, src } => {
                    let (PlaceBase::Var(v), true, Some(c)) =
                        (&dst.base, dst.projs.is_empty(), src.as_const())
                    else {
                        return unsupported("non-constant initialiser", prog, instr.loc);
                    };
                    let d = &prog.vars[*v];
                    if !prog.types.is_integer(d.ty) {
                        return unsupported("non-integer global", prog, instr.loc);
                    }
                    let l = out.loc(&d.name);
                    if vars.len() <= l {
                        vars.push(*v);
                    }
                    out.init[l] = super::program::extend(
                        c as i64,
                        prog.types.bits(d.ty),
                        prog.types.is_signed(d.ty),
                    );
                }
                _ => return unsupported("initialiser outside the subset", prog, instr.loc),
            }
        }
    }
    if prog.funcs[prog.tls_init].body.as_ref().is_some_and(|b| {
        b.instrs
            .values()
            .any(|i| !matches!(i.kind, InstrKind::Skip | InstrKind::Return(None)))
    }) {
        return Err(UnknownReason::unsupported("thread-local variables"));
    }
    let body = prog.funcs[main].body.as_ref().expect("main has a body");
    let mut entries: Vec<(FuncId, u64)> = Vec::new();
    let mut handles: Vec<ir::Place> = Vec::new();
    // Temporaries holding a handle's value: the lowering reads a join's operand first.
    let mut read_handles: Vec<(ir::VarId, ir::Place)> = Vec::new();
    let mut joins = 0;
    let mut rest = None;
    for (id, instr) in body.instrs.iter() {
        if joins > 0 && joins == entries.len() {
            rest = Some(id.index());
            break;
        }
        match &instr.kind {
            InstrKind::Skip | InstrKind::Decl(_) => {}
            InstrKind::ThreadCreate { entry, arg, handle } if joins == 0 => {
                read_handles.clear();
                handles.push(handle.clone());
                let Callee::Direct(f) = entry else {
                    return unsupported("indirect thread entry", prog, instr.loc);
                };
                let a = match &arg.kind {
                    ExprKind::Const(c) => Some(*c),
                    ExprKind::Cast(x) => x.as_const(),
                    _ => None,
                };
                let Some(a) = a else {
                    return unsupported("non-constant thread argument", prog, instr.loc);
                };
                entries.push((*f, a));
            }
            // A handle read into a temporary for a join (the lowering reads a join's operand
            // first); a creation in between could rewrite the handle, so it forgets them.
            InstrKind::Assign { dst, src } => match (&dst.base, dst.projs.is_empty(), &src.kind) {
                (ir::PlaceBase::Var(t), true, ExprKind::Read(p))
                    if handles.contains(p)
                        && matches!(prog.vars[*t].kind, ir::VarKind::Temp(_)) =>
                {
                    read_handles.push((*t, (**p).clone()))
                }
                _ => {
                    return unsupported(
                        "main does more than create and join threads",
                        prog,
                        instr.loc,
                    )
                }
            },
            // Each join must name a different created thread's handle.
            InstrKind::ThreadJoin {
                retval: None,
                thread,
            } => {
                let handle = match &thread.kind {
                    ExprKind::Read(p) => match (&p.base, p.projs.is_empty()) {
                        (ir::PlaceBase::Var(t), true) => read_handles
                            .iter()
                            .find(|(v, _)| v == t)
                            .map(|(_, h)| h.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                match handle {
                    Some(h) if handles.contains(&h) => {
                        handles.retain(|x| x != &h);
                        joins += 1;
                    }
                    _ => return unsupported("join of an unknown thread handle", prog, instr.loc),
                }
            }
            InstrKind::Return(_) => break,
            _ => {
                return unsupported(
                    "main does more than create and join threads",
                    prog,
                    instr.loc,
                )
            }
        }
    }
    // Checks in `main` after the joins: a thread's `exit` or `abort` ends the program before
    // them, which ending that thread alone cannot express.
    let halt_before_check = rest.is_some_and(|k| {
        body.instrs
            .values()
            .skip(k)
            .any(|i| matches!(i.kind, InstrKind::Assert { .. }))
    });
    let mut locs = Vec::new();
    let mut funcs = Vec::new();
    for (f, arg) in &entries {
        let mut tr = Tr {
            prog,
            out: &mut out,
            vars: &mut vars,
            th: Thread {
                name: prog.funcs[*f].name.clone(),
                ..Thread::default()
            },
            locs: Vec::new(),
            func: *f,
            at: prog.funcs[*f].loc,
            temps: 0,
            arg: Some(*arg),
            halt_before_check,
        };
        if prog.funcs[*f].body.is_none() {
            return unsupported("thread entry without a body", prog, tr.at);
        }
        tr.body(0)?;
        let (th, l) = (tr.th, tr.locs);
        out.threads.push(th);
        locs.push(l);
        funcs.push(*f);
    }
    let epilogue = match rest {
        Some(k) => {
            let mut tr = Tr {
                prog,
                out: &mut out,
                vars: &mut vars,
                th: Thread {
                    name: "main".into(),
                    ..Thread::default()
                },
                locs: Vec::new(),
                func: main,
                at: prog.funcs[main].loc,
                temps: 0,
                arg: None,
                halt_before_check: false,
            };
            tr.body(k)?;
            Some((tr.th, tr.locs))
        }
        None => None,
    };
    if out.threads.is_empty() {
        return Err(UnknownReason::unsupported(
            "a program without threads (the POWER explorer needs pthread_create)",
        ));
    }
    Ok(CProgram {
        program: out,
        locs,
        entries: funcs,
        epilogue,
        vars,
    })
}

/// Runs final-state code on the final memory `mem`: the index of the failing assertion, if
/// one fails. Its accesses have constant addresses of locations (see `Tr::expr`).
pub fn run_epilogue(th: &Thread, prog: &Program, mut mem: Vec<i64>) -> Option<usize> {
    let location = |a: i64| prog.location_at(a).expect("a location's address");
    let mut regs = vec![0i64; th.regs.len()];
    for (r, v) in &th.init {
        regs[*r as usize] = *v;
    }
    let mut pc = 0;
    while pc < th.instrs.len() {
        let ev = |e: &Expr, regs: &[i64]| e.eval(&|r| regs[r as usize]);
        match &th.instrs[pc] {
            Instr::Assign { dst, e } => regs[*dst as usize] = ev(e, &regs),
            Instr::Load { dst, addr } => {
                regs[*dst as usize] = mem[location(ev(addr, &regs))];
            }
            Instr::Store { addr, val } => {
                mem[location(ev(addr, &regs))] = ev(val, &regs);
            }
            Instr::Branch { cond, target } => {
                if ev(cond, &regs) != 0 {
                    pc = *target;
                    continue;
                }
            }
            Instr::Assert { cond } => {
                if ev(cond, &regs) == 0 {
                    return Some(pc);
                }
            }
            Instr::Fence(_) => {}
        }
        pc += 1;
    }
    None
}

/// Whether instruction `k` is reached only right after an assertion that always fails (the
/// `Halt` of `__assert_fail`): the thread stops at that violation, never at the `Halt`.
fn after_failed_assert(body: &ir::Body, k: usize) -> bool {
    let failed = k > 0
        && matches!(&body.instrs[ir::InstrId::new(k - 1)].kind,
            InstrKind::Assert { cond, .. } if cond.as_const() == Some(0));
    failed
        && !body
            .instrs
            .values()
            .any(|i| matches!(&i.kind, InstrKind::Goto { target, .. } if target.index() == k))
}
