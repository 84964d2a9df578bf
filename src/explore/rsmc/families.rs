//! Program families with known trace counts, for tests and the bench.

use super::program::{Expr, Fence, Instr, Op, Program, Thread};

/// The store-buffering mutual exclusion of Abdulla et al. (CAV 2016, Fig. 11, "SB+10W+syncs"
/// for `k = 10`): each of two threads raises its flag, optionally `sync`s, reads the other's
/// flag and, when it reads 0, makes `k` stores to `z` (its critical section).
/// Allowed traces: 3 with the syncs (POWER and SC) and under SC; `3 + C(2k, k)` on POWER
/// without them (both threads enter, and the 2k stores to `z` interleave in coherence).
pub fn sb_stores(k: usize, syncs: bool) -> Program {
    let mut p = Program::default();
    let (x, y, z) = (p.loc("x"), p.loc("y"), p.loc("z"));
    for (t, (mine, other)) in [(x, y), (y, x)].into_iter().enumerate() {
        let mut th = Thread {
            name: format!("P{t}"),
            ..Thread::default()
        };
        let r = th.reg("r0");
        let mut code = vec![Instr::Store {
            addr: Expr::Const(Program::address(mine)),
            val: Expr::Const(1),
        }];
        if syncs {
            code.push(Instr::Fence(Fence::Sync));
        }
        code.push(Instr::Load {
            dst: r,
            addr: Expr::Const(Program::address(other)),
        });
        let end = code.len() + 1 + k;
        code.push(Instr::Branch {
            cond: Expr::bin(Op::Ne, Expr::Reg(r), Expr::Const(0)),
            target: end,
        });
        for i in 0..k {
            code.push(Instr::Store {
                addr: Expr::Const(Program::address(z)),
                val: Expr::Const((t * k + i + 1) as i64),
            });
        }
        th.instrs = code;
        p.threads.push(th);
    }
    p
}

/// `C(n, k)`.
pub fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}
