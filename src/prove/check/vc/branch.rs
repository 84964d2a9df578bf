//! One branch of the VC program: the havoc, the pre-invariants, the step and the
//! post-invariant of one obligation.

use super::step::dereferences;
use super::*;

impl Vc<'_> {
    /// The branch of obligation `k`: havoc, then the check.
    pub(super) fn branch(&mut self, k: usize, o: &Obligation) -> Branch {
        let ts = self.ts;
        let cert = self.cert;
        let tpl = &ts.templates[o.template];
        let mut b = Branch {
            loc: tpl.body.instrs.get(o.at).map_or(Loc::default(), |i| i.loc),
            ..Branch::default()
        };
        let me = self.inst(o.template, false);
        match o.kind {
            Kind::Initiation => {
                self.self_ok(&mut b, &[&me]);
                let inv = invariant(cert, o.template, o.at);
                let what = self.what(o.template, o.at);
                self.require(&mut b, inv, &me.ren, k, &what);
            }
            Kind::Safety => {
                let inv = invariant(cert, o.template, o.at);
                self.establish(&mut b, &[(inv, &me.ren)]);
                self.self_ok(&mut b, &[&me]);
                if let InstrKind::Assert { cond, .. } = &tpl.body.instrs[o.at].kind {
                    let at = ts.program.loc_str(b.loc);
                    self.assert(
                        &mut b,
                        cond.clone(),
                        k,
                        format!("the assertion at {at} may fail"),
                    );
                }
            }
            Kind::Consecution => {
                let to = o.to.expect("consecution has a successor");
                let inv = invariant(cert, o.template, o.at);
                self.establish(&mut b, &[(inv, &me.ren)]);
                self.self_ok(&mut b, &[&me]);
                let kind = tpl.body.instrs[o.at].kind.clone();
                if let InstrKind::Goto {
                    target,
                    cond: Some(c),
                    ..
                } = &kind
                {
                    let next = InstrId::new(o.at.index() + 1);
                    if *target == to && next != to {
                        b.emit(InstrKind::Assume(c.clone()));
                    } else if *target != to {
                        let n = self.not(c.clone());
                        b.emit(InstrKind::Assume(n));
                    }
                }
                self.effect(&mut b, &kind, &me, k);
                self.updates(&mut b, &me, o.at);
                let post = invariant(cert, o.template, to);
                let what = self.what(o.template, to);
                self.require(&mut b, post, &me.ren, k, &what);
            }
            Kind::Creation => {
                let (t, l) = o.other.expect("creation has a creator");
                let creator = self.inst(t, false);
                let new = self.inst(o.template, true);
                b.loc = ts.templates[t].body.instrs[l].loc;
                let inv = invariant(cert, t, l);
                self.establish(&mut b, &[(inv, &creator.ren)]);
                let kind = ts.templates[t].body.instrs[l].kind.clone();
                if ts.templates[t].atomic_depth[l] > 0 {
                    // The creator's section goes on before the new thread runs: its entry
                    // invariant would have to be stable against the rest of the section,
                    // which no check covers.
                    let f = self.falsum();
                    self.assert(
                        &mut b,
                        f,
                        k,
                        "a thread created inside an atomic section".into(),
                    );
                }
                self.effect(&mut b, &kind, &creator, k);
                self.updates(&mut b, &creator, l);
                self.self_ok(&mut b, &[&creator, &new]);
                self.fresh_self(&mut b, &new);
                if let (InstrKind::ThreadCreate { arg, .. }, Some(p)) =
                    (&kind, ts.templates[o.template].param)
                {
                    let p = new.ren.var(p);
                    let ty = self.prog.vars[p].ty;
                    let src = self.cast(arg.clone(), ty);
                    b.emit(InstrKind::Assign {
                        dst: Place::var(p, ty),
                        src,
                    });
                }
                let post = invariant(cert, o.template, o.at);
                let what = self.what(o.template, o.at);
                self.require(&mut b, post, &new.ren, k, &what);
            }
            Kind::Stability => {
                let (u, s) = o.other.expect("stability has a step");
                let other = self.inst(u, true);
                let inv = invariant(cert, o.template, o.at);
                let pre_u = invariant(cert, u, s);
                self.establish(&mut b, &[(inv, &me.ren), (pre_u, &other.ren)]);
                self.self_ok(&mut b, &[&me, &other]);
                let utpl = &ts.templates[u];
                let mut exits = Vec::new();
                if matches!(utpl.body.instrs[s].kind, InstrKind::AtomicBegin) {
                    self.section(&mut b, &other, s, k, &mut exits);
                } else {
                    let kind = other.ren.instr(&utpl.body.instrs[s].kind);
                    self.effect_renamed(&mut b, &kind, &other, k);
                    self.updates(&mut b, &other, s);
                }
                let x = b.here();
                for e in exits {
                    b.patch(e, x);
                }
                let what = self.what(o.template, o.at);
                self.require(&mut b, inv, &me.ren, k, &what);
            }
        }
        b.emit(InstrKind::Halt);
        self.havoc(b, o)
    }

    /// Prefixes the branch with the havoc of what it mentions.
    pub(super) fn havoc(&mut self, b: Branch, o: &Obligation) -> Branch {
        let mut vars = Vec::new();
        let mut deref = false;
        for ins in &b.code {
            instr_vars(&ins.kind, &mut vars);
            deref |= dereferences(&ins.kind);
        }
        let mut set: Vec<VarId> = if o.kind == Kind::Initiation {
            let main: HashSet<VarId> = self.ts.templates[self.ts.main]
                .locals
                .iter()
                .copied()
                .collect();
            vars.into_iter().filter(|v| main.contains(v)).collect()
        } else {
            let mut v = vars;
            if deref {
                v.extend(self.addressed.iter().copied());
            }
            v
        };
        set.sort();
        set.dedup();
        let mut out = Branch {
            loc: b.loc,
            ..Branch::default()
        };
        for v in &set {
            let ty = self.prog.vars[*v].ty;
            out.emit(InstrKind::Nondet {
                dst: Place::var(*v, ty),
            });
        }
        let shift = out.code.len();
        for (h, e) in b.loops {
            out.loops.push((h + shift, e + shift));
        }
        for mut ins in b.code {
            if let InstrKind::Goto { target, .. } = &mut ins.kind {
                *target = InstrId::new(target.index() + shift);
            }
            out.code.push(ins);
        }
        out
    }

    pub(super) fn updates(&mut self, b: &mut Branch, who: &Inst, at: InstrId) {
        for up in &self.cert.updates {
            if up.template == who.t && up.at == at {
                let ty = self.prog.vars[up.ghost].ty;
                let src = match up.value {
                    GhostValue::SelfId => self.cast(self.var(who.self_id), ty),
                    GhostValue::Const(c) => Expr::constant(c, ty),
                };
                b.emit(InstrKind::Assign {
                    dst: Place::var(up.ghost, ty),
                    src,
                });
            }
        }
    }
}
