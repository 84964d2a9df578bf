//! C types as the IR sees them: interned, with explicit bit widths, signedness and the struct
//! layouts (field offsets, sizes, alignment) of one data model.
//!
//! Qualifiers (`const`, `volatile`, `restrict`) are dropped: under sequential consistency they
//! do not change what a program can do. Enumerations are plain integer types.

use std::collections::HashMap;

use cranelift_entity::{entity_impl, PrimaryMap};

/// The data model: sizes of `long` and pointers. The one enum for the whole tool: the layout
/// of types, the preprocessor's `-m32`, a task's `data_model` (`ILP32`, `LP64`), the
/// `--32`/`--64` flags and a witness's `architecture`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DataModel {
    /// int, long, pointer: 32 bits (i386 System V layout rules; what SV-COMP tasks declare).
    Ilp32,
    /// long and pointer 64 bits (x86-64 System V layout rules; the default for a plain `.c`,
    /// like CBMC).
    Lp64,
}

impl DataModel {
    /// The witness `architecture` value.
    pub fn architecture(self) -> &'static str {
        match self {
            DataModel::Ilp32 => "32bit",
            DataModel::Lp64 => "64bit",
        }
    }
}

/// An interned type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(u32);
entity_impl!(TypeId, "ty");

/// A struct or union definition (possibly still incomplete).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(u32);
entity_impl!(StructId, "struct");

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    /// `_Bool`: one byte in memory, values 0 and 1.
    Bool,
    /// Integer of `bits` (8, 16, 32 or 64) with the given signedness; also enums and `char`.
    Int {
        bits: u8,
        signed: bool,
    },
    /// Floating point: known to the type checker (headers declare it), rejected when used.
    Float {
        bits: u8,
    },
    Pointer(TypeId),
    /// `len == None`: incomplete array (`extern int a[];`, flexible member).
    Array {
        elem: TypeId,
        len: Option<u64>,
    },
    Struct(StructId),
    Func {
        ret: TypeId,
        params: Vec<TypeId>,
        variadic: bool,
    },
}

/// One member of a struct or union.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// `None` for anonymous members (their fields are reachable through them).
    pub name: Option<String>,
    pub ty: TypeId,
    /// Byte offset from the start of the struct.
    pub offset: u64,
    /// For bit-fields: (bit offset inside the storage unit at `offset`, width in bits).
    pub bitfield: Option<(u32, u32)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDef {
    /// The tag, or a generated name for anonymous structs.
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// False until the definition with its member list has been seen.
    pub complete: bool,
}

impl StructDef {
    /// Index of the named member; anonymous members are not searched (see
    /// [`Types::find_member`]).
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields
            .iter()
            .position(|f| f.name.as_deref() == Some(name))
    }
}

/// A member as declared, input of [`Types::layout`].
#[derive(Clone, Debug)]
pub struct MemberSpec {
    pub name: Option<String>,
    pub ty: TypeId,
    /// Bit-field width.
    pub width: Option<u32>,
    /// `__attribute__((aligned(N)))` on the member.
    pub align: Option<u64>,
    /// `__attribute__((packed))` on the member: byte alignment.
    pub packed: bool,
}

/// The type table of one program.
#[derive(Clone, Debug)]
pub struct Types {
    pub model: DataModel,
    types: PrimaryMap<TypeId, Type>,
    dedup: HashMap<Type, TypeId>,
    pub structs: PrimaryMap<StructId, StructDef>,
}

impl Types {
    pub fn new(model: DataModel) -> Types {
        Types {
            model,
            types: PrimaryMap::new(),
            dedup: HashMap::new(),
            structs: PrimaryMap::new(),
        }
    }

    pub fn intern(&mut self, t: Type) -> TypeId {
        if let Some(&id) = self.dedup.get(&t) {
            return id;
        }
        let id = self.types.push(t.clone());
        self.dedup.insert(t, id);
        id
    }

    /// The id of a type if it was ever interned.
    pub fn find(&self, t: &Type) -> Option<TypeId> {
        self.dedup.get(t).copied()
    }

    pub fn get(&self, t: TypeId) -> &Type {
        &self.types[t]
    }

    pub fn void(&mut self) -> TypeId {
        self.intern(Type::Void)
    }
    pub fn bool_(&mut self) -> TypeId {
        self.intern(Type::Bool)
    }
    pub fn int(&mut self, bits: u8, signed: bool) -> TypeId {
        self.intern(Type::Int { bits, signed })
    }
    /// `int`.
    pub fn int32(&mut self) -> TypeId {
        self.int(32, true)
    }
    /// `char` (signed, as on x86).
    pub fn char_(&mut self) -> TypeId {
        self.int(8, true)
    }
    /// Bits of `long` and of pointers.
    pub fn ptr_bits(&self) -> u8 {
        match self.model {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        }
    }
    /// `long` (signed = true) or `unsigned long`.
    pub fn long(&mut self, signed: bool) -> TypeId {
        let b = self.ptr_bits();
        self.int(b, signed)
    }
    /// `size_t`.
    pub fn size_t(&mut self) -> TypeId {
        self.long(false)
    }
    /// `ptrdiff_t`.
    pub fn ptrdiff_t(&mut self) -> TypeId {
        self.long(true)
    }
    pub fn pointer(&mut self, to: TypeId) -> TypeId {
        self.intern(Type::Pointer(to))
    }
    /// `void *`.
    pub fn void_ptr(&mut self) -> TypeId {
        let v = self.void();
        self.pointer(v)
    }

    pub fn is_integer(&self, t: TypeId) -> bool {
        matches!(self.get(t), Type::Int { .. } | Type::Bool)
    }
    pub fn is_pointer(&self, t: TypeId) -> bool {
        matches!(self.get(t), Type::Pointer(_))
    }
    /// Integer or pointer: what can be a condition or a comparison operand.
    pub fn is_scalar(&self, t: TypeId) -> bool {
        matches!(
            self.get(t),
            Type::Int { .. } | Type::Bool | Type::Pointer(_) | Type::Float { .. }
        )
    }
    pub fn is_float(&self, t: TypeId) -> bool {
        matches!(self.get(t), Type::Float { .. })
    }
    pub fn is_void(&self, t: TypeId) -> bool {
        matches!(self.get(t), Type::Void)
    }
    pub fn is_signed(&self, t: TypeId) -> bool {
        matches!(self.get(t), Type::Int { signed: true, .. })
    }
    /// Width in bits of an integer, bool (8) or pointer type; 0 otherwise.
    pub fn bits(&self, t: TypeId) -> u32 {
        match self.get(t) {
            Type::Int { bits, .. } => *bits as u32,
            Type::Bool => 8,
            Type::Pointer(_) => self.ptr_bits() as u32,
            Type::Float { bits } => *bits as u32,
            _ => 0,
        }
    }
    pub fn pointee(&self, t: TypeId) -> Option<TypeId> {
        match self.get(t) {
            Type::Pointer(p) => Some(*p),
            _ => None,
        }
    }

    /// Size in bytes; `None` for incomplete types, functions and `void`.
    pub fn size_of(&self, t: TypeId) -> Option<u64> {
        match self.get(t) {
            Type::Void | Type::Func { .. } => None,
            Type::Bool => Some(1),
            Type::Int { bits, .. } => Some(*bits as u64 / 8),
            Type::Float { bits } => Some(match (bits, self.model) {
                (80, DataModel::Ilp32) => 12,
                (80, DataModel::Lp64) => 16,
                (b, _) => *b as u64 / 8,
            }),
            Type::Pointer(_) => Some(self.ptr_bits() as u64 / 8),
            Type::Array { elem, len } => {
                let n = (*len)?;
                self.size_of(*elem)?.checked_mul(n)
            }
            Type::Struct(s) => {
                let d = &self.structs[*s];
                d.complete.then_some(d.size)
            }
        }
    }

    /// Alignment in bytes as a member of a struct (i386 aligns 8-byte scalars to 4).
    pub fn align_of(&self, t: TypeId) -> u64 {
        match self.get(t) {
            Type::Void | Type::Func { .. } => 1,
            Type::Bool => 1,
            Type::Int { bits, .. } | Type::Float { bits } => {
                let natural = match bits {
                    80 => 16,
                    b => *b as u64 / 8,
                };
                match self.model {
                    DataModel::Ilp32 => natural.min(4),
                    DataModel::Lp64 => natural,
                }
            }
            Type::Pointer(_) => self.ptr_bits() as u64 / 8,
            Type::Array { elem, .. } => self.align_of(*elem),
            Type::Struct(s) => self.structs[*s].align.max(1),
        }
    }

    /// Finds member `name` of struct `s`, looking through anonymous members: the path of field
    /// indices from `s` and the member's type.
    pub fn find_member(&self, s: StructId, name: &str) -> Option<(Vec<usize>, TypeId)> {
        let def = &self.structs[s];
        if let Some(i) = def.field_index(name) {
            return Some((vec![i], def.fields[i].ty));
        }
        for (i, f) in def.fields.iter().enumerate() {
            if f.name.is_none() {
                if let Type::Struct(inner) = self.get(f.ty) {
                    if let Some((mut path, ty)) = self.find_member(*inner, name) {
                        path.insert(0, i);
                        return Some((path, ty));
                    }
                }
            }
        }
        None
    }

    /// Lays out a struct or union from its members.
    /// Follows the System V rules of the data model (bit-fields packed into storage units of
    /// their declared type; a zero-width bit-field closes the unit) and gcc's `packed` (every
    /// member byte-aligned, bit-fields bit-packed) and `aligned(N)` (on members and on the
    /// whole struct: alignment raised to N).
    pub fn layout(
        &mut self,
        s: StructId,
        members: Vec<MemberSpec>,
        packed: bool,
        min_align: Option<u64>,
    ) -> Result<(), String> {
        let is_union = self.structs[s].is_union;
        let mut fields = Vec::with_capacity(members.len());
        let mut bit_pos: u64 = 0; // current position in bits
        let mut max_align: u64 = 1;
        let mut max_size: u64 = 0;
        for MemberSpec {
            name,
            ty,
            width,
            align: member_align,
            packed: member_packed,
        } in members
        {
            let natural = if packed || member_packed {
                1
            } else {
                self.align_of(ty)
            };
            let align = member_align.map_or(natural, |a| a.max(natural));
            let size = match self.size_of(ty) {
                Some(sz) => sz,
                None => match self.get(ty) {
                    // A flexible array member: no storage of its own.
                    Type::Array { len: None, .. } => 0,
                    _ => return Err("member of incomplete type".to_string()),
                },
            };
            if let Some(w) = width {
                let unit_bits = size * 8;
                if w as u64 > unit_bits {
                    return Err("bit-field wider than its type".to_string());
                }
                if is_union {
                    max_size = max_size.max(size);
                    max_align = max_align.max(align);
                    fields.push(Field {
                        name,
                        ty,
                        offset: 0,
                        bitfield: Some((0, w)),
                    });
                    continue;
                }
                if w == 0 {
                    let a = align.max(1) * 8;
                    bit_pos = bit_pos.div_ceil(a) * a;
                    continue;
                }
                // The field may not straddle a storage unit of its declared type.
                let a_bits = align * 8;
                let mut pos = bit_pos;
                if member_align.is_some() {
                    pos = pos.div_ceil(a_bits) * a_bits;
                }
                if !packed && pos + w as u64 > pos / a_bits * a_bits + unit_bits {
                    pos = pos.div_ceil(a_bits) * a_bits;
                }
                let unit_start = pos / a_bits * a_bits;
                fields.push(Field {
                    name: name.clone(),
                    ty,
                    offset: unit_start / 8,
                    bitfield: Some(((pos - unit_start) as u32, w)),
                });
                let start = pos;
                bit_pos = start + w as u64;
                if name.is_some() {
                    max_align = max_align.max(align);
                }
                continue;
            }
            max_align = max_align.max(align);
            if is_union {
                max_size = max_size.max(size);
                fields.push(Field {
                    name,
                    ty,
                    offset: 0,
                    bitfield: None,
                });
            } else {
                let byte = bit_pos.div_ceil(8);
                let off = byte.div_ceil(align) * align;
                fields.push(Field {
                    name,
                    ty,
                    offset: off,
                    bitfield: None,
                });
                bit_pos = (off + size) * 8;
            }
        }
        if let Some(a) = min_align {
            max_align = max_align.max(a);
        }
        let raw = if is_union {
            max_size
        } else {
            bit_pos.div_ceil(8)
        };
        let size = raw.div_ceil(max_align) * max_align;
        let d = &mut self.structs[s];
        d.fields = fields;
        d.size = size;
        d.align = max_align;
        d.complete = true;
        Ok(())
    }

    /// A readable C-like spelling of a type.
    pub fn display(&self, t: TypeId) -> String {
        match self.get(t) {
            Type::Void => "void".into(),
            Type::Bool => "_Bool".into(),
            Type::Int { bits, signed } => format!("{}{}", if *signed { "i" } else { "u" }, bits),
            Type::Float { bits } => format!("f{bits}"),
            Type::Pointer(p) => format!("{}*", self.display(*p)),
            Type::Array { elem, len } => match len {
                Some(n) => format!("{}[{}]", self.display(*elem), n),
                None => format!("{}[]", self.display(*elem)),
            },
            Type::Struct(s) => {
                let d = &self.structs[*s];
                format!("{} {}", if d.is_union { "union" } else { "struct" }, d.name)
            }
            Type::Func {
                ret,
                params,
                variadic,
            } => {
                let mut p: Vec<String> = params.iter().map(|x| self.display(*x)).collect();
                if *variadic {
                    p.push("...".into());
                }
                format!("{}({})", self.display(*ret), p.join(", "))
            }
        }
    }
}
