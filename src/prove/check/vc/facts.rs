//! Expressions, assertions and the invariants of a branch: establishing pre-invariants,
//! asserting post-invariants, and the facts about the `self` ghosts.

use super::*;

impl Vc<'_> {
    pub(super) fn var(&self, v: VarId) -> Expr {
        Expr::read(Place::var(v, self.prog.vars[v].ty))
    }

    pub(super) fn cmp(&self, op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            ty: self.int,
        }
    }

    pub(super) fn cast(&self, e: Expr, ty: TypeId) -> Expr {
        if e.ty == ty {
            e
        } else {
            Expr {
                kind: ExprKind::Cast(Box::new(e)),
                ty,
            }
        }
    }

    pub(super) fn not(&self, e: Expr) -> Expr {
        Expr {
            kind: ExprKind::Unary(UnOp::LogNot, Box::new(e)),
            ty: self.int,
        }
    }

    pub(super) fn or(&self, a: Expr, b: Expr) -> Expr {
        self.cmp(BinOp::LogOr, a, b)
    }

    pub(super) fn falsum(&self) -> Expr {
        Expr::constant(0, self.int)
    }

    /// The address a pointer target stands for, as a value of type `ty`.
    pub(super) fn target(&mut self, t: &PtrTarget, ren: &Renaming, ty: TypeId) -> Expr {
        match t {
            PtrTarget::Null => Expr::constant(0, ty),
            PtrTarget::Var(v) => {
                let v = ren.var(*v);
                let vty = self.prog.vars[v].ty;
                let pty = self.prog.types.pointer(vty);
                let a = Expr {
                    kind: ExprKind::AddrOf(Box::new(Place::var(v, vty))),
                    ty: pty,
                };
                self.cast(a, ty)
            }
            PtrTarget::Func(f) => {
                let fty = self.prog.funcs[*f].ty;
                let pty = self.prog.types.pointer(fty);
                let a = Expr {
                    kind: ExprKind::FuncAddr(*f),
                    ty: pty,
                };
                self.cast(a, ty)
            }
        }
    }

    pub(super) fn assert(&mut self, b: &mut Branch, cond: Expr, k: usize, reason: String) {
        let prop = self.prog.props.push(Property {
            kind: PropKind::Assert,
            loc: b.loc,
            func: self.main,
        });
        self.props.insert(prop, k);
        self.reasons.insert(prop, reason);
        b.emit(InstrKind::Assert { cond, prop });
    }

    /// Assumes the invariants (points-to facts assigned first, then every condition).
    pub(super) fn establish(&mut self, b: &mut Branch, invs: &[(&Invariant, &Renaming)]) {
        for (inv, ren) in invs {
            if inv.unreachable {
                b.emit(InstrKind::Assume(self.falsum()));
            }
            for f in &inv.facts {
                if let Fact::PointsTo { var, targets } = f {
                    let v = ren.var(*var);
                    let ty = self.prog.vars[v].ty;
                    if b.built.insert(v) {
                        // v := t_last, then v := pick ? t_i : v for the others, each pick a
                        // fresh nondet.
                        let last = self.target(&targets[targets.len() - 1], ren, ty);
                        b.emit(InstrKind::Assign {
                            dst: Place::var(v, ty),
                            src: last,
                        });
                        for tg in targets[..targets.len() - 1].iter().rev() {
                            b.emit(InstrKind::Nondet {
                                dst: Place::var(self.pick, self.int),
                            });
                            let t = self.target(tg, ren, ty);
                            let value = Expr {
                                kind: ExprKind::Ite(
                                    Box::new(self.var(self.pick)),
                                    Box::new(t),
                                    Box::new(self.var(v)),
                                ),
                                ty,
                            };
                            b.emit(InstrKind::Assign {
                                dst: Place::var(v, ty),
                                src: value,
                            });
                        }
                    } else {
                        let m = self.member(v, targets, ren);
                        b.emit(InstrKind::Assume(m));
                    }
                }
            }
        }
        for (inv, ren) in invs {
            for f in &inv.facts {
                if let Fact::Holds(e) = f {
                    let c = ren.expr(e);
                    b.emit(InstrKind::Assume(c));
                }
            }
        }
    }

    /// `v == t0 || v == t1 || ...`.
    pub(super) fn member(&mut self, v: VarId, targets: &[PtrTarget], ren: &Renaming) -> Expr {
        let ty = self.prog.vars[v].ty;
        let mut out: Option<Expr> = None;
        for tg in targets {
            let a = self.target(tg, ren, ty);
            let eq = self.cmp(BinOp::Eq, self.var(v), a);
            out = Some(match out {
                None => eq,
                Some(o) => self.or(o, eq),
            });
        }
        out.unwrap_or_else(|| self.falsum())
    }

    /// Asserts an invariant, fact by fact.
    pub(super) fn require(
        &mut self,
        b: &mut Branch,
        inv: &Invariant,
        ren: &Renaming,
        k: usize,
        what: &str,
    ) {
        if inv.unreachable {
            let f = self.falsum();
            self.assert(b, f, k, format!("{what} is unreachable, but is reached"));
            return;
        }
        for (n, f) in inv.facts.iter().enumerate() {
            let cond = match f {
                Fact::Holds(e) => ren.expr(e),
                Fact::PointsTo { var, targets } => {
                    let v = ren.var(*var);
                    self.member(v, targets, ren)
                }
            };
            self.assert(b, cond, k, format!("fact {n} of {what} may not hold"));
        }
    }

    pub(super) fn self_ok(&self, b: &mut Branch, insts: &[&Inst]) {
        for i in insts {
            let c = self.cmp(BinOp::Ne, self.var(i.self_id), Expr::constant(0, self.uint));
            b.emit(InstrKind::Assume(c));
        }
        for (n, a) in insts.iter().enumerate() {
            for c in &insts[n + 1..] {
                let d = self.cmp(BinOp::Ne, self.var(a.self_id), self.var(c.self_id));
                b.emit(InstrKind::Assume(d));
            }
        }
    }

    /// A created instance's `self` differs from the value of every mutex owner and of every
    /// ghost whose updates all assign `SelfId` or 0 (checked here, ghost by ghost; a ghost
    /// that is ever assigned another constant, such as a phase, is left out): by induction
    /// over an execution, each such ghost and owner holds 0 or the `self` of an instance
    /// created before (it starts at 0, and only the executing instance's `self` or 0 is ever
    /// assigned to it), and a fresh instance's `self` is non-zero and differs from every
    /// earlier instance's, finished ones included.
    pub(super) fn fresh_self(&self, b: &mut Branch, new: &Inst) {
        let owner_like = |g: &VarId| {
            self.cert
                .updates
                .iter()
                .filter(|u| u.ghost == *g)
                .all(|u| matches!(u.value, GhostValue::SelfId | GhostValue::Const(0)))
        };
        let ghosts = self.cert.ghosts.iter().filter(|g| owner_like(g));
        for g in ghosts.chain(self.ts.mutex_owners.values()) {
            let d = self.cmp(BinOp::Ne, self.var(new.self_id), self.var(*g));
            b.emit(InstrKind::Assume(d));
        }
    }

    pub(super) fn inst(&self, t: TemplateId, second: bool) -> Inst {
        let ren = if second {
            self.second[&t].clone()
        } else {
            Renaming::default()
        };
        let self_id = ren.var(self.ts.templates[t].self_id);
        Inst { t, ren, self_id }
    }

    pub(super) fn what(&self, t: TemplateId, l: InstrId) -> String {
        let name = &self.ts.program.funcs[self.ts.templates[t].entry].name;
        format!("the invariant of {name} at location {}", l.index())
    }
}
