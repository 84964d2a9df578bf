//! Mutex kinds: which programs need the recursive and error-checking mutex model, and the
//! check that the others never give a mutex a kind.
//!
//! The engines know one mutex: the object its operand designates, free when all-zero (see the
//! `ir` module doc), blocking on a relock. glibc's recursive and error-checking kinds behave
//! differently, and their kind is a run-time value: `pthread_mutex_init(m, attr)` copies it
//! from an attribute object that may be reached through any pointer, and the static
//! initialisers `PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP` and
//! `PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP` write it into the mutex's `__kind` field. The
//! lowering models them exactly with cells of the mutex object (`builtins::mutex_kinds`):
//! every lock operation reads the kind at run time.
//!
//! That costs a read and an atomic section per lock operation, so it is done only in programs
//! that may create a mutex of another kind: [`uses_mutex_kinds`] looks at the syntax before
//! lowering (one pass, and the lowering of a lock may come before the `settype` it depends
//! on). It is a cheap over-approximation; what makes skipping the model sound is the check
//! after lowering ([`kind_written`]) together with `pthread_mutexattr_settype`'s check: in a
//! program without the model, a reachable `settype` with a kind other than the normal one, or
//! a non-zero write into a field of glibc's `struct __pthread_mutex_s` (a static or automatic
//! initialiser), is an error. So every mutex of an accepted program without the model is of
//! the normal kind (copies of mutex objects copy zero kinds), which is the mutex the engines
//! implement.

use cranelift_entity::EntityRef;
use lang_c::ast::{Constant, Enumerator, Expression, TranslationUnit};
use lang_c::span::Span;
use lang_c::visit::{self, Visit};

use crate::frontend::FrontendError;
use crate::ir::{InstrKind, PlaceBase, Program, Proj, Type, TypeId, Types};

/// glibc's name of the struct inside `pthread_mutex_t` and of its kind field.
pub(crate) const MUTEX_STRUCT: &str = "__pthread_mutex_s";
pub(crate) const KIND_FIELD: &str = "__kind";

/// The kind constants that name a kind other than the normal one (adaptive mutexes behave as
/// normal ones, but their initialiser writes a non-zero kind).
const OTHER_KINDS: &[&str] = &[
    "PTHREAD_MUTEX_RECURSIVE",
    "PTHREAD_MUTEX_RECURSIVE_NP",
    "PTHREAD_MUTEX_ERRORCHECK",
    "PTHREAD_MUTEX_ERRORCHECK_NP",
    "PTHREAD_MUTEX_ADAPTIVE_NP",
];

/// The names of the normal kind (all 0 in glibc).
const NORMAL_KINDS: &[&str] = &[
    "PTHREAD_MUTEX_NORMAL",
    "PTHREAD_MUTEX_DEFAULT",
    "PTHREAD_MUTEX_TIMED_NP",
    "PTHREAD_MUTEX_FAST_NP",
];

/// What the syntax of a unit asks of the lowering.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KindUse {
    /// Some mutex may be of a kind other than the normal one.
    pub mutex_kinds: bool,
    /// `pthread_attr_getdetachstate` is named: attribute objects keep their detach state.
    pub detach_state: bool,
}

/// Whether the unit may create a mutex of another kind (see the module doc), and whether it
/// reads detach states: a kind constant named outside an enumeration's definition, or
/// `pthread_mutexattr_settype` named other than in a call whose kind is a normal one.
pub(crate) fn uses_mutex_kinds(unit: &TranslationUnit) -> KindUse {
    let mut s = Scan::default();
    s.visit_translation_unit(unit);
    s.found
}

#[derive(Default)]
struct Scan {
    found: KindUse,
}

fn is_normal_kind(e: &Expression) -> bool {
    match e {
        Expression::Identifier(id) => NORMAL_KINDS.contains(&id.node.name.as_str()),
        Expression::Constant(c) => {
            matches!(&c.node, Constant::Integer(i) if i.number.trim_start_matches('0').is_empty())
        }
        Expression::Cast(c) => is_normal_kind(&c.node.expression.node),
        _ => false,
    }
}

impl<'ast> Visit<'ast> for Scan {
    fn visit_enumerator(&mut self, _: &'ast Enumerator, _: &'ast Span) {
        // The enumeration that defines the kinds (in every unit including <pthread.h>).
    }

    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        match e {
            Expression::Identifier(id) => {
                let n = id.node.name.as_str();
                if OTHER_KINDS.contains(&n) || n == "pthread_mutexattr_settype" {
                    self.found.mutex_kinds = true;
                }
                if n == "pthread_attr_getdetachstate" {
                    self.found.detach_state = true;
                }
            }
            Expression::Call(c) => {
                let settype = matches!(&c.node.callee.node,
                    Expression::Identifier(id) if id.node.name == "pthread_mutexattr_settype");
                if settype {
                    let normal =
                        c.node.arguments.len() == 2 && is_normal_kind(&c.node.arguments[1].node);
                    if !normal {
                        self.found.mutex_kinds = true;
                    }
                    for a in &c.node.arguments {
                        self.visit_expression(&a.node, &a.span);
                    }
                    return;
                }
                visit::visit_expression(self, e, span);
            }
            _ => visit::visit_expression(self, e, span),
        }
    }
}

/// The offset of the kind field in the program's `struct __pthread_mutex_s`, or glibc's
/// offset under the data model when the program does not define it (then no initialiser
/// writes a kind, and only the lowering's own cells are read).
pub(crate) fn kind_offset(types: &Types) -> u64 {
    types
        .structs
        .values()
        .filter(|d| d.name == MUTEX_STRUCT && d.complete)
        .find_map(|d| {
            d.fields
                .iter()
                .find(|f| f.name.as_deref() == Some(KIND_FIELD))
                .map(|f| f.offset)
        })
        .unwrap_or(match types.model {
            crate::ir::DataModel::Ilp32 => 12,
            _ => 16,
        })
}

/// The error for the first reachable write of a non-zero value into a field of a mutex's
/// `struct __pthread_mutex_s` (a static or automatic initialiser, an assignment): any field
/// without the model (`with_kinds` false); a field other than the kind with it (the model
/// keeps its owner and count in `__owner` and `__count`).
pub(crate) fn kind_written(
    prog: &Program,
    reach: &[bool],
    with_kinds: bool,
) -> Option<FrontendError> {
    for (f, _, body) in prog.defined_funcs() {
        if !reach[f.index()] && f != prog.init {
            continue;
        }
        for i in body.instrs.values() {
            let InstrKind::Assign { dst, src } = &i.kind else {
                continue;
            };
            if src.as_const() == Some(0) {
                continue;
            }
            let Some(field) = mutex_field(prog, dst) else {
                continue;
            };
            if with_kinds && field == KIND_FIELD {
                continue;
            }
            let what = if with_kinds {
                format!("a write into the mutex field {field} (the model of recursive and error-checking mutexes keeps its owner and count there)")
            } else {
                "a mutex whose initialiser or assignment writes a kind or state other than \
                 PTHREAD_MUTEX_INITIALIZER's"
                    .to_string()
            };
            return Some(FrontendError::Unsupported(format!(
                "{}: unsupported: {what}",
                prog.loc_str(i.loc)
            )));
        }
    }
    None
}

/// The name of the `struct __pthread_mutex_s` field a place ends in, if it does.
fn mutex_field<'p>(prog: &'p Program, dst: &crate::ir::Place) -> Option<&'p str> {
    let types = &prog.types;
    let mut ty: TypeId = match &dst.base {
        PlaceBase::Var(v) => prog.vars[*v].ty,
        PlaceBase::Deref(e) => types.pointee(e.ty)?,
    };
    let mut last = None;
    for p in &dst.projs {
        last = None;
        match (p, types.get(ty)) {
            (Proj::Field { index, .. }, Type::Struct(s)) => {
                let d = &types.structs[*s];
                let fd = d.fields.get(*index as usize)?;
                if d.name == MUTEX_STRUCT {
                    last = fd.name.as_deref();
                }
                ty = fd.ty;
            }
            (Proj::Index { .. }, Type::Array { elem, .. }) => ty = *elem,
            _ => return None,
        }
    }
    last
}
