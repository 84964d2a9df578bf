//! valid-memsafety in the interpreter (explorers and witness replay), the counterpart of
//! `symex::memsafety`: the interpreter's objects carry their liveness already (`free` and a
//! returning frame kill them), and its traps on a null, dangling or out-of-bounds access are
//! exact on the run. Under the property those traps are the violation `valid-deref`, a `free`
//! of anything but the start of a live heap object is `valid-free`, and a heap object that is
//! alive when main returns and that no global reaches (through pointers stored in globals and
//! live heap objects) is `valid-memtrack`. The violation ends the run at the instruction; the
//! kind is kept in [`Machine::mem_violation`] for the trace.

use super::memory::Object;
use super::{trap, Access, Machine, ObjId, Prov, RunEnd, Scalar, Stop, Target, R};
use crate::verdict::Violation;

/// The traps of an access that are invalid dereferences (`memory::Machine::deref`,
/// `memory::Machine::check`).
const DEREF_TRAPS: [&str; 4] = [
    "null pointer dereference",
    "dereference of a function pointer",
    "access to a dead object",
    "out-of-bounds access",
];

/// The violation a trap is under valid-memsafety, if it is one.
pub(super) fn trap_violation(what: &str) -> Option<Violation> {
    DEREF_TRAPS.contains(&what).then_some(Violation::ValidDeref)
}

/// Ends the run with `v` at the current instruction (`Machine::step` fills in the place).
pub(super) fn violation<T>(m: &mut Machine, v: Violation) -> R<T> {
    m.mem_violation = Some(v);
    Err(Stop::End(RunEnd::Violation {
        thread: usize::MAX,
        loc: crate::ir::Loc::default(),
    }))
}

impl<'p> Machine<'p> {
    /// `free` of the non-null pointer `p` under valid-memsafety: it must be the start of a
    /// live heap object, which dies (a write of all of it, as without the property).
    pub(super) fn free_checked(
        &mut self,
        p: Scalar,
        before_write: &mut dyn FnMut() -> R<()>,
    ) -> R<()> {
        if p.sym.is_some() {
            return trap("unsupported: input-dependent pointer");
        }
        let o = match p.prov {
            Some(Prov::Obj(o)) => o,
            Some(Prov::Func(_)) => return violation(self, Violation::ValidFree),
            // An integer that is no null pointer: the address of nothing the run knows.
            None => return trap("free of a pointer to no known object"),
        };
        let obj = self.obj(o);
        if p.bits != 0 || !obj.heap || !obj.alive {
            return violation(self, Violation::ValidFree);
        }
        before_write()?;
        self.free_object(o);
        Ok(())
    }

    /// Main returns: a live heap object that no global reaches is lost. Every object the
    /// test looks at is logged as read, so that the explorers order the return of main with
    /// the other threads' stores and frees it depends on.
    pub(super) fn memtrack_at_main_return(&mut self) -> R<()> {
        let mut reached: std::collections::HashSet<ObjId> = Default::default();
        let mut todo: Vec<ObjId> = self.globals.values().copied().collect();
        for th in &self.threads {
            todo.extend(th.tls.values().copied());
        }
        let mut read = Vec::new();
        while let Some(o) = todo.pop() {
            if !reached.insert(o) {
                continue;
            }
            let obj: &Object = self.obj(o);
            read.push(o);
            for (p, _) in obj.provs.values() {
                if let Prov::Obj(q) = p {
                    let target = self.obj(*q);
                    if target.alive && (target.heap || self.global_of(*q).is_some()) {
                        todo.push(*q);
                    }
                }
            }
        }
        let lost = self
            .heap_objects()
            .into_iter()
            .find(|o| self.obj(*o).alive && !reached.contains(o));
        for o in read.into_iter().chain(self.heap_objects()) {
            if !self.obj(o).private {
                self.accesses.push(Access {
                    target: Target::Mem {
                        obj: o,
                        off: 0,
                        len: u64::MAX,
                    },
                    write: false,
                    value: 0,
                });
            }
        }
        match lost {
            Some(_) => violation(self, Violation::ValidMemtrack),
            None => Ok(()),
        }
    }

    /// `exit` or `abort` under valid-memsafety: memory no global reaches is left to the
    /// reading of memtrack at such an end, which SV-COMP leaves open (main's locals are still
    /// there): unsupported, as in symbolic execution.
    pub(super) fn memtrack_at_exit(&mut self) -> R<()> {
        if self.heap_objects().iter().any(|&o| self.obj(o).alive) {
            return trap(
                "unsupported: valid-memtrack: memory alive at exit, abort or pthread_exit of main",
            );
        }
        Ok(())
    }

    fn heap_objects(&self) -> Vec<ObjId> {
        let mut out = Vec::new();
        for (owner, objs) in self.objects.iter().enumerate() {
            for (index, obj) in objs.iter().enumerate() {
                if obj.heap {
                    out.push(ObjId {
                        owner: owner as u32,
                        index: index as u32,
                    });
                }
            }
        }
        out
    }
}
