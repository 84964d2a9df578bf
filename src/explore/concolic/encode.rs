//! Terms to circuits: each term becomes a bit vector of the bit-precise encoder (the circuits
//! the SAT engines use), each input a fresh vector; the model of a solve gives the inputs'
//! values.

use std::collections::{BTreeMap, HashMap};

use encoder::{BitVec, Encoder};
use solver_glue::Lit;

use super::term::{BvOp, CmpOp, InputKey, SymId, Term, Terms};

/// The circuits built so far on one solver.
#[derive(Default)]
pub struct Circuits {
    done: HashMap<SymId, BitVec>,
    pub inputs: BTreeMap<InputKey, BitVec>,
}

impl Circuits {
    /// The literal of a one-bit term.
    pub fn lit(&mut self, terms: &Terms, enc: &mut Encoder, s: SymId) -> Lit {
        let v = self.vector(terms, enc, s);
        v.bit(0)
    }

    pub fn vector(&mut self, terms: &Terms, enc: &mut Encoder, s: SymId) -> BitVec {
        if let Some(v) = self.done.get(&s) {
            return v.clone();
        }
        // Operands first, without recursion (terms can be deep).
        let mut stack = vec![s];
        while let Some(&x) = stack.last() {
            if self.done.contains_key(&x) {
                stack.pop();
                continue;
            }
            let args: Vec<SymId> = match terms.get(x) {
                Term::Input { .. } | Term::Const { .. } => Vec::new(),
                Term::Trunc { a, .. } | Term::Ext { a, .. } | Term::Not(a) => vec![*a],
                Term::Bin { a, b, .. } | Term::Cmp { a, b, .. } => vec![*a, *b],
            };
            let missing: Vec<SymId> = args
                .iter()
                .copied()
                .filter(|a| !self.done.contains_key(a))
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            stack.pop();
            let arg = |i: usize| self.done[&args[i]].clone();
            let v = match terms.get(x) {
                // One 64-bit vector per input: the same input can be read at several widths
                // (its thread's i-th input comes from another read in another schedule), and
                // each term of it is the low bits of the one value the run gives it.
                Term::Input { key, width } => {
                    let v = self.inputs.entry(*key).or_insert_with(|| enc.bv_fresh(64));
                    enc.bv_truncate(v, *width)
                }
                Term::Const { width, value } => enc.bv_const(*width, *value),
                Term::Trunc { width, .. } => enc.bv_truncate(&arg(0), *width),
                Term::Ext {
                    signed: true,
                    width,
                    ..
                } => enc.bv_sign_extend(&arg(0), *width),
                Term::Ext { width, .. } => enc.bv_zero_extend(&arg(0), *width),
                Term::Not(_) => enc.bv_not(&arg(0)),
                Term::Bin { op, .. } => {
                    let (a, b) = (arg(0), arg(1));
                    match op {
                        BvOp::Add => enc.bv_add(&a, &b),
                        BvOp::Sub => enc.bv_sub(&a, &b),
                        BvOp::Mul => enc.bv_mul(&a, &b),
                        BvOp::UDiv => enc.bv_udiv(&a, &b),
                        BvOp::URem => enc.bv_urem(&a, &b),
                        BvOp::SDiv => enc.bv_sdiv(&a, &b),
                        BvOp::SRem => enc.bv_srem(&a, &b),
                        BvOp::And => enc.bv_and(&a, &b),
                        BvOp::Or => enc.bv_or(&a, &b),
                        BvOp::Xor => enc.bv_xor(&a, &b),
                        BvOp::Shl => enc.bv_shl(&a, &b),
                        BvOp::LShr => enc.bv_lshr(&a, &b),
                        BvOp::AShr => enc.bv_ashr(&a, &b),
                    }
                }
                Term::Cmp { op, .. } => {
                    let (a, b) = (arg(0), arg(1));
                    let l = match op {
                        CmpOp::Eq => enc.bv_eq(&a, &b),
                        CmpOp::Ult => enc.bv_ult(&a, &b),
                        CmpOp::Ule => enc.bv_ule(&a, &b),
                        CmpOp::Slt => enc.bv_slt(&a, &b),
                        CmpOp::Sle => enc.bv_sle(&a, &b),
                    };
                    BitVec::from_bits(vec![l])
                }
            };
            self.done.insert(x, v);
        }
        self.done[&s].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::concolic::term::{eval_bin, eval_cmp};
    use solver_glue::{make_solver, SolveResult};

    /// An input read at two widths is one value: its narrow term is the low bits of its wide
    /// one (two independent vectors would let the solver pick inputs no run can have).
    #[test]
    fn an_input_read_at_two_widths_is_one_value() {
        let mut terms = Terms::default();
        let k = InputKey {
            thread: 1,
            index: 0,
        };
        let narrow = terms.input(k, 8);
        let wide = terms.input(k, 32);
        let low = terms.trunc(8, wide);
        let five = terms.constant(8, 5);
        let seven = terms.constant(8, 7);
        let a = terms.cmp(CmpOp::Eq, narrow, five);
        let b = terms.cmp(CmpOp::Eq, low, seven);
        let mut solver = make_solver("batsat").unwrap();
        let mut enc = Encoder::new(&mut *solver);
        let mut c = Circuits::default();
        let (la, lb) = (c.lit(&terms, &mut enc, a), c.lit(&terms, &mut enc, b));
        assert_eq!(enc.solver().solve(&[la, lb]), SolveResult::Unsat);
        assert_eq!(enc.solver().solve(&[la]), SolveResult::Sat);
        assert_eq!(enc.bv_value_u64(&c.inputs[&k]) & 0xff, 5);
    }

    /// The circuit of every operation agrees with the concrete evaluation, on a few values
    /// including the edge cases (zero divisors, MIN / -1, over-wide shifts).
    #[test]
    fn circuits_agree_with_the_evaluation() {
        let vals = [0u64, 1, 2, 7, 0x7f, 0x80, 0xff, 0xfe];
        let ops = [
            BvOp::Add,
            BvOp::Sub,
            BvOp::Mul,
            BvOp::UDiv,
            BvOp::URem,
            BvOp::SDiv,
            BvOp::SRem,
            BvOp::And,
            BvOp::Or,
            BvOp::Xor,
            BvOp::Shl,
            BvOp::LShr,
            BvOp::AShr,
        ];
        let cmps = [CmpOp::Eq, CmpOp::Ult, CmpOp::Ule, CmpOp::Slt, CmpOp::Sle];
        let mut terms = Terms::default();
        let ka = InputKey {
            thread: 0,
            index: 0,
        };
        let kb = InputKey {
            thread: 0,
            index: 1,
        };
        let a = terms.input(ka, 8);
        let b = terms.input(kb, 8);
        let bins: Vec<SymId> = ops.iter().map(|&op| terms.bin(op, a, b)).collect();
        let cs: Vec<SymId> = cmps.iter().map(|&op| terms.cmp(op, a, b)).collect();
        for &x in &vals {
            for &y in &vals {
                let mut solver = make_solver("batsat").unwrap();
                let mut enc = Encoder::new(&mut *solver);
                let mut c = Circuits::default();
                let outs: Vec<BitVec> = bins
                    .iter()
                    .chain(&cs)
                    .map(|&s| c.vector(&terms, &mut enc, s))
                    .collect();
                // The inputs' vectors are 64 bits wide; the terms read their low 8.
                let va = enc.bv_truncate(&c.inputs[&ka], 8);
                let vb = enc.bv_truncate(&c.inputs[&kb], 8);
                let ca = enc.bv_const(8, x);
                let cb = enc.bv_const(8, y);
                let ea = enc.bv_eq(&va, &ca);
                let eb = enc.bv_eq(&vb, &cb);
                assert_eq!(enc.solver().solve(&[ea, eb]), SolveResult::Sat);
                for (k, &op) in ops.iter().enumerate() {
                    assert_eq!(
                        enc.bv_value_u64(&outs[k]),
                        eval_bin(op, x, y, 8),
                        "{op:?} {x} {y}"
                    );
                }
                for (k, &op) in cmps.iter().enumerate() {
                    assert_eq!(
                        enc.bv_value_u64(&outs[ops.len() + k]) == 1,
                        eval_cmp(op, x, y, 8),
                        "{op:?} {x} {y}"
                    );
                }
            }
        }
    }
}
