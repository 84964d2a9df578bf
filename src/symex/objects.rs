//! Memory objects: globals and functions (one object each, made first when a computed pointer
//! may designate them, else on first use), heap blocks and address-taken locals (one per
//! execution of the allocation or per call frame); which variables live in memory; and the
//! initial writes of every cell once all threads have run. Each object remembers its abstract
//! object, which is how the sharing pass's facts apply to it.

use encoder::Location;

use super::exec::Symex;
use super::memory::{InitValue, ObjId, ObjKind, Object};
use super::state::{VarKey, THREAD_FRAME};
use super::{unsupported, SymexError};
use crate::ir::{FuncId, VarId, VarKind};
use crate::sharing::AbsObj;

impl Symex<'_, '_, '_> {
    /// Adds an object made for `abs` (a byte object when `abs` is one of [`Symex::bytewise`]).
    pub(super) fn new_object(&mut self, abs: AbsObj, mut obj: Object) -> Result<ObjId, SymexError> {
        obj.bytes = self.bytewise.contains(&abs);
        if !self.sharing.exists(abs) {
            self.unpredicted
                .push(format!("object {} ({abs:?}) was not predicted", obj.name));
        }
        let id = self.mem.add(obj).or_else(unsupported)?;
        self.abs.push(Some(abs));
        Ok(id)
    }

    /// The one object of a global or a function.
    pub(super) fn single_object(&mut self, abs: AbsObj) -> Result<ObjId, SymexError> {
        if let Some(&id) = self.singles.get(&abs) {
            return Ok(id);
        }
        let obj = match abs {
            AbsObj::Global(v) => {
                let var = &self.prog.vars[v];
                self.object_template(&var.name, var.ty, ObjKind::Global, InitValue::Static)
            }
            // Functions without a body get an object too (their address can be stored and
            // compared); a call through it is reported as unsupported.
            AbsObj::Func(f) => Object {
                name: self.prog.funcs[f].name.clone(),
                kind: ObjKind::Function(f),
                size: 0,
                leaves: Some(Vec::new()),
                init: InitValue::Zero,
                bytes: false,
                cells: Default::default(),
                limit: None,
            },
            AbsObj::Heap(_) | AbsObj::Local(_) => {
                unreachable!("{abs:?} has one object per instance")
            }
        };
        let id = self.new_object(abs, obj)?;
        self.singles.insert(abs, id);
        Ok(id)
    }

    /// The object of a function whose address is taken.
    pub fn func_object(&mut self, f: FuncId) -> Result<ObjId, SymexError> {
        self.single_object(AbsObj::Func(f))
    }

    /// Functions whose address is taken, with their objects.
    pub(super) fn func_objects(&self) -> Vec<(FuncId, ObjId)> {
        let mut v: Vec<(FuncId, ObjId)> = self
            .singles
            .iter()
            .filter_map(|(i, &o)| match i {
                AbsObj::Func(f) => Some((*f, o)),
                _ => None,
            })
            .collect();
        v.sort();
        v
    }

    pub fn object_template(
        &self,
        name: &str,
        ty: crate::ir::TypeId,
        kind: ObjKind,
        init: InitValue,
    ) -> Object {
        let types = &self.prog.types;
        Object {
            name: name.to_string(),
            kind,
            size: types.size_of(ty).unwrap_or(0),
            leaves: super::memory::leaves(types, ty).ok(),
            init,
            bytes: false,
            cells: Default::default(),
            limit: None,
        }
    }

    /// Initial writes of every cell and lock made during execution.
    pub(super) fn finish_init_writes(&mut self) {
        let mut cells: Vec<(ObjId, u64, u32, Location, InitValue)> = Vec::new();
        for (o, obj) in self.mem.objects.iter() {
            if self.private_owner.contains_key(&o) && !self.broken.contains(&o) {
                continue;
            }
            for (&off, &(bits, loc)) in &obj.cells {
                cells.push((o, off, bits, loc, obj.init));
            }
        }
        for (o, off, bits, loc, _) in cells {
            let value = self.shared_initial(o, off, bits);
            self.eq.add_init_write(loc, value);
        }
        let mut locks: Vec<Location> = self.locks.values().copied().collect();
        locks.sort();
        for loc in locks {
            let zero = self.enc.bv_const(1, 0);
            self.eq.add_init_write(loc, zero);
        }
        self.liveness_init_writes();
    }

    pub fn is_memory_var(&self, v: VarId) -> bool {
        self.prog.vars[v].in_memory()
    }

    /// The state key of a thread-private variable in the current frame.
    pub fn var_key(&self, v: VarId) -> VarKey {
        match self.prog.vars[v].kind {
            VarKind::Global | VarKind::StaticLocal(_) => (THREAD_FRAME, v),
            _ => (self.frame, v),
        }
    }

    /// The object of a memory variable (made on first use for address-taken locals).
    pub fn obj_of_var(&mut self, v: VarId) -> Result<ObjId, SymexError> {
        let var = &self.prog.vars[v];
        if var.is_global() {
            if var.thread_local {
                return unsupported(format!(
                    "address of thread-local variable {}",
                    var.source_name
                ));
            }
            return self.single_object(AbsObj::Global(v));
        }
        let key = (self.frame, v);
        if let Some(&o) = self.local_obj.get(&key) {
            return Ok(o);
        }
        let var = &self.prog.vars[v];
        let name = format!("{}@{}", var.name, self.frame);
        let types = &self.prog.types;
        let obj = Object {
            name,
            kind: ObjKind::Local,
            size: types.size_of(var.ty).unwrap_or(0),
            leaves: super::memory::leaves(types, var.ty).ok(),
            init: InitValue::Nondet,
            bytes: false,
            cells: Default::default(),
            limit: None,
        };
        let o = self.new_object(AbsObj::Local(v), obj)?;
        self.local_obj.insert(key, o);
        Ok(o)
    }
}
