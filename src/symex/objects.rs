//! Memory objects by identity: globals, functions whose address is taken, heap blocks and
//! address-taken locals; which variables live in memory; and the initial writes of every cell
//! once all threads have run.
//!
//! An object's identity ([`ObjIdent`]) is stable across runs of symbolic execution, so that
//! what one run learns ([`Knowledge`]) can be handed to the next.

use encoder::Location;

use super::exec::Symex;
use super::memory::{InitValue, ObjId, ObjKind, Object};
use super::state::{VarKey, THREAD_FRAME};
use super::{unsupported, SymexError};
use crate::ir::{FuncId, VarId, VarKind};

/// An object's identity across runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjIdent {
    Global(VarId),
    /// A function whose address is taken.
    Func(FuncId),
    Dynamic(ObjKey),
}

/// What a run learns for the next one.
#[derive(Clone, Debug, Default)]
pub struct Knowledge {
    /// Objects in the order they were made, so pointers read from memory can designate
    /// them from the start.
    pub objects: Vec<(ObjIdent, Object)>,
    /// Objects only one thread accesses, with its number.
    pub private: Vec<(ObjIdent, u32)>,
}

/// What a dynamic object is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ObjTag {
    Heap(u32),
    Local(VarId),
}

/// Identifies a dynamic object across runs: the thread, what makes it, and which occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjKey {
    pub thread: u32,
    pub tag: ObjTag,
    pub occurrence: u32,
}

impl Symex<'_, '_, '_> {
    /// Makes an object with its identity (or finds the one an earlier run made known).
    pub fn object(
        &mut self,
        ident: ObjIdent,
        make: impl FnOnce(&Self) -> Result<Object, SymexError>,
    ) -> Result<ObjId, SymexError> {
        if let Some(&id) = self.id_of.get(&ident) {
            return Ok(id);
        }
        if self.sym_deref {
            self.missed_objects = true;
        }
        let obj = make(self)?;
        self.new_object(ident, obj)
    }

    pub(super) fn new_object(&mut self, ident: ObjIdent, obj: Object) -> Result<ObjId, SymexError> {
        let id = self.mem.add(obj).or_else(unsupported)?;
        self.idents.push(Some(ident));
        self.id_of.insert(ident, id);
        // Registered now, so that an access by another thread before the owner makes the
        // object is seen as breaking its privacy.
        if let Some(&owner) = self.private_by_ident.get(&ident) {
            self.private_owner.insert(id, owner);
        }
        Ok(id)
    }

    /// The object of a function whose address is taken.
    pub fn func_object(&mut self, f: FuncId) -> Result<ObjId, SymexError> {
        // Functions without a body get an object too (their address can be stored and
        // compared); a call through it is reported as unsupported.
        self.object(ObjIdent::Func(f), |sx| {
            Ok(Object {
                name: sx.prog.funcs[f].name.clone(),
                kind: ObjKind::Function(f),
                size: 0,
                leaves: Some(Vec::new()),
                init: InitValue::Zero,
                cells: Default::default(),
            })
        })
    }

    /// Functions whose address was taken so far, with their objects.
    pub(super) fn func_objects(&self) -> Vec<(FuncId, ObjId)> {
        let mut v: Vec<(FuncId, ObjId)> = self
            .id_of
            .iter()
            .filter_map(|(i, &o)| match i {
                ObjIdent::Func(f) => Some((*f, o)),
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
            cells: Default::default(),
        }
    }

    /// Initial writes of every cell and lock made during execution.
    pub(super) fn finish_init_writes(&mut self) {
        let mut cells: Vec<(ObjId, u64, u32, Location, InitValue)> = Vec::new();
        for (o, obj) in self.mem.objects.iter() {
            if self.private_owner.contains_key(&o) {
                continue;
            }
            for (&off, &(bits, loc)) in &obj.cells {
                cells.push((o, off, bits, loc, obj.init));
            }
        }
        for (o, off, bits, loc, init) in cells {
            let value = match (self.init_vals.get(&(o, off)), init) {
                (Some(v), _) => v.clone(),
                (None, InitValue::Nondet) => self.enc.bv_fresh(bits),
                (None, _) => self.enc.bv_const(bits, 0),
            };
            self.eq.add_init_write(loc, value);
        }
        let mut locks: Vec<Location> = self.locks.values().copied().collect();
        locks.sort();
        for loc in locks {
            let zero = self.enc.bv_const(1, 0);
            self.eq.add_init_write(loc, zero);
        }
    }

    pub fn is_memory_var(&self, v: VarId) -> bool {
        let var = &self.prog.vars[v];
        match var.kind {
            VarKind::Global | VarKind::StaticLocal(_) => !var.thread_local,
            VarKind::Param(_) | VarKind::Local(_) => var.address_taken,
            VarKind::Temp(_) => false,
        }
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
            let name = var.name.clone();
            let ty = var.ty;
            return self.object(ObjIdent::Global(v), |sx| {
                Ok(sx.object_template(&name, ty, ObjKind::Global, InitValue::Static))
            });
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
            cells: Default::default(),
        };
        let o = self.dynamic_object(ObjTag::Local(v), obj)?;
        self.local_obj.insert(key, o);
        Ok(o)
    }

    /// Makes (or finds, when an earlier run made it) a heap object or address-taken local.
    pub(super) fn dynamic_object(&mut self, tag: ObjTag, obj: Object) -> Result<ObjId, SymexError> {
        let occ = self.occurrences.entry((self.cur_number, tag)).or_insert(0);
        let key = ObjKey {
            thread: self.cur_number,
            tag,
            occurrence: *occ,
        };
        *occ += 1;
        let size = obj.size;
        let id = self.object(ObjIdent::Dynamic(key), |_| Ok(obj))?;
        if self.mem.objects[id].size != size {
            return unsupported("object whose size differs between runs");
        }
        Ok(id)
    }
}
