//! Small symbolic arrays: every index and element assignment for small sizes.

mod common;

use encoder::{BitVec, Encoder};
use solver_glue::{Lit, SolveResult};

fn fix(v: &BitVec, value: u64) -> Vec<Lit> {
    v.bits()
        .iter()
        .enumerate()
        .map(|(i, &l)| if (value >> i) & 1 == 1 { l } else { !l })
        .collect()
}

/// Element width 2; all element contents (up to 3 elements), every index value.
#[test]
fn read_write_exhaustive_small() {
    let mut checked = 0;
    for n in 1..=3usize {
        for iw in 1..=3u32 {
            let mut solver = common::solver();
            let mut enc = Encoder::new(&mut *solver);
            let elems: Vec<BitVec> = (0..n).map(|_| enc.bv_fresh(2)).collect();
            let index = enc.bv_fresh(iw);
            let value = enc.bv_fresh(2);
            let read = enc.array_read(&elems, &index);
            let written = enc.array_write(&elems, &index, &value);
            let inb = enc.array_in_bounds(&index, n);
            for contents in 0..1u64 << (2 * n) {
                for idx in 0..1u64 << iw {
                    for v in 0..4u64 {
                        let mut assume = fix(&index, idx);
                        assume.extend(fix(&value, v));
                        for (k, e) in elems.iter().enumerate() {
                            assume.extend(fix(e, (contents >> (2 * k)) & 3));
                        }
                        assert_eq!(enc.solver().solve(&assume), SolveResult::Sat);
                        let in_range = (idx as usize) < n;
                        assert_eq!(enc.value(inb), in_range);
                        for (k, e) in written.iter().enumerate() {
                            let old = (contents >> (2 * k)) & 3;
                            let want = if k as u64 == idx { v } else { old };
                            assert_eq!(enc.bv_value_u64(e), want, "n={n} idx={idx} k={k}");
                        }
                        if in_range {
                            let want = (contents >> (2 * idx)) & 3;
                            assert_eq!(enc.bv_value_u64(&read), want);
                            // …and it is forced.
                            for other in (0..4).filter(|&o| o != want) {
                                let mut a = assume.clone();
                                a.extend(fix(&read, other));
                                assert_eq!(enc.solver().solve(&a), SolveResult::Unsat);
                            }
                        } else {
                            // Out of range: any value is possible.
                            for any in 0..4 {
                                let mut a = assume.clone();
                                a.extend(fix(&read, any));
                                assert_eq!(enc.solver().solve(&a), SolveResult::Sat);
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    // Σ_n Σ_iw 4^n · 2^iw · 4 = (4+16+64)·(2+4+8)·4
    assert_eq!(checked, 84 * 14 * 4);
}

/// Constant index and contents fold to constants.
#[test]
fn constant_accesses_fold() {
    let mut solver = common::solver();
    let mut enc = Encoder::new(&mut *solver);
    let elems: Vec<BitVec> = (0..5).map(|k| enc.bv_const(8, 10 + k)).collect();
    let before = enc.counters();
    for i in 0..5u64 {
        let idx = enc.bv_const(4, i);
        let r = enc.array_read(&elems, &idx);
        assert_eq!(enc.bv_const_value(&r), Some(10 + i));
        let v = enc.bv_const(8, 99);
        let w = enc.array_write(&elems, &idx, &v);
        for (k, e) in w.iter().enumerate() {
            let want = if k as u64 == i { 99 } else { 10 + k as u64 };
            assert_eq!(enc.bv_const_value(e), Some(want));
        }
    }
    assert_eq!(enc.counters(), before);
}
