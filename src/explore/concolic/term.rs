//! Bit-vector terms over the nondet inputs: the symbolic shadow of the interpreter's values.
//!
//! Terms are hash-consed in one append-only arena ([`Terms`]), so a [`SymId`] is a plain copy
//! type that can sit beside a concrete value, and two equal ids are the same function of the
//! inputs. Every term has a fixed width; the operations are those of the bit-precise encoder
//! (`encoder::bitvec`), with its conventions for division by zero and over-wide shifts, and
//! [`Terms::eval`] computes them concretely with the same conventions, so that a term can be
//! checked against the interpreter's concrete value and encoded for the solver alike.

use std::collections::HashMap;

use cranelift_entity::{entity_impl, PrimaryMap};

/// A term of the arena.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymId(u32);
entity_impl!(SymId, "sym");

/// Binary operations of equal-width operands and result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BvOp {
    Add,
    Sub,
    Mul,
    UDiv,
    URem,
    SDiv,
    SRem,
    And,
    Or,
    Xor,
    Shl,
    LShr,
    AShr,
}

/// Comparisons of equal-width operands (a 1-bit result).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ult,
    Ule,
    Slt,
    Sle,
}

/// Where an input comes from: the `index`-th symbolic input of thread `thread` in a run.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InputKey {
    pub thread: u32,
    pub index: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Input {
        key: InputKey,
        width: u32,
    },
    Const {
        width: u32,
        value: u64,
    },
    /// The low `width` bits.
    Trunc {
        width: u32,
        a: SymId,
    },
    /// Extension to `width` (sign or zero).
    Ext {
        signed: bool,
        width: u32,
        a: SymId,
    },
    Bin {
        op: BvOp,
        a: SymId,
        b: SymId,
    },
    Cmp {
        op: CmpOp,
        a: SymId,
        b: SymId,
    },
    Not(SymId),
}

/// The arena.
#[derive(Default, Debug)]
pub struct Terms {
    nodes: PrimaryMap<SymId, (Term, u32)>,
    dedup: HashMap<Term, SymId>,
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

fn sext(v: u64, w: u32) -> i64 {
    if w >= 64 {
        v as i64
    } else {
        let s = 64 - w;
        ((v << s) as i64) >> s
    }
}

impl Terms {
    pub fn get(&self, s: SymId) -> &Term {
        &self.nodes[s].0
    }

    pub fn width(&self, s: SymId) -> u32 {
        self.nodes[s].1
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn intern(&mut self, t: Term, width: u32) -> SymId {
        if let Some(&s) = self.dedup.get(&t) {
            return s;
        }
        let s = self.nodes.push((t.clone(), width));
        self.dedup.insert(t, s);
        s
    }

    fn as_const(&self, s: SymId) -> Option<u64> {
        match self.get(s) {
            Term::Const { value, .. } => Some(*value),
            _ => None,
        }
    }

    pub fn input(&mut self, key: InputKey, width: u32) -> SymId {
        self.intern(Term::Input { key, width }, width)
    }

    pub fn constant(&mut self, width: u32, value: u64) -> SymId {
        let value = mask(value, width);
        self.intern(Term::Const { width, value }, width)
    }

    /// The low `width` bits of `a` (`a` itself when it is no wider). Truncation goes into
    /// the operations whose low bits depend only on their operands' low bits, so that the
    /// circuit is built at the width the program computes in.
    pub fn trunc(&mut self, width: u32, a: SymId) -> SymId {
        let wa = self.width(a);
        if width >= wa {
            return a;
        }
        match self.get(a).clone() {
            Term::Const { value, .. } => self.constant(width, value),
            Term::Trunc { a: inner, .. } => self.trunc(width, inner),
            Term::Ext { a: inner, .. } if self.width(inner) >= width => self.trunc(width, inner),
            Term::Bin { op, a: x, b: y }
                if matches!(
                    op,
                    BvOp::Add | BvOp::Sub | BvOp::Mul | BvOp::And | BvOp::Or | BvOp::Xor
                ) =>
            {
                let x = self.trunc(width, x);
                let y = self.trunc(width, y);
                self.bin(op, x, y)
            }
            Term::Not(x) => {
                let x = self.trunc(width, x);
                self.not(x)
            }
            _ => self.intern(Term::Trunc { width, a }, width),
        }
    }

    /// `a` extended to `width` (truncated when narrower).
    pub fn ext(&mut self, signed: bool, width: u32, a: SymId) -> SymId {
        let wa = self.width(a);
        if width <= wa {
            return self.trunc(width, a);
        }
        if let Some(v) = self.as_const(a) {
            let v = if signed { sext(v, wa) as u64 } else { v };
            return self.constant(width, v);
        }
        self.intern(Term::Ext { signed, width, a }, width)
    }

    pub fn bin(&mut self, op: BvOp, a: SymId, b: SymId) -> SymId {
        let w = self.width(a);
        assert_eq!(w, self.width(b), "operands of equal width");
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            return self.constant(w, eval_bin(op, x, y, w));
        }
        self.intern(Term::Bin { op, a, b }, w)
    }

    pub fn cmp(&mut self, op: CmpOp, a: SymId, b: SymId) -> SymId {
        assert_eq!(self.width(a), self.width(b), "operands of equal width");
        if let (Some(x), Some(y)) = (self.as_const(a), self.as_const(b)) {
            let w = self.width(a);
            return self.constant(1, eval_cmp(op, x, y, w) as u64);
        }
        self.intern(Term::Cmp { op, a, b }, 1)
    }

    pub fn not(&mut self, a: SymId) -> SymId {
        if let Some(v) = self.as_const(a) {
            return self.constant(self.width(a), !v);
        }
        if let Term::Not(x) = self.get(a) {
            return *x;
        }
        let w = self.width(a);
        self.intern(Term::Not(a), w)
    }

    /// `a != 0`, one bit.
    pub fn nonzero(&mut self, a: SymId) -> SymId {
        if self.width(a) == 1 {
            return a;
        }
        let z = self.constant(self.width(a), 0);
        let e = self.cmp(CmpOp::Eq, a, z);
        self.not(e)
    }

    /// Whether the term is a constant (depends on no input).
    pub fn is_const(&self, s: SymId) -> bool {
        self.as_const(s).is_some()
    }

    /// The value of `s` when the inputs have the values `input` gives (masked to the term's
    /// width); `memo` caches the values of this assignment.
    pub fn eval(
        &self,
        s: SymId,
        input: &dyn Fn(InputKey) -> u64,
        memo: &mut HashMap<SymId, u64>,
    ) -> u64 {
        if let Some(&v) = memo.get(&s) {
            return v;
        }
        let w = self.width(s);
        let v = match self.get(s) {
            Term::Input { key, .. } => mask(input(*key), w),
            Term::Const { value, .. } => *value,
            Term::Trunc { a, .. } => mask(self.eval(*a, input, memo), w),
            Term::Ext { signed, a, .. } => {
                let x = self.eval(*a, input, memo);
                if *signed {
                    mask(sext(x, self.width(*a)) as u64, w)
                } else {
                    x
                }
            }
            Term::Bin { op, a, b } => {
                let x = self.eval(*a, input, memo);
                let y = self.eval(*b, input, memo);
                eval_bin(*op, x, y, w)
            }
            Term::Cmp { op, a, b } => {
                let x = self.eval(*a, input, memo);
                let y = self.eval(*b, input, memo);
                eval_cmp(*op, x, y, self.width(*a)) as u64
            }
            Term::Not(a) => mask(!self.eval(*a, input, memo), w),
        };
        memo.insert(s, v);
        v
    }

    /// The inputs `s` depends on.
    pub fn inputs(&self, s: SymId, out: &mut Vec<(InputKey, u32)>) {
        let mut stack = vec![s];
        let mut seen = std::collections::HashSet::new();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            match self.get(x) {
                Term::Input { key, width } => out.push((*key, *width)),
                Term::Const { .. } => {}
                Term::Trunc { a, .. } | Term::Ext { a, .. } | Term::Not(a) => stack.push(*a),
                Term::Bin { a, b, .. } | Term::Cmp { a, b, .. } => {
                    stack.push(*a);
                    stack.push(*b)
                }
            }
        }
    }
}

/// `op` on `w`-bit values (masked), with the encoder's conventions for the cases C leaves
/// undefined (division by zero, over-wide shifts).
pub fn eval_bin(op: BvOp, x: u64, y: u64, w: u32) -> u64 {
    let (x, y) = (mask(x, w), mask(y, w));
    let (sx, sy) = (sext(x, w), sext(y, w));
    let r = match op {
        BvOp::Add => x.wrapping_add(y),
        BvOp::Sub => x.wrapping_sub(y),
        BvOp::Mul => x.wrapping_mul(y),
        BvOp::And => x & y,
        BvOp::Or => x | y,
        BvOp::Xor => x ^ y,
        BvOp::UDiv => x.checked_div(y).unwrap_or(u64::MAX),
        BvOp::URem => x.checked_rem(y).unwrap_or(x),
        BvOp::SDiv if y == 0 => {
            if sx < 0 {
                1
            } else {
                u64::MAX
            }
        }
        BvOp::SDiv => sx.wrapping_div(sy) as u64,
        BvOp::SRem if y == 0 => x,
        BvOp::SRem => sx.wrapping_rem(sy) as u64,
        BvOp::Shl if y >= w as u64 => 0,
        BvOp::Shl => x << y,
        BvOp::LShr if y >= w as u64 => 0,
        BvOp::LShr => x >> y,
        BvOp::AShr => (sx >> y.min(w as u64 - 1).min(63)) as u64,
    };
    mask(r, w)
}

pub fn eval_cmp(op: CmpOp, x: u64, y: u64, w: u32) -> bool {
    let (x, y) = (mask(x, w), mask(y, w));
    match op {
        CmpOp::Eq => x == y,
        CmpOp::Ult => x < y,
        CmpOp::Ule => x <= y,
        CmpOp::Slt => sext(x, w) < sext(y, w),
        CmpOp::Sle => sext(x, w) <= sext(y, w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_goes_into_the_arithmetic_and_keeps_the_value() {
        let mut t = Terms::default();
        let i = t.input(
            InputKey {
                thread: 0,
                index: 0,
            },
            32,
        );
        let x = t.ext(true, 64, i);
        let c = t.constant(64, 3);
        let m = t.bin(BvOp::Mul, x, c);
        let low = t.trunc(32, m);
        assert!(matches!(t.get(low), Term::Bin { op: BvOp::Mul, .. }));
        assert_eq!(t.width(low), 32);
        for v in [0u64, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff] {
            let mut memo = HashMap::new();
            let got = t.eval(low, &|_| v, &mut memo);
            assert_eq!(got, (sext(v, 32) as u64).wrapping_mul(3) & 0xffff_ffff);
        }
    }

    #[test]
    fn equal_terms_are_one_id() {
        let mut t = Terms::default();
        let i = t.input(
            InputKey {
                thread: 1,
                index: 2,
            },
            8,
        );
        let a = t.ext(false, 64, i);
        let b = t.ext(false, 64, i);
        assert_eq!(a, b);
        assert_eq!(t.nonzero(a), t.nonzero(b));
    }
}
