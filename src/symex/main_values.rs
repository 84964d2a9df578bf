//! Values only `main` writes: a thread reads them without an event, and so does `main`.
//!
//! A cell of a shared object that no thread but `main` writes, and that `main` does not write
//! after it created the reading thread (or that thread's ancestor among `main`'s children),
//! holds at every read of that thread the value `main` left in it at the create: the initial
//! value, overwritten by each of `main`'s writes before the create whose guard holds, in
//! program order. The read then takes that value directly and is no event of the equation.
//! Where the value comes through a pointer (a thread's argument struct), the pointer becomes a
//! constant and its dereferences stop splitting over every cell it might designate: on
//! bounded_buffer at unwind 5 the equation shrinks from 13,001 events to 788.
//!
//! Which cells qualify: those of an object the sharing pass says no other thread may write
//! ([`crate::sharing::Sharing::only_main_writes`]), and, on a guess, a cell of an object a
//! thread does write when it is one of several cells (a struct whose threads write other
//! fields). Every read taken so is recorded, and once all threads have run the equation is
//! checked: a recorded cell with a write by another thread, or by `main` at or after the
//! reader's create, makes the execution a wrong guess, discarded and redone without guessing
//! that cell (`exec::run`; after a second wrong round without guessing, after a third without
//! main's values at all).
//!
//! Not for heap cells under no-data-race, where `free` writes cells as events made after
//! the threads ran (the check of the guesses would not see them).
//!
//! Soundness, under sequential consistency: let `r` read cell `c` in thread `T` and let `m`
//! be `main`'s create of `T`'s ancestor. The equation kept has, for `c`, only the initial write
//! and writes of `main` emitted before `m` (the final check; symbolic execution runs `main`
//! completely before any other thread, and the equation holds every write of every execution).
//! `main`'s events emitted before `m` are before it in program order, so those writes and the
//! initial write happen before `r`, and coherence orders them as `main`'s program order does:
//! the write `r` must read is the last executed one, which is exactly the value folded below.
//! Nothing about interleavings changes: a read with one possible source adds no choice, and no
//! data race is lost (its only conflicting writes happen before it).
//! `tests/main_values.rs` counts the events this removes; the programs `main_value_*` of
//! `tests/programs` pair TRUE programs it shrinks with FALSE twins where `main` writes after
//! the create or another thread writes the cell (a wrong guess), whose reads must stay events.
//!
//! # `main`'s own reads
//!
//! A cell of a global that no thread but `main` writes holds, at every read of `main`, the
//! value of `main`'s last executed write of it before the read (else its initial value): the
//! same fold over `main`'s writes emitted so far ([`Symex::own_value`]). Soundness, under any
//! model with coherence per location (sequential consistency in particular): the writes of the
//! cell in every execution are the initial write, first, and writes of `main`, which coherence
//! orders as `main`'s program order does; those before the read in program order are emitted
//! before it (symbolic execution runs `main` alone, in program order, and a global exists from
//! the start, so no access opened for a later object can add a write of it afterwards), and
//! those after it are after it. So the read takes the last executed one of the writes emitted
//! before it, which is the fold. The guess and its check are those above, with no create mark:
//! any write of the cell by another thread makes the guess wrong and the execution redone
//! without it. The writes stay events (other threads read them); no data race is lost (the
//! read conflicts with no other thread's write). On workstealqueue_mutex-2 at unwind 9,
//! `main`'s reads of `q.mask` become a choice of a few constants, which bounds the array
//! indices `t & q.mask` for the solver: 2,115 events become 887, 44,569 conflicts 28,843.

use cranelift_entity::EntityRef;
use encoder::{BitVec, Location};

use super::exec::{GuessLevel, Symex};
use super::memory::{InitValue, ObjId, ObjKind};
use crate::sharing::AbsObj;

impl Symex<'_, '_, '_> {
    /// The value a read of cell `(o, off)` (`bits` wide, location `loc`) in the current thread
    /// takes when only `main` writes it and wrote it only before creating this thread (see the
    /// module documentation); None when the read must be an event.
    pub(super) fn main_value(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
        loc: Location,
    ) -> Option<BitVec> {
        let mark = self.threads.get(self.cur_number as usize)?.main_mark?;
        // Under no-data-race a `free` writes every cell of the heap objects it may hit, as
        // events inserted after all threads ran (`close_free_writes`), which the check of
        // the guesses below cannot see: a heap cell's read stays an event there.
        if self.opts.free_writes && self.mem.objects[o].kind == ObjKind::Heap {
            return None;
        }
        let v = self.fold_main_writes(o, off, bits, loc, mark)?;
        self.threads[self.cur_number as usize].distinct.folded = true;
        Some(v)
    }

    /// The value a read of cell `(o, off)` by `main` takes when no other thread writes it
    /// (`main`'s own reads, module documentation); None when the read must be an event.
    pub(super) fn own_value(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
        loc: Location,
    ) -> Option<BitVec> {
        if self.cur_number != 0 {
            return None;
        }
        let abs = self.abs.get(o.index()).copied().flatten()?;
        if !matches!(abs, AbsObj::Global(_)) {
            return None;
        }
        // No create mark: every write of `main` is allowed, only another thread's is wrong.
        self.fold_main_writes(o, off, bits, loc, usize::MAX)
    }

    /// The fold of both: the initial value of cell `(o, off)` overwritten by each of `main`'s
    /// writes of it so far whose guard holds, in program order, when every write of it so far
    /// is `main`'s and came before event number `mark`, and the guess level allows taking it
    /// (an object a thread may write must have this cell as one of several, not a banned one);
    /// the read is recorded for the check of the finished equation (`wrong_guesses`).
    fn fold_main_writes(
        &mut self,
        o: ObjId,
        off: u64,
        bits: u32,
        loc: Location,
        mark: usize,
    ) -> Option<BitVec> {
        let abs = self.abs.get(o.index()).copied().flatten()?;
        let whole = u64::from(bits.div_ceil(8)) >= self.mem.objects[o].size;
        let guessing = match self.guess.level {
            GuessLevel::Off => return None,
            _ if self.sharing.only_main_writes(abs) => false,
            GuessLevel::Static => return None,
            GuessLevel::Guess if whole || self.guess.banned.contains(&(abs, off)) => return None,
            GuessLevel::Guess => true,
        };
        let main_thread = self.threads.first()?.info.thread;
        let writes: Vec<encoder::Event> = self.writes_at.get(&loc).cloned().unwrap_or_default();
        if writes
            .iter()
            .any(|&w| self.eq.events[w].thread != main_thread || w.index() >= mark)
        {
            return None;
        }
        let mut v = self.shared_initial(o, off, bits);
        for w in writes {
            let (g, wv) = (self.eq.events[w].guard, self.eq.events[w].value.clone());
            if wv.width() != bits {
                return None;
            }
            v = self.enc.bv_ite(g, &wv, &v);
        }
        self.guesses.push((loc, mark, abs, off));
        self.guessed |= guessing;
        Some(v)
    }

    /// The cells whose reads took `main`'s value although the finished equation has a write
    /// of them by another thread, or by `main` after the reader's create: the execution must
    /// be redone without taking their value so. Empty when every such read was exact.
    pub(super) fn wrong_guesses(&self) -> std::collections::HashSet<(AbsObj, u64)> {
        let main_thread = self.threads.first().map(|t| t.info.thread);
        self.guesses
            .iter()
            .filter(|(loc, mark, _, _)| {
                self.writes_at.get(loc).is_some_and(|ws| {
                    ws.iter().any(|&w| {
                        Some(self.eq.events[w].thread) != main_thread || w.index() >= *mark
                    })
                })
            })
            .map(|&(_, _, abs, off)| (abs, off))
            .collect()
    }

    /// The initial value of a shared cell, the same for [`Symex::main_value`] and the
    /// initial write (`Symex::finish_init_writes`).
    pub(super) fn shared_initial(&mut self, o: ObjId, off: u64, bits: u32) -> BitVec {
        match (self.init_vals.get(&(o, off)), self.mem.objects[o].init) {
            (Some(v), _) => v.clone(),
            (None, InitValue::Nondet) => {
                if let Some(v) = self.shared_init.get(&(o, off)) {
                    v.clone()
                } else {
                    let v = self.enc.bv_fresh(bits);
                    self.shared_init.insert((o, off), v.clone());
                    v
                }
            }
            (None, _) => self.enc.bv_const(bits, 0),
        }
    }
}
