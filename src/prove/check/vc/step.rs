//! The effect of a step in the VC program: one instruction, a mutex operation through its
//! owner ghost, or a whole atomic section.

use super::*;

impl Vc<'_> {
    pub(super) fn effect(&mut self, b: &mut Branch, kind: &InstrKind, who: &Inst, k: usize) {
        let kind = who.ren.instr(kind);
        self.effect_renamed(b, &kind, who, k);
    }

    /// The effect of one instruction already renamed to `who`'s copy. Jumps have none here
    /// (the caller assumes the edge); instructions without a successor have none.
    pub(super) fn effect_renamed(
        &mut self,
        b: &mut Branch,
        kind: &InstrKind,
        who: &Inst,
        k: usize,
    ) {
        use InstrKind as K;
        match kind {
            K::Skip
            | K::Fence(_)
            | K::AtomicBegin
            | K::AtomicEnd
            // The lowering already replaced the approximated values by nondet ones.
            | K::Approximate(_)
            | K::MutexDestroy(_)
            | K::CondInit(_)
            | K::CondSignal(_)
            | K::CondBroadcast(_)
            | K::CondDestroy(_)
            | K::Free(_)
            | K::Goto { .. }
            | K::Return(_)
            | K::ThreadExit(_)
            | K::Halt
            | K::ThreadJoin { retval: None, .. } => {}
            K::Decl(v) => {
                let ty = self.prog.vars[*v].ty;
                b.emit(K::Nondet {
                    dst: Place::var(*v, ty),
                });
            }
            K::Assign { .. } | K::Nondet { .. } | K::Assume(_) | K::Alloc { .. } | K::Memset { .. } | K::Memcpy { .. } => {
                b.emit(kind.clone());
            }
            K::Assert { cond, .. } => {
                // Execution goes on only where the assertion holds (the safety check covers
                // where it does not).
                b.emit(K::Assume(cond.clone()));
            }
            K::ThreadCreate { handle, .. } => {
                b.emit(K::Nondet { dst: handle.clone() });
            }
            K::ThreadSelf { dst } => {
                b.emit(K::Nondet { dst: dst.clone() });
            }
            K::ThreadJoin {
                retval: Some(r), ..
            } => match self.prog.types.pointee(r.ty) {
                Some(pt) if self.prog.types.is_scalar(pt) => {
                    b.emit(K::Nondet {
                        dst: Place {
                            base: PlaceBase::Deref(Box::new(r.clone())),
                            projs: vec![],
                            ty: pt,
                        },
                    });
                }
                _ => {
                    let f = self.falsum();
                    self.assert(b, f, k, "a join's result pointer is not modelled".into());
                }
            },
            K::MutexInit(m) | K::MutexUnlock(m) => {
                let zero = Expr::constant(0, self.uint);
                self.dispatch(b, m, k, |_, b, owner| {
                    b.emit(K::Assign {
                        dst: owner,
                        src: zero.clone(),
                    });
                });
            }
            K::MutexLock(m) => {
                let me = self.cast(self.var(who.self_id), self.uint);
                let int = self.int;
                self.dispatch(b, m, k, |_, b, owner| {
                    let free = Expr {
                        kind: ExprKind::Binary(
                            BinOp::Eq,
                            Box::new(Expr::read(owner.clone())),
                            Box::new(Expr::constant(0, owner.ty)),
                        ),
                        ty: int,
                    };
                    b.emit(K::Assume(free));
                    b.emit(K::Assign {
                        dst: owner,
                        src: me.clone(),
                    });
                });
            }
            K::MutexTryLock { mutex, dst } => {
                let me = self.cast(self.var(who.self_id), self.uint);
                let int = self.int;
                let dst = dst.clone();
                self.dispatch(b, mutex, k, |_, b, owner| {
                    let free = Expr {
                        kind: ExprKind::Binary(
                            BinOp::Eq,
                            Box::new(Expr::read(owner.clone())),
                            Box::new(Expr::constant(0, owner.ty)),
                        ),
                        ty: int,
                    };
                    let to_free = b.goto(Some(free));
                    if let Some(d) = &dst {
                        b.emit(K::Assign {
                            dst: d.clone(),
                            src: Expr::constant(16, d.ty), // EBUSY
                        });
                    }
                    let to_end = b.goto(None);
                    let here = b.here();
                    b.patch(to_free, here);
                    b.emit(K::Assign {
                        dst: owner,
                        src: me.clone(),
                    });
                    if let Some(d) = &dst {
                        b.emit(K::Assign {
                            dst: d.clone(),
                            src: Expr::constant(0, d.ty),
                        });
                    }
                    let end = b.here();
                    b.patch(to_end, end);
                });
            }
            K::CondWait { .. } | K::Call { .. } => {
                let f = self.falsum();
                self.assert(b, f, k, "an instruction the checker does not model".into());
            }
        }
    }

    /// `if (m == &g1) { arm(owner(g1)) } else if ... else fail`, over every mutex global.
    pub(super) fn dispatch(
        &mut self,
        b: &mut Branch,
        m: &Expr,
        k: usize,
        arm: impl Fn(&mut Self, &mut Branch, Place),
    ) {
        let owners: Vec<(VarId, VarId)> =
            self.ts.mutex_owners.iter().map(|(a, b)| (*a, *b)).collect();
        let mut jumps = Vec::new();
        for &(g, _) in &owners {
            let a = self.target(&PtrTarget::Var(g), &Renaming::default(), m.ty);
            let c = self.cmp(BinOp::Eq, m.clone(), a);
            jumps.push(b.goto(Some(c)));
        }
        let f = self.falsum();
        self.assert(
            b,
            f,
            k,
            "a mutex operation on no mutex the prover knows".into(),
        );
        let mut ends = Vec::new();
        for (&(_, owner), j) in owners.iter().zip(jumps) {
            let here = b.here();
            b.patch(j, here);
            let ty = self.prog.vars[owner].ty;
            arm(self, b, Place::var(owner, ty));
            ends.push(b.goto(None));
        }
        let end = b.here();
        for e in ends {
            b.patch(e, end);
        }
        b.emit(InstrKind::Skip);
    }

    /// A whole atomic section of `who` from `s`, and every prefix of it that stops before an
    /// instruction that can block; `exits` collects the jumps to where the section is over.
    pub(super) fn section(
        &mut self,
        b: &mut Branch,
        who: &Inst,
        s: InstrId,
        k: usize,
        exits: &mut Vec<usize>,
    ) {
        let region = section(self.ts, who.t, s);
        let tpl = &self.ts.templates[who.t];
        let inside: HashSet<InstrId> = region.iter().copied().collect();
        let mut label: HashMap<InstrId, usize> = HashMap::new();
        let mut forward: Vec<(usize, InstrId)> = Vec::new();
        let jump_to = |b: &mut Branch,
                       label: &HashMap<InstrId, usize>,
                       forward: &mut Vec<(usize, InstrId)>,
                       exits: &mut Vec<usize>,
                       cond: Option<Expr>,
                       to: InstrId| {
            let at = b.goto(cond);
            if !inside.contains(&to) || tpl.atomic_depth[to] == 0 {
                exits.push(at);
            } else if let Some(&h) = label.get(&to) {
                b.patch(at, h);
                b.loops.push((h, at));
            } else {
                forward.push((at, to));
            }
        };
        for (n, &i) in region.iter().enumerate() {
            label.insert(i, b.here());
            let kind = who.ren.instr(&tpl.body.instrs[i].kind);
            if matches!(
                kind,
                InstrKind::Assume(_) | InstrKind::MutexLock(_) | InstrKind::ThreadJoin { .. }
            ) {
                b.emit(InstrKind::Nondet {
                    dst: Place::var(self.pick, self.int),
                });
                let c = self.var(self.pick);
                exits.push(b.goto(Some(c)));
            }
            let next = InstrId::new(i.index() + 1);
            match &kind {
                InstrKind::Goto { target, cond, .. } => {
                    self.updates(b, who, i);
                    jump_to(b, &label, &mut forward, exits, cond.clone(), *target);
                    if cond.is_some() {
                        jump_to(b, &label, &mut forward, exits, None, next);
                    }
                }
                InstrKind::Halt | InstrKind::Return(_) | InstrKind::ThreadExit(_) => {
                    b.emit(InstrKind::Halt);
                }
                _ => {
                    self.effect_renamed(b, &kind, who, k);
                    self.updates(b, who, i);
                    let falls = region.get(n + 1) == Some(&next);
                    if !falls {
                        jump_to(b, &label, &mut forward, exits, None, next);
                    }
                }
            }
        }
        for (at, to) in forward {
            b.patch(at, label[&to]);
        }
    }
}

/// Whether an instruction accesses memory through a pointer.
pub(super) fn dereferences(kind: &InstrKind) -> bool {
    let mut found = false;
    kind.walk_exprs(&mut |e| {
        if let ExprKind::Read(p) | ExprKind::AddrOf(p) = &e.kind {
            if matches!(p.base, PlaceBase::Deref(_)) {
                found = true;
            }
        }
    });
    let place = |p: &Place| matches!(p.base, PlaceBase::Deref(_));
    found
        || match kind {
            InstrKind::Assign { dst, .. } | InstrKind::Nondet { dst } => place(dst),
            InstrKind::Memset { .. }
            | InstrKind::Memcpy { .. }
            | InstrKind::Alloc { .. }
            | InstrKind::ThreadJoin {
                retval: Some(_), ..
            } => true,
            _ => false,
        }
}
