//! Loads and stores through pointers, and the accesses a computed pointer makes to objects
//! created later (open accesses, closed once every thread has run).

use std::collections::BTreeMap;

use cranelift_entity::EntityRef;
use encoder::{AccessKind, BitVec, Event, EventData, Thread};
use solver_glue::Lit;

use super::{OpenAccess, Via, INVALID_WRITE, UNPREDICTED};
use crate::ir::Loc;
use crate::sharing::ObjSet;
use crate::symex::exec::Symex;
use crate::symex::memory::ObjId;
use crate::symex::state::{State, Val};
use crate::symex::{unsupported, Check, CheckKind, EventInfo, SymexError};

impl Symex<'_, '_, '_> {
    /// A memory read of `bits` bits at pointer `p` + `lo` (`via`: the pointer's expression;
    /// `inexact`: why it would not be exact in a byte object, see `Symex::read_cell`).
    #[allow(clippy::too_many_arguments)]
    pub fn load(
        &mut self,
        p: &BitVec,
        lo: u64,
        bits: u32,
        inexact: Option<&'static str>,
        s: &mut State,
        guard: Lit,
        via: Via<'_>,
    ) -> Result<BitVec, SymexError> {
        let cells = self.cells_at(p, lo, bits, guard, via)?;
        let violation = self.deref_check(p, lo, bits, guard, via, s)?;
        if let Some(may) = cells.later {
            let v = self.enc.bv_fresh(bits);
            let mut conds = Vec::new();
            for (o, off, cond) in cells.now {
                let g = self.enc.and(guard, cond);
                let Some(val) = self.read_cell(o, off, bits, inexact, g, s)? else {
                    continue;
                };
                let same = self.enc.bv_eq(&v, &val);
                self.enc.assert_implies(g, same);
                conds.push(cond);
            }
            self.open_access(
                p,
                lo,
                AccessKind::Read,
                v.clone(),
                inexact,
                guard,
                s,
                may,
                conds,
                violation,
            );
            return Ok(v);
        }
        // When no cell may be hit, the value is arbitrary (see `CheckKind::InvalidRead`): the
        // alternatives are chosen over a fresh value, not over the last candidate's.
        let mut acc: Option<BitVec> = None;
        let mut hits = Vec::new();
        let mut conds_all = Vec::new();
        for (o, off, cond) in cells.now.into_iter().rev() {
            let g = self.enc.and(guard, cond);
            let Some(v) = self.read_cell(o, off, bits, inexact, g, s)? else {
                continue;
            };
            hits.push(cond);
            conds_all.push((cond, v));
        }
        let any = self.enc.or_all(&hits);
        let bad = self.enc.and(guard, !any);
        // A violation of valid-memsafety is the error there, not an approximation.
        let bad = self.enc.and(bad, !violation);
        let exact = self.enc.const_value(bad) == Some(false);
        for (i, (cond, v)) in conds_all.into_iter().enumerate() {
            acc = Some(match acc {
                None if exact || i > 0 => v,
                None => {
                    let fresh = self.enc.bv_fresh(bits);
                    self.enc.bv_ite(cond, &v, &fresh)
                }
                Some(a) => self.enc.bv_ite(cond, &v, &a),
            });
        }
        if !exact {
            self.check(CheckKind::InvalidRead, bad);
        }
        Ok(acc.unwrap_or_else(|| self.enc.bv_fresh(bits)))
    }

    /// A memory write of a scalar at pointer `p` + `lo` (`via`: the pointer's expression;
    /// `inexact`: as for [`Symex::load`]).
    #[allow(clippy::too_many_arguments)]
    pub fn store_through(
        &mut self,
        p: &BitVec,
        lo: u64,
        v: Val,
        bits: u32,
        inexact: Option<&'static str>,
        guard: Lit,
        s: &mut State,
        via: Via<'_>,
    ) -> Result<(), SymexError> {
        let Val::Scalar(v) = v else {
            return unsupported("store of an aggregate through a pointer leaf");
        };
        let cells = self.cells_at(p, lo, bits, guard, via)?;
        let violation = self.deref_check(p, lo, bits, guard, via, s)?;
        let mut hits = Vec::new();
        for (o, off, cond) in cells.now {
            let g = self.enc.and(guard, cond);
            if !self.write_cell(o, off, &v, inexact, g, s)? {
                continue;
            }
            hits.push(cond);
        }
        if let Some(may) = cells.later {
            self.open_access(
                p,
                lo,
                AccessKind::Write,
                v,
                inexact,
                guard,
                s,
                may,
                hits,
                violation,
            );
            return Ok(());
        }
        let any = self.enc.or_all(&hits);
        let bad = self.enc.and(guard, !any);
        let bad = self.enc.and(bad, !violation);
        self.unsupported_check(INVALID_WRITE, bad);
        Ok(())
    }

    /// Records an access that objects made later may still take.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn open_access(
        &mut self,
        p: &BitVec,
        lo: u64,
        kind: AccessKind,
        value: BitVec,
        inexact: Option<&'static str>,
        guard: Lit,
        s: &State,
        may: ObjSet,
        conds: Vec<Lit>,
        violation: Lit,
    ) {
        if kind == AccessKind::Write {
            self.effects.push(guard);
        }
        self.open.push(OpenAccess {
            thread: self.cur,
            pos: self.eq.threads[self.cur].items.len(),
            ptr: p.clone(),
            lo,
            bits: value.width(),
            guard,
            kind,
            value,
            inexact,
            atomic: s.block(),
            loc: self.loc,
            may,
            made: self.mem.objects.len(),
            conds,
            violation,
        });
    }

    /// Once every thread has run: the alternatives of the open accesses for the objects made
    /// after them, at their places in program order, and their invalid-access checks.
    pub(in crate::symex) fn close_open_accesses(&mut self) -> Result<(), SymexError> {
        // (position, event, where, whether it is a further byte of the access before it)
        let mut inserts: BTreeMap<Thread, Vec<(usize, EventData, Loc, bool)>> = BTreeMap::new();
        let mut sections = std::collections::HashSet::new();
        for a in std::mem::take(&mut self.open) {
            sections.extend(a.atomic);
            let (obj_part, off) = self.split_pointer(&a.ptr, a.lo);
            let mut cells = Vec::new();
            for i in a.made..self.mem.objects.len() {
                if self.abs[i].is_some_and(|x| a.may.contains(&x)) {
                    let o = ObjId::new(i);
                    self.object_cells(o, &obj_part, &off, a.bits, a.guard, None, &mut cells)?;
                }
            }
            let mut conds = a.conds;
            for (o, c, cond) in cells {
                let Some(pieces) = self.pieces(o, c, a.bits)? else {
                    continue;
                };
                conds.push(cond);
                let g = self.enc.and(a.guard, cond);
                if self.private_owner.contains_key(&o) {
                    // The owner's accesses stayed on its path: this one cannot see them.
                    self.unpredicted.push(format!(
                        "{} made late but private",
                        self.mem.objects[o].name
                    ));
                    self.checks.push(Check {
                        kind: CheckKind::Unsupported(UNPREDICTED.into()),
                        lit: g,
                        loc: a.loc,
                        thread: a.thread,
                    });
                    continue;
                }
                if let (Some(why), true) = (a.inexact, self.mem.objects[o].bytes) {
                    self.checks.push(Check {
                        kind: CheckKind::Unsupported(why.into()),
                        lit: g,
                        loc: a.loc,
                        thread: a.thread,
                    });
                }
                // The pieces' values, lowest first (see `read_cell`, `write_cell`).
                let values = match a.kind {
                    AccessKind::Read => {
                        let vals: Vec<BitVec> = pieces
                            .iter()
                            .map(|&(_, b, _)| self.enc.bv_fresh(b))
                            .collect();
                        let val = self.join_pieces(vals.clone(), a.bits);
                        let same = self.enc.bv_eq(&a.value, &val);
                        self.enc.assert_implies(g, same);
                        vals
                    }
                    AccessKind::Write => self.split_pieces(&a.value, pieces.len()),
                };
                // The bytes of one access are one step (see `access_block`).
                let atomic = match a.atomic {
                    None if pieces.len() > 1 => Some(self.eq.new_atomic_block()),
                    b => b,
                };
                for (i, ((_, _, loc), value)) in pieces.into_iter().zip(values).enumerate() {
                    let data = EventData {
                        thread: a.thread,
                        location: loc,
                        kind: a.kind,
                        guard: g,
                        value,
                        atomic,
                        source: None,
                    };
                    inserts
                        .entry(a.thread)
                        .or_default()
                        .push((a.pos, data, a.loc, i > 0));
                }
            }
            let any = self.enc.or_all(&conds);
            let bad = self.enc.and(a.guard, !any);
            let bad = self.enc.and(bad, !a.violation);
            if self.enc.const_value(bad) != Some(false) {
                self.checks.push(Check {
                    kind: match a.kind {
                        AccessKind::Read => CheckKind::InvalidRead,
                        AccessKind::Write => CheckKind::Unsupported(INVALID_WRITE.into()),
                    },
                    lit: bad,
                    loc: a.loc,
                    thread: a.thread,
                });
            }
        }
        self.close_memsafety(&mut inserts, &mut sections);
        for (t, list) in inserts {
            // An open access's own block is its section's (`OpenAccess::atomic`, the path's
            // section), unless it is the block of its bytes, made above.
            let info: Vec<(Loc, bool, bool)> = list
                .iter()
                .map(|(_, d, l, c)| (*l, *c, d.atomic.is_some_and(|b| sections.contains(&b))))
                .collect();
            let events = self
                .eq
                .insert_events(t, list.into_iter().map(|(pos, d, _, _)| (pos, d)));
            let mut group: Vec<Event> = Vec::new();
            for (e, (loc, cont, section)) in events.into_iter().zip(info) {
                self.event_info[e] = EventInfo {
                    loc,
                    section,
                    ..Default::default()
                };
                if !cont {
                    self.link_pieces(&std::mem::take(&mut group));
                }
                group.push(e);
            }
            self.link_pieces(&group);
        }
        Ok(())
    }
}
