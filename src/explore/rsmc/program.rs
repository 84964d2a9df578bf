//! The programs the POWER explorer runs: a fixed number of threads of assembly-like
//! instructions over per-thread registers (the shape of a litmus test and of the paper's
//! language), and a shared memory of named locations with initial values.
//!
//! Addresses are values: location `k` has the address [`Program::address`]`(k)`, so that an
//! address computed in registers (`lwzx r4,r3,r2` with `r2 = &y`) designates a location and
//! the computation is an address dependency. Threads are deterministic: a thread's behaviour
//! depends only on the values its loads return.

/// A register of one thread.
pub type Reg = u32;

/// Binary operators of register expressions (64-bit two's complement).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    Add,
    Sub,
    Mul,
    And,
    Or,
    Xor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            Op::Add => a.wrapping_add(b),
            Op::Sub => a.wrapping_sub(b),
            Op::Mul => a.wrapping_mul(b),
            Op::And => a & b,
            Op::Or => a | b,
            Op::Xor => a ^ b,
            Op::Eq => (a == b) as i64,
            Op::Ne => (a != b) as i64,
            Op::Lt => (a < b) as i64,
            Op::Le => (a <= b) as i64,
            Op::Gt => (a > b) as i64,
            Op::Ge => (a >= b) as i64,
        }
    }
}

/// A register expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Const(i64),
    Reg(Reg),
    Bin(Op, Box<Expr>, Box<Expr>),
    /// The low `bits` of the value, sign- or zero-extended (C's integer conversions).
    Ext(Box<Expr>, u32, bool),
}

impl Expr {
    pub fn bin(op: Op, a: Expr, b: Expr) -> Expr {
        Expr::Bin(op, Box::new(a), Box::new(b))
    }

    /// The registers the expression reads.
    pub fn regs(&self, out: &mut Vec<Reg>) {
        match self {
            Expr::Const(_) => {}
            Expr::Reg(r) => out.push(*r),
            Expr::Bin(_, a, b) => {
                a.regs(out);
                b.regs(out);
            }
            Expr::Ext(a, _, _) => a.regs(out),
        }
    }

    pub fn eval(&self, regs: &impl Fn(Reg) -> i64) -> i64 {
        match self {
            Expr::Const(c) => *c,
            Expr::Reg(r) => regs(*r),
            Expr::Bin(op, a, b) => op.apply(a.eval(regs), b.eval(regs)),
            Expr::Ext(a, bits, signed) => extend(a.eval(regs), *bits, *signed),
        }
    }
}

/// The low `bits` of `v`, sign- or zero-extended to 64 bits (the interpreter's scalar form).
pub fn extend(v: i64, bits: u32, signed: bool) -> i64 {
    crate::explore::interp::norm(v as u64, bits, signed) as i64
}

/// The POWER fences.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fence {
    Sync,
    Lwsync,
    Isync,
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `dst := e`.
    Assign {
        dst: Reg,
        e: Expr,
    },
    /// `dst := [addr]`.
    Load {
        dst: Reg,
        addr: Expr,
    },
    /// `[addr] := val`.
    Store {
        addr: Expr,
        val: Expr,
    },
    /// `if cond != 0 goto target` (an instruction index of the same thread; the end of the
    /// thread is `instrs.len()`).
    Branch {
        cond: Expr,
        target: usize,
    },
    Fence(Fence),
    /// A property: the run violates it when `cond` is zero here.
    Assert {
        cond: Expr,
    },
}

impl Instr {
    /// The registers the instruction reads.
    pub fn uses(&self) -> Vec<Reg> {
        let mut v = Vec::new();
        match self {
            Instr::Assign { e, .. } => e.regs(&mut v),
            Instr::Load { addr, .. } => addr.regs(&mut v),
            Instr::Store { addr, val } => {
                addr.regs(&mut v);
                val.regs(&mut v);
            }
            Instr::Branch { cond, .. } | Instr::Assert { cond } => cond.regs(&mut v),
            Instr::Fence(_) => {}
        }
        v
    }

    /// The register the instruction writes.
    pub fn def(&self) -> Option<Reg> {
        match self {
            Instr::Assign { dst, .. } | Instr::Load { dst, .. } => Some(*dst),
            _ => None,
        }
    }

    pub fn is_access(&self) -> bool {
        matches!(self, Instr::Load { .. } | Instr::Store { .. })
    }
}

/// One thread: its code, its registers' names and initial values.
#[derive(Clone, Debug, Default)]
pub struct Thread {
    pub name: String,
    pub instrs: Vec<Instr>,
    /// Register names (index = [`Reg`]).
    pub regs: Vec<String>,
    /// Initial register values (the others start at 0).
    pub init: Vec<(Reg, i64)>,
}

impl Thread {
    /// The register called `name`, made if new.
    pub fn reg(&mut self, name: &str) -> Reg {
        match self.regs.iter().position(|r| r == name) {
            Some(i) => i as Reg,
            None => {
                self.regs.push(name.to_string());
                (self.regs.len() - 1) as Reg
            }
        }
    }
}

/// A whole program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    pub threads: Vec<Thread>,
    /// Location names (index = location number).
    pub locs: Vec<String>,
    /// Initial value of each location.
    pub init: Vec<i64>,
}

/// Addresses start here, one per location: far from the small integers programs compute.
const ADDRESS_BASE: i64 = 1 << 40;

impl Program {
    /// The location called `name`, made (initially 0) if new.
    pub fn loc(&mut self, name: &str) -> usize {
        match self.locs.iter().position(|l| l == name) {
            Some(i) => i,
            None => {
                self.locs.push(name.to_string());
                self.init.push(0);
                self.locs.len() - 1
            }
        }
    }

    /// The address of location `k`.
    pub fn address(k: usize) -> i64 {
        ADDRESS_BASE + k as i64
    }

    /// The location an address designates, if any.
    pub fn location_at(&self, a: i64) -> Option<usize> {
        let k = a.checked_sub(ADDRESS_BASE)?;
        (k >= 0 && (k as usize) < self.locs.len()).then_some(k as usize)
    }

    /// A value as text: a location's name for an address, else the number.
    pub fn show_value(&self, v: i64) -> String {
        match self.location_at(v) {
            Some(k) => self.locs[k].clone(),
            None => v.to_string(),
        }
    }
}
