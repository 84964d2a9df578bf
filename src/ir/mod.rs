//! The IR: a goto program. Per function, a list of simple instructions whose jumps name
//! instruction ids (the control-flow graph is the fall-through edge plus the jump target).
//!
//! Invariants the consumers (symex, the interpreter) rely on:
//! - expressions have no side effects; every expression carries its final type and every
//!   implicit C conversion is an explicit [`ExprKind::Cast`];
//! - binary operators have operands of one type (pointers aside, see [`ExprKind::PtrAdd`]),
//!   and the operators whose meaning depends on signedness say which one they are;
//! - lvalues are [`Place`]s: a variable or a dereferenced pointer, then field and index
//!   projections with their byte offsets and element sizes;
//! - every instruction has a source location in the user's file;
//! - every backward jump is a loop back edge with its own [`LoopId`] (see [`Body::loops`]);
//! - all globals start zeroed; `Program::init` then runs the explicit initialisers, before
//!   `main`; thread-local variables are zeroed and initialised by `Program::tls_init` at the
//!   start of every thread;
//! - the operands of `LogAnd`, `LogOr` and `Ite` are evaluated without short-circuit; the
//!   lowering only builds them from operands that cannot trap (no dereference, no variable
//!   index, no division by a non-constant) — otherwise C's conditional evaluation is explicit
//!   jumps;
//! - atomic sections may nest (a `__VERIFIER_atomic_begin` inside an atomic function called
//!   through a pointer): a thread is atomic while its begin/end depth is positive;
//! - mutexes and condition variables are the objects their pointer operands designate; an
//!   all-zero object (static `PTHREAD_MUTEX_INITIALIZER`) is an unlocked mutex;
//! - the operands of thread and synchronisation instructions ([`InstrKind::synchronises`])
//!   read no memory: C evaluates a call's arguments before the call, and other threads may
//!   run in between, so the lowering reads them first into temporaries. An engine can then
//!   take a lock or join as one step that touches only its mutex or thread.
//!
//! Iterating: `program.defined_funcs()` gives `(FuncId, &Function, &Body)`; `body.instrs` is a
//! `PrimaryMap<InstrId, Instr>` in program order; `body.successors(i)` the CFG edges;
//! `body.loops` the loops; `InstrKind::walk_exprs` every expression of an instruction;
//! `ir::print::Printer` the text form.

pub mod faint;
pub mod float;
pub mod input_ranges;
pub mod liveness;
pub mod print;
pub mod types;
pub mod validate;

use cranelift_entity::{entity_impl, EntityRef, PrimaryMap};

pub use types::{DataModel, Field, StructDef, StructId, Type, TypeId, Types};

/// A variable: global, parameter, local or temporary.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(u32);
entity_impl!(VarId, "v");

#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(u32);
entity_impl!(FuncId, "f");

/// An instruction of one function body.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstrId(u32);
entity_impl!(InstrId, "i");

/// A loop of one function body (one per back edge).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LoopId(u32);
entity_impl!(LoopId, "loop");

/// A property to check (an assertion or a `reach_error` call).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PropId(u32);
entity_impl!(PropId, "prop");

/// A `malloc`/`calloc` call site: symex names heap objects after it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AllocSite(u32);
entity_impl!(AllocSite, "alloc");

/// A place in the user's source: `Program::files[file]`, line (1-based; 0 = unknown).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Loc {
    pub file: u32,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    Global,
    /// A `static` variable inside a function: a global with a function-qualified name.
    StaticLocal(FuncId),
    Param(FuncId),
    Local(FuncId),
    /// Introduced by the lowering to hold an intermediate value.
    Temp(FuncId),
}

#[derive(Clone, Debug)]
pub struct VarData {
    /// Unique in the program (locals are qualified: `func::name`, shadowing adds `#n`).
    pub name: String,
    /// The name in the source.
    pub source_name: String,
    pub ty: TypeId,
    pub kind: VarKind,
    /// `_Thread_local` / `__thread`: one instance per thread.
    pub thread_local: bool,
    /// Its address is taken somewhere (`&x`, or an array that decays to a pointer).
    pub address_taken: bool,
    pub loc: Loc,
}

impl VarData {
    /// Globals and static locals: one object shared by all threads (unless thread-local).
    pub fn is_global(&self) -> bool {
        matches!(self.kind, VarKind::Global | VarKind::StaticLocal(_))
    }

    /// Whether the variable lives in memory (an object pointers can designate, accessed by
    /// events when shared): globals that are not thread-local, and locals and parameters whose
    /// address is taken. The others are thread-private values.
    pub fn in_memory(&self) -> bool {
        match self.kind {
            VarKind::Global | VarKind::StaticLocal(_) => !self.thread_local,
            VarKind::Param(_) | VarKind::Local(_) => self.address_taken,
            VarKind::Temp(_) => false,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Two's complement negation.
    Neg,
    /// Bitwise complement.
    BitNot,
    /// Logical not: 1 if the operand is zero (or null), else 0; result type `int`.
    LogNot,
}

/// Binary operators. Operand types are equal (after the usual arithmetic conversions), except
/// shifts (the right operand keeps its promoted type) and the logical/comparison operators on
/// pointers. Comparisons and logical operators give `int` 0 or 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    SDiv,
    UDiv,
    SRem,
    URem,
    Shl,
    /// Arithmetic shift right (signed left operand).
    AShr,
    /// Logical shift right (unsigned left operand).
    LShr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    SLt,
    SLe,
    SGt,
    SGe,
    /// Unsigned comparisons; also used for pointers.
    ULt,
    ULe,
    UGt,
    UGe,
    /// Logical and/or of two side-effect-free operands (each tested against zero).
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn is_comparison(self) -> bool {
        use BinOp::*;
        matches!(
            self,
            Eq | Ne | SLt | SLe | SGt | SGe | ULt | ULe | UGt | UGe | LogAnd | LogOr
        )
    }
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            SDiv => "/s",
            UDiv => "/u",
            SRem => "%s",
            URem => "%u",
            Shl => "<<",
            AShr => ">>s",
            LShr => ">>u",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Eq => "==",
            Ne => "!=",
            SLt => "<s",
            SLe => "<=s",
            SGt => ">s",
            SGe => ">=s",
            ULt => "<u",
            ULe => "<=u",
            UGt => ">u",
            UGe => ">=u",
            LogAnd => "&&",
            LogOr => "||",
        }
    }
}

/// IEEE-754 operations on the bit patterns of `Type::Float` values of 32 or 64 bits (see
/// [`float`] for their exact meaning): rounded to nearest, ties to even, each operation to its
/// result type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    /// Two operands of the result's floating type.
    Add,
    Sub,
    Mul,
    Div,
    /// Comparisons of two operands of one floating type, giving `int` 0 or 1; false (and
    /// `Ne` true) when either operand is a NaN.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// The sign flipped.
    Neg,
    /// Conversion of the operand to the result type, one of them floating and the other
    /// floating, integer or (as the operand) `_Bool`: integer to floating rounds; floating to
    /// integer truncates toward zero, undefined when the result is out of range (see
    /// [`float::FloatUndefined`]).
    Convert,
}

impl FloatOp {
    pub fn is_comparison(self) -> bool {
        use FloatOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
    pub fn symbol(self) -> &'static str {
        use FloatOp::*;
        match self {
            Add => "+f",
            Sub => "-f",
            Mul => "*f",
            Div => "/f",
            Eq => "==f",
            Ne => "!=f",
            Lt => "<f",
            Le => "<=f",
            Gt => ">f",
            Ge => ">=f",
            Neg => "-f",
            Convert => "convf",
        }
    }
    /// Number of operands.
    pub fn arity(self) -> usize {
        match self {
            FloatOp::Neg | FloatOp::Convert => 1,
            _ => 2,
        }
    }
}

/// A side-effect-free expression with its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: TypeId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// An integer (or null pointer) constant: the bit pattern, zero- or sign-extended from the
    /// type's width to 64 bits according to its signedness.
    Const(u64),
    /// The value stored at a place (scalar, struct or union; never an array).
    Read(Box<Place>),
    /// The address of a place.
    AddrOf(Box<Place>),
    /// The address of a function.
    FuncAddr(FuncId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `cond ? a : b` on side-effect-free operands; `cond` is a scalar tested against zero.
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to `ty` (integer/pointer/bool conversions by C's rules:
    /// to `_Bool` is `!= 0`, narrowing truncates, widening extends by the source signedness).
    Cast(Box<Expr>),
    /// Pointer plus a signed byte offset (of pointer width): C pointer arithmetic with the
    /// element size already multiplied in.
    PtrAdd(Box<Expr>, Box<Expr>),
    /// Byte distance `a - b` between two pointers, as a signed integer of pointer width.
    PtrDiff(Box<Expr>, Box<Expr>),
    /// A floating-point operation on its [`FloatOp::arity`] operands.
    Float(FloatOp, Vec<Expr>),
}

impl Expr {
    pub fn constant(value: u64, ty: TypeId) -> Expr {
        Expr {
            kind: ExprKind::Const(value),
            ty,
        }
    }
    pub fn as_const(&self) -> Option<u64> {
        match self.kind {
            ExprKind::Const(v) => Some(v),
            _ => None,
        }
    }
    pub fn read(place: Place) -> Expr {
        let ty = place.ty;
        Expr {
            kind: ExprKind::Read(Box::new(place)),
            ty,
        }
    }
}

/// An lvalue: a base object and projections into it.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub base: PlaceBase,
    pub projs: Vec<Proj>,
    /// Type of the designated object.
    pub ty: TypeId,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlaceBase {
    Var(VarId),
    /// The object a pointer points to (the pointer's pointee type is the base type).
    Deref(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Proj {
    /// Member `index` of the struct/union, at `offset` bytes.
    Field { index: u32, offset: u64 },
    /// Element `index` (a signed integer of pointer width) of an array with elements of
    /// `elem_size` bytes.
    Index { index: Box<Expr>, elem_size: u64 },
}

impl Place {
    pub fn var(v: VarId, ty: TypeId) -> Place {
        Place {
            base: PlaceBase::Var(v),
            projs: Vec::new(),
            ty,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    Direct(FuncId),
    /// A call through a function pointer.
    Indirect(Expr),
}

/// Why an execution is over-approximated from an [`InstrKind::Approximate`] on: the lowering
/// replaced exact values by arbitrary ones of their type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Approximation {
    /// `sscanf` of a string the lowering does not know: each conversion may store any value
    /// of its type, or fail.
    ScanfInput,
    /// Floating-point values are arbitrary values of their width.
    FloatValue,
}

impl Approximation {
    /// What was approximated, for reasons and traces.
    pub fn describe(self) -> &'static str {
        match self {
            Approximation::ScanfInput => "sscanf of a string that is not a constant",
            Approximation::FloatValue => "floating-point arithmetic",
        }
    }
}

/// The POWER barriers, and CBMC's `__CPROVER_fence`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum FenceKind {
    Sync,
    Lwsync,
    Isync,
    /// `__CPROVER_fence("WWfence", ...)`: orders the named pairs of accesses. No effect under
    /// sequential consistency; the POWER explorer does not map it to a POWER barrier (a
    /// stronger barrier would hide behaviours), so it is unsupported there.
    Cprover,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Instr {
    pub kind: InstrKind,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum InstrKind {
    /// Does nothing (a jump target, an empty statement).
    Skip,
    /// Start of a local's lifetime: its value becomes indeterminate (nondet).
    Decl(VarId),
    Assign {
        dst: Place,
        src: Expr,
    },
    /// `dst` receives an arbitrary value of its type.
    Nondet {
        dst: Place,
    },
    /// Executions where `cond` is zero are discarded.
    Assume(Expr),
    /// Property `prop` is violated when `cond` is zero here.
    Assert {
        cond: Expr,
        prop: PropId,
    },
    /// Jump to `target` (if `cond` is non-zero, when present). `back_edge` is set when the
    /// jump goes backwards: it closes that loop.
    Goto {
        target: InstrId,
        cond: Option<Expr>,
        back_edge: Option<LoopId>,
    },
    /// Call of a function with a body; the value returned is stored in `dst`. Calls to
    /// functions without a body never appear (see [`Program::external_calls`]).
    Call {
        dst: Option<Place>,
        callee: Callee,
        args: Vec<Expr>,
    },
    Return(Option<Expr>),
    /// The whole program terminates (`exit`, `abort`, the end of `__assert_fail`).
    Halt,
    /// `pthread_create`: a new thread runs `entry(arg)`; its id is stored into `handle`.
    ThreadCreate {
        handle: Place,
        entry: Callee,
        arg: Expr,
    },
    /// `pthread_join(thread, retval)`: waits for the thread whose id is `thread`; when
    /// `retval` is present, the thread's return value is stored into `*retval`.
    ThreadJoin {
        thread: Expr,
        retval: Option<Expr>,
    },
    /// `pthread_exit(value)`: the calling thread ends, returning `value`.
    ThreadExit(Expr),
    /// `pthread_self()`: the calling thread's id into `dst`.
    ThreadSelf {
        dst: Place,
    },
    AtomicBegin,
    AtomicEnd,
    /// A memory barrier (`__yogar_sync()` and friends, `__CPROVER_fence`): no effect under
    /// sequential consistency; the POWER explorer orders accesses by the POWER ones.
    Fence(FenceKind),
    /// From here on the execution is an over-approximation: values the program computes
    /// exactly were replaced by arbitrary ones (see [`Approximation`]). An engine may answer
    /// TRUE over such executions (they include every real one), but a violation reached
    /// through this instruction is no counterexample: it is UNKNOWN.
    Approximate(Approximation),
    /// The operand of the mutex, condition and lock instructions is a pointer to the object.
    MutexInit(Expr),
    MutexLock(Expr),
    MutexUnlock(Expr),
    /// Locks if free and stores 0 into `dst`, else stores a non-zero value (EBUSY).
    MutexTryLock {
        mutex: Expr,
        dst: Option<Place>,
    },
    MutexDestroy(Expr),
    CondInit(Expr),
    /// Atomically unlocks `mutex` and waits for a signal (spurious wake-ups allowed), then
    /// locks `mutex` again.
    CondWait {
        cond: Expr,
        mutex: Expr,
    },
    CondSignal(Expr),
    CondBroadcast(Expr),
    CondDestroy(Expr),
    /// `malloc`/`calloc` (never fails): a fresh object of `size` bytes; its address into `dst`.
    Alloc {
        dst: Option<Place>,
        size: Expr,
        zeroed: bool,
        site: AllocSite,
        /// What allocates: the program's heap, or storage the program never frees.
        kind: AllocKind,
    },
    Free(Expr),
    /// `memset(dst, byte, len)`.
    Memset {
        dst: Expr,
        byte: Expr,
        len: Expr,
    },
    /// `memcpy(dst, src, len)`.
    Memcpy {
        dst: Expr,
        src: Expr,
        len: Expr,
    },
}

/// What an [`InstrKind::Alloc`] stands for. Only valid-memsafety tells them apart: a heap
/// object may (and should) be freed, the others may not, and their lifetime is not the
/// heap's (a stack object ends with its function, which the engines do not model for them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocKind {
    /// `malloc`, `calloc`, `kmalloc`, `kzalloc`.
    Heap,
    /// `alloca` and variable-length arrays: stack storage.
    Stack,
    /// Storage the lowering makes for its own use (`__CPROVER_ASYNC` argument frames).
    Internal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PropKind {
    /// A call of `reach_error` (or `__VERIFIER_error`).
    ReachError,
    /// `assert(e)` (a failed one calls `__assert_fail`).
    Assert,
}

#[derive(Clone, Debug)]
pub struct Property {
    pub kind: PropKind,
    pub loc: Loc,
    /// The function containing it.
    pub func: FuncId,
}

#[derive(Clone, Debug)]
pub struct LoopInfo {
    /// The first instruction of the loop (the target of the back edge).
    pub head: InstrId,
    /// The backward jump.
    pub back_edge: InstrId,
    pub loc: Loc,
}

#[derive(Clone, Debug, Default)]
pub struct Body {
    pub instrs: PrimaryMap<InstrId, Instr>,
    pub loops: PrimaryMap<LoopId, LoopInfo>,
}

impl Body {
    /// Successors of an instruction in the control-flow graph.
    pub fn successors(&self, i: InstrId) -> Vec<InstrId> {
        let next = InstrId::new(i.index() + 1);
        let has_next = next.index() < self.instrs.len();
        match &self.instrs[i].kind {
            InstrKind::Return(_) | InstrKind::Halt | InstrKind::ThreadExit(_) => Vec::new(),
            InstrKind::Goto {
                target, cond: None, ..
            } => vec![*target],
            InstrKind::Goto { target, .. } => {
                let mut v = vec![*target];
                if has_next && next != *target {
                    v.push(next);
                }
                v
            }
            _ if has_next => vec![next],
            _ => Vec::new(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// The function's type (`Type::Func`).
    pub ty: TypeId,
    pub ret: TypeId,
    pub params: Vec<VarId>,
    /// Locals and temporaries (parameters excluded).
    pub locals: Vec<VarId>,
    /// `None` for functions declared but not defined.
    pub body: Option<Body>,
    /// Named `__VERIFIER_atomic_*`: calls to it are wrapped in an atomic section.
    pub atomic: bool,
    pub loc: Loc,
}

/// A call to a function without a body. Policy: the call returns a nondet value of its return
/// type and writes nothing reachable; in the IR it is a [`InstrKind::Nondet`] (or a
/// [`InstrKind::Skip`] for `void`), recorded here so that the user can be warned. A nondet
/// pointer points to no known object: a consumer that cannot give its dereference a meaning
/// must answer UNKNOWN rather than guess. Indirect calls (`Callee::Indirect`) may also reach a
/// function without a body; the same policy applies to them.
#[derive(Clone, Debug)]
pub struct ExternalCall {
    pub name: String,
    pub loc: Loc,
    /// The function containing the (first) call.
    pub caller: FuncId,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub types: Types,
    pub vars: PrimaryMap<VarId, VarData>,
    pub funcs: PrimaryMap<FuncId, Function>,
    pub props: PrimaryMap<PropId, Property>,
    /// Number of allocation sites (`AllocSite` ids are `0..alloc_sites`).
    pub alloc_sites: u32,
    /// File names indexed by `Loc::file`.
    pub files: Vec<String>,
    /// Runs the initialisers of globals (after zeroing them all), before `main`.
    pub init: FuncId,
    /// Runs the initialisers of thread-local variables, at the start of every thread (`main`
    /// included, after `init`), on that thread's instances (zeroed before).
    pub tls_init: FuncId,
    pub main: Option<FuncId>,
    /// Distinct external functions that are called, with their first call site.
    pub external_calls: Vec<ExternalCall>,
    /// Other things the user should know (one line each, with location).
    pub warnings: Vec<String>,
}

impl Program {
    /// The name of a loop for `--unwindset`: `function.index` (CBMC's convention).
    pub fn loop_name(&self, f: FuncId, l: LoopId) -> String {
        format!("{}.{}", self.funcs[f].name, l.index())
    }

    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.funcs
            .iter()
            .find(|(_, f)| f.name == name)
            .map(|(id, _)| id)
    }
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.vars
            .iter()
            .find(|(_, v)| v.name == name)
            .map(|(id, _)| id)
    }
    /// Globals and static locals.
    pub fn globals(&self) -> impl Iterator<Item = (VarId, &VarData)> {
        self.vars.iter().filter(|(_, v)| v.is_global())
    }
    /// Functions with a body.
    pub fn defined_funcs(&self) -> impl Iterator<Item = (FuncId, &Function, &Body)> {
        self.funcs
            .iter()
            .filter_map(|(id, f)| f.body.as_ref().map(|b| (id, f, b)))
    }
    /// `file:line` of a location.
    pub fn loc_str(&self, loc: Loc) -> String {
        let f = self
            .files
            .get(loc.file as usize)
            .map_or("?", |s| s.as_str());
        format!("{f}:{}", loc.line)
    }
    /// Number of `pthread_create` instructions in the program text.
    pub fn thread_create_sites(&self) -> usize {
        self.defined_funcs()
            .map(|(_, _, b)| {
                b.instrs
                    .values()
                    .filter(|i| matches!(i.kind, InstrKind::ThreadCreate { .. }))
                    .count()
            })
            .sum()
    }
}

impl Expr {
    /// Calls `f` on this expression and every sub-expression (including those inside places).
    pub fn walk(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Const(_) | ExprKind::FuncAddr(_) => {}
            ExprKind::Read(p) | ExprKind::AddrOf(p) => p.walk(f),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => a.walk(f),
            ExprKind::Binary(_, a, b) | ExprKind::PtrAdd(a, b) | ExprKind::PtrDiff(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Ite(c, a, b) => {
                c.walk(f);
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Float(_, args) => {
                for a in args {
                    a.walk(f);
                }
            }
        }
    }
}

impl Place {
    /// Calls `f` on every expression inside the place (the dereferenced pointer, indices).
    pub fn walk(&self, f: &mut impl FnMut(&Expr)) {
        if let PlaceBase::Deref(e) = &self.base {
            e.walk(f);
        }
        for p in &self.projs {
            if let Proj::Index { index, .. } = p {
                index.walk(f);
            }
        }
    }
}

impl InstrKind {
    /// The place the instruction stores its result in, if any: an assignment's, a nondet
    /// choice's, a call's or an allocation's destination, a thread handle, a try-lock's
    /// result.
    pub fn dst(&self) -> Option<&Place> {
        match self {
            InstrKind::Assign { dst, .. }
            | InstrKind::Nondet { dst }
            | InstrKind::ThreadSelf { dst }
            | InstrKind::ThreadCreate { handle: dst, .. } => Some(dst),
            InstrKind::Alloc { dst, .. }
            | InstrKind::MutexTryLock { dst, .. }
            | InstrKind::Call { dst, .. } => dst.as_ref(),
            _ => None,
        }
    }

    /// A thread or synchronisation instruction: one whose operands name a thread, a mutex
    /// or a condition variable, or hand a value to another thread.
    pub fn synchronises(&self) -> bool {
        matches!(
            self,
            InstrKind::ThreadCreate { .. }
                | InstrKind::ThreadJoin { .. }
                | InstrKind::ThreadExit(_)
                | InstrKind::MutexInit(_)
                | InstrKind::MutexLock(_)
                | InstrKind::MutexUnlock(_)
                | InstrKind::MutexTryLock { .. }
                | InstrKind::MutexDestroy(_)
                | InstrKind::CondInit(_)
                | InstrKind::CondWait { .. }
                | InstrKind::CondSignal(_)
                | InstrKind::CondBroadcast(_)
                | InstrKind::CondDestroy(_)
        )
    }

    /// Calls `f` on every expression of the instruction, places included.
    pub fn walk_exprs(&self, f: &mut impl FnMut(&Expr)) {
        let place = |p: &Place, f: &mut dyn FnMut(&Expr)| p.walk(&mut |e| f(e));
        match self {
            InstrKind::Skip
            | InstrKind::Decl(_)
            | InstrKind::Halt
            | InstrKind::AtomicBegin
            | InstrKind::AtomicEnd
            | InstrKind::Fence(_)
            | InstrKind::Approximate(_)
            | InstrKind::Return(None) => {}
            InstrKind::Assign { dst, src } => {
                place(dst, f);
                src.walk(f);
            }
            InstrKind::Nondet { dst } | InstrKind::ThreadSelf { dst } => place(dst, f),
            InstrKind::Assume(e)
            | InstrKind::Assert { cond: e, .. }
            | InstrKind::Return(Some(e))
            | InstrKind::ThreadExit(e)
            | InstrKind::MutexInit(e)
            | InstrKind::MutexLock(e)
            | InstrKind::MutexUnlock(e)
            | InstrKind::MutexDestroy(e)
            | InstrKind::CondInit(e)
            | InstrKind::CondSignal(e)
            | InstrKind::CondBroadcast(e)
            | InstrKind::CondDestroy(e)
            | InstrKind::Free(e) => e.walk(f),
            InstrKind::Goto { cond, .. } => {
                if let Some(c) = cond {
                    c.walk(f);
                }
            }
            InstrKind::Call { dst, callee, args } => {
                if let Some(d) = dst {
                    place(d, f);
                }
                if let Callee::Indirect(e) = callee {
                    e.walk(f);
                }
                for a in args {
                    a.walk(f);
                }
            }
            InstrKind::ThreadCreate { handle, entry, arg } => {
                place(handle, f);
                if let Callee::Indirect(e) = entry {
                    e.walk(f);
                }
                arg.walk(f);
            }
            InstrKind::ThreadJoin { thread, retval } => {
                thread.walk(f);
                if let Some(r) = retval {
                    r.walk(f);
                }
            }
            InstrKind::MutexTryLock { mutex, dst } => {
                mutex.walk(f);
                if let Some(d) = dst {
                    place(d, f);
                }
            }
            InstrKind::CondWait { cond, mutex } => {
                cond.walk(f);
                mutex.walk(f);
            }
            InstrKind::Alloc { dst, size, .. } => {
                if let Some(d) = dst {
                    place(d, f);
                }
                size.walk(f);
            }
            InstrKind::Memset { dst, byte, len } => {
                dst.walk(f);
                byte.walk(f);
                len.walk(f);
            }
            InstrKind::Memcpy { dst, src, len } => {
                dst.walk(f);
                src.walk(f);
                len.walk(f);
            }
        }
    }

    /// Functions this instruction may transfer control to or make reachable: direct callees,
    /// thread entries, and every function whose address it mentions.
    pub fn referenced_funcs(&self) -> Vec<FuncId> {
        let mut out = Vec::new();
        match self {
            InstrKind::Call {
                callee: Callee::Direct(g),
                ..
            }
            | InstrKind::ThreadCreate {
                entry: Callee::Direct(g),
                ..
            } => out.push(*g),
            _ => {}
        }
        self.walk_exprs(&mut |e| {
            if let ExprKind::FuncAddr(g) = e.kind {
                out.push(g);
            }
        });
        out
    }
}

impl Program {
    /// Functions reachable from `init` and `main` (or from every function when there is no
    /// `main`), following calls, thread creations and function addresses.
    pub fn reachable_funcs(&self) -> Vec<bool> {
        let mut seen = vec![false; self.funcs.len()];
        let mut work: Vec<FuncId> = vec![self.init, self.tls_init];
        match self.main {
            Some(m) => work.push(m),
            None => work.extend(self.funcs.keys()),
        }
        while let Some(f) = work.pop() {
            if std::mem::replace(&mut seen[f.index()], true) {
                continue;
            }
            if let Some(b) = &self.funcs[f].body {
                for ins in b.instrs.values() {
                    work.extend(ins.kind.referenced_funcs());
                }
            }
        }
        seen
    }
}
