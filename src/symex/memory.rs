//! Memory objects, their cells, and the pointer representation.
//!
//! Every global, heap allocation and address-taken local is an *object*. A pointer is a
//! bit-vector of pointer width: the object number in the top bits, the byte offset in the rest
//! (as CBMC does), so pointer arithmetic is plain addition and null is the all-zero value of
//! object 0. Object numbers 1..=F name the program's functions (function pointers).
//!
//! Objects are split into scalar *cells* (an offset and a width), each one shared-memory
//! [`Location`] of the equation: the event granularity is one scalar. Cells are made on first
//! access. Two accesses to one object that overlap without having the same offset and width
//! (type punning, a union read through another member, untyped memory used at two widths)
//! do not fit this scheme: such an object is a *byte object* instead ([`Object::bytes`]),
//! whose cells are its bytes, so that an access of n bytes is n byte events (see
//! `symex::access` for how values are split and joined, and `symex::exec::run` for how the
//! objects that need it are found).

use std::collections::BTreeMap;

use cranelift_entity::{entity_impl, PrimaryMap};
use encoder::Location;

use crate::ir::{FuncId, Type, TypeId, Types};

/// A memory object (object number = index; 0 is the null object).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(u32);
entity_impl!(ObjId, "obj");

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ObjKind {
    Null,
    Function(FuncId),
    /// A global (or static local) variable.
    Global,
    /// A local whose address is taken, in one thread's call frame.
    Local,
    /// A `malloc`/`calloc` result.
    Heap,
}

/// How an object is initialised before any thread runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitValue {
    /// The value left by the program's initialisers (zero where they wrote nothing).
    Static,
    Zero,
    /// Indeterminate (malloc, uninitialised locals).
    Nondet,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub kind: ObjKind,
    /// Size in bytes (for a dynamic object, the capacity modelled: see `limit`).
    pub size: u64,
    /// The size in bytes of a dynamic object (`malloc` of a size that is not a constant), as
    /// CBMC models them: the object has `size` bytes of cells, and an access to bytes
    /// `[off, off + n)` hits a cell only in executions where `off + n <= limit`; elsewhere it
    /// is an invalid access (its value arbitrary for a read, UNKNOWN for a write). So an access
    /// beyond the capacity but within `limit` is also invalid, never a guess.
    pub limit: Option<encoder::BitVec>,
    /// The scalar leaves of its declared type, if it has one (offset, bits); heap objects are
    /// typed by the pointer they are assigned to when that is known.
    pub leaves: Option<Vec<(u64, u32)>>,
    pub init: InitValue,
    /// Whether the object is modelled byte by byte: every cell is one byte, a wider access is
    /// its bytes in little-endian order. Set for the objects whose accesses disagree on
    /// offsets or widths; the others keep one cell per scalar, which needs fewer events.
    pub bytes: bool,
    /// Cells made so far: offset → (bits, location).
    pub cells: BTreeMap<u64, (u32, Location)>,
}

/// Where a cell's event goes, or why it cannot have one.
pub enum CellLookup {
    Cell(Location),
    /// The access overlaps an existing cell of another extent.
    Overlap,
    /// Outside the object.
    OutOfBounds,
}

/// The objects of one symbolic execution.
pub struct Memory {
    pub objects: PrimaryMap<ObjId, Object>,
    /// Bits of a pointer.
    pub ptr_bits: u32,
    /// Bits of the object number (the top bits of a pointer).
    pub obj_bits: u32,
}

impl Memory {
    pub fn new(ptr_bits: u32) -> Memory {
        let obj_bits = if ptr_bits <= 32 { 8 } else { 16 };
        let mut objects = PrimaryMap::new();
        objects.push(Object {
            name: "NULL".into(),
            kind: ObjKind::Null,
            size: 0,
            leaves: Some(Vec::new()),
            init: InitValue::Zero,
            bytes: false,
            cells: BTreeMap::new(),
            limit: None,
        });
        Memory {
            objects,
            ptr_bits,
            obj_bits,
        }
    }

    /// Bits of the offset part of a pointer.
    pub fn off_bits(&self) -> u32 {
        self.ptr_bits - self.obj_bits
    }

    /// Largest object number a pointer can hold.
    pub fn max_objects(&self) -> u64 {
        1u64 << self.obj_bits
    }

    pub fn add(&mut self, obj: Object) -> Result<ObjId, String> {
        if self.objects.len() as u64 >= self.max_objects() {
            return Err(format!(
                "more than {} memory objects (pointer object bits exhausted)",
                self.max_objects()
            ));
        }
        if obj.size >= 1u64 << self.off_bits().min(63) {
            return Err(format!("object {} is too large", obj.name));
        }
        Ok(self.objects.push(obj))
    }

    /// The pointer value (as an integer) of `obj` + `offset`.
    pub fn pointer(&self, obj: ObjId, offset: u64) -> u64 {
        ((obj.as_u32() as u64) << self.off_bits()) | offset
    }

    /// The cell at `offset` of `bits` bits, made on first use; `make` allocates its location.
    pub fn cell(
        &mut self,
        obj: ObjId,
        offset: u64,
        bits: u32,
        make: impl FnOnce(String) -> Location,
    ) -> CellLookup {
        let o = &mut self.objects[obj];
        let bytes = (bits as u64).div_ceil(8);
        if matches!(o.kind, ObjKind::Null | ObjKind::Function(_)) || offset + bytes > o.size {
            return CellLookup::OutOfBounds;
        }
        if let Some(&(b, loc)) = o.cells.get(&offset) {
            return if b == bits {
                CellLookup::Cell(loc)
            } else {
                CellLookup::Overlap
            };
        }
        // A cell starting before `offset` that reaches into it, or one starting inside.
        if let Some((&off, &(b, _))) = o.cells.range(..offset).next_back() {
            if off + (b as u64).div_ceil(8) > offset {
                return CellLookup::Overlap;
            }
        }
        if o.cells.range(offset..offset + bytes).next().is_some() {
            return CellLookup::Overlap;
        }
        let loc = make(format!("{}+{}", o.name, offset));
        o.cells.insert(offset, (bits, loc));
        CellLookup::Cell(loc)
    }

    /// Whether `bytes` bytes at `offset` lie inside `obj` (a data object).
    pub fn in_bounds(&self, obj: ObjId, offset: u64, bytes: u64) -> bool {
        let o = &self.objects[obj];
        !matches!(o.kind, ObjKind::Null | ObjKind::Function(_))
            && offset.checked_add(bytes).is_some_and(|end| end <= o.size)
    }

    /// Offsets at which an access of `bits` bits may hit `obj` (for a symbolic offset): in a
    /// byte object every offset where it fits (unaligned ones too, so none is missed); else
    /// the leaves of its type of that width, else every aligned offset.
    pub fn candidate_offsets(&self, obj: ObjId, bits: u32) -> Vec<u64> {
        let o = &self.objects[obj];
        if o.bytes {
            let n = (bits as u64).div_ceil(8).max(1);
            return (0..(o.size + 1).saturating_sub(n)).collect();
        }
        match &o.leaves {
            Some(leaves) => leaves
                .iter()
                .filter(|&&(_, b)| b == bits)
                .map(|&(off, _)| off)
                .collect(),
            None => {
                let step = (bits as u64).div_ceil(8).max(1);
                (0..o.size / step).map(|k| k * step).collect()
            }
        }
    }
}

/// The scalar leaves (byte offset, bits) of a type, in offset order. Unions contribute their
/// first member; bit-fields are not supported.
pub fn leaves(types: &Types, ty: TypeId) -> Result<Vec<(u64, u32)>, String> {
    let mut out = Vec::new();
    visit_scalars(types, ty, 0, &mut |off, bits, _| out.push((off, bits)))?;
    Ok(out)
}

/// Offsets of the `_Bool` leaves of a type (their values are 0 or 1).
pub fn bool_offsets(types: &Types, ty: TypeId) -> Vec<u64> {
    let mut out = Vec::new();
    let _ = visit_scalars(types, ty, 0, &mut |off, _, t| {
        if matches!(t, Type::Bool) {
            out.push(off)
        }
    });
    out
}

/// Offsets of the pointer leaves of a type.
pub fn pointer_offsets(types: &Types, ty: TypeId) -> Vec<u64> {
    let mut out = Vec::new();
    let _ = visit_scalars(types, ty, 0, &mut |off, _, t| {
        if matches!(t, Type::Pointer(_)) {
            out.push(off)
        }
    });
    out
}

/// Whether a type holds a union whose first member's scalars do not cover all its bytes: a
/// value of the type (its scalar leaves, see [`leaves`]) then leaves out bytes of the union.
pub fn has_partial_union(types: &Types, ty: TypeId) -> bool {
    match types.get(ty) {
        Type::Array { elem, .. } => has_partial_union(types, *elem),
        Type::Struct(s) => {
            let def = &types.structs[*s];
            if def.is_union {
                let Some(first) = def.fields.first() else {
                    return false;
                };
                let covered: u64 = leaves(types, first.ty)
                    .map(|l| l.iter().map(|&(_, b)| (b as u64).div_ceil(8)).sum())
                    .unwrap_or(0);
                covered != types.size_of(ty).unwrap_or(0) || has_partial_union(types, first.ty)
            } else {
                def.fields.iter().any(|f| has_partial_union(types, f.ty))
            }
        }
        _ => false,
    }
}

/// Calls `f(offset, bits, type)` for every scalar leaf of a type, in offset order.
fn visit_scalars(
    types: &Types,
    ty: TypeId,
    base: u64,
    f: &mut dyn FnMut(u64, u32, &Type),
) -> Result<(), String> {
    match types.get(ty) {
        t @ (Type::Bool | Type::Int { .. } | Type::Pointer(_) | Type::Float { .. }) => {
            f(base, types.bits(ty), t);
            Ok(())
        }
        Type::Void | Type::Func { .. } => Err(format!("object of type {}", types.display(ty))),
        Type::Array { elem, len } => {
            let len = len.ok_or("array of unknown size")?;
            let size = types.size_of(*elem).ok_or("array of incomplete type")?;
            if len > 1 << 16 {
                return Err(format!("array of {len} elements"));
            }
            for k in 0..len {
                visit_scalars(types, *elem, base + k * size, f)?;
            }
            Ok(())
        }
        Type::Struct(s) => {
            let def = &types.structs[*s];
            if !def.complete {
                return Err(format!("incomplete struct {}", def.name));
            }
            let fields = if def.is_union {
                &def.fields[..def.fields.len().min(1)]
            } else {
                &def.fields[..]
            };
            for fl in fields {
                if fl.bitfield.is_some() {
                    return Err(format!("bit-field in {}", def.name));
                }
                visit_scalars(types, fl.ty, base + fl.offset, f)?;
            }
            Ok(())
        }
    }
}
