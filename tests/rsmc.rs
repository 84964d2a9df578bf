//! The POWER explorer: the seed examples D1-D4 (trace counts, each trace once), SC against
//! POWER, and the classic litmus families against the outcomes the POWER model prescribes.

use std::collections::HashSet;

use yogar::explore::findings::Budget;
use yogar::explore::rsmc::families::{binomial, sb_stores};
use yogar::explore::rsmc::state::{Src, State};
use yogar::explore::rsmc::{explore, MemoryModel, Options, Stats};

fn opts(model: MemoryModel) -> Options {
    Options {
        model,
        max_events: 1000,
        budget: Budget::default(),
    }
}

/// The read-from and coherence choices of a complete state: two runs reach the same trace
/// exactly when these are equal.
fn trace_key(s: &State) -> String {
    let mut k = String::new();
    let mut loads = s.committed.clone();
    loads.sort();
    for e in &loads {
        if let Some(src) = s.ev(*e).rf {
            let src = match src {
                Src::Init(l) => format!("i{l}"),
                Src::Store(w) => format!("{}.{}", w.thread, w.index),
            };
            k += &format!("{}.{}<-{src};", e.thread, e.index);
        }
    }
    for (l, co) in s.co.iter().enumerate() {
        k += &format!("co{l}:{co:?};");
    }
    k
}

/// Explores, checking that no trace is reached twice; returns the stats.
fn once(p: &yogar::explore::rsmc::program::Program, model: MemoryModel) -> Stats {
    let mut seen = HashSet::new();
    let (stats, halt) = explore(p, &opts(model), &mut |s| {
        assert!(seen.insert(trace_key(s)), "a trace explored twice");
        false
    });
    assert_eq!(halt, None);
    assert_eq!(stats.traces as usize, seen.len());
    stats
}

#[test]
fn d4_sb_stores_with_syncs_has_three_traces() {
    for model in [MemoryModel::Power, MemoryModel::Sc] {
        assert_eq!(once(&sb_stores(10, true), model).traces, 3);
    }
}

#[test]
fn d4_sb_stores_without_syncs_under_sc_has_three_traces() {
    assert_eq!(once(&sb_stores(10, false), MemoryModel::Sc).traces, 3);
}

#[test]
fn d4_family_without_syncs_on_power_counts_3_plus_binomial() {
    for k in 1..=5u64 {
        let s = once(&sb_stores(k as usize, false), MemoryModel::Power);
        assert_eq!(s.traces, 3 + binomial(2 * k, k), "k = {k}");
    }
}

/// Every complete trace the execution model reaches by committing any enabled access with
/// any allowed parameter in any order (a stateful search over all runs): the oracle.
fn all_traces(p: &yogar::explore::rsmc::program::Program, model: MemoryModel) -> HashSet<String> {
    use yogar::explore::rsmc::model::consistent;
    use yogar::explore::rsmc::program::Instr;
    use yogar::explore::rsmc::state::Cb;
    let cb = match model {
        MemoryModel::Power => Cb::Power,
        MemoryModel::Sc => Cb::ProgramOrder,
    };
    let mut out = HashSet::new();
    let mut seen = HashSet::new();
    let mut stack = vec![State::new(p, cb, 1000)];
    while let Some(mut s) = stack.pop() {
        s.flb().expect("litmus tests run");
        let mut key = trace_key(&s);
        let mut committed = s.committed.clone();
        committed.sort();
        key += &format!("{committed:?}");
        if !seen.insert(key) {
            continue;
        }
        let en = s.enabled_accesses();
        if en.is_empty() {
            if s.complete() {
                out.insert(trace_key(&s));
            }
            continue;
        }
        for e in en {
            let loc = s.ev(e).loc.expect("located");
            if matches!(s.instr(e), Instr::Load { .. }) {
                for src in s.sources(loc) {
                    let mut s2 = s.clone();
                    s2.commit_load(e, src);
                    if consistent(&s2, model).expect("small") {
                        stack.push(s2);
                    }
                }
            } else {
                for n in 0..=s.co[loc].len() {
                    let mut s2 = s.clone();
                    s2.commit_store(e, n);
                    if consistent(&s2, model).expect("small") {
                        stack.push(s2);
                    }
                }
            }
        }
    }
    out
}

fn litmus_files() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = ["tests/litmus", "tests/litmus/seed"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("tests/litmus"))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .collect();
    v.sort();
    v
}

fn load(path: &std::path::Path) -> yogar::litmus::Litmus {
    let text = std::fs::read_to_string(path).expect("readable");
    yogar::litmus::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The exploration reaches exactly the oracle's traces, each once, on every litmus test,
/// under POWER and SC.
#[test]
fn exploration_reaches_exactly_the_oracle_traces_once() {
    for path in litmus_files() {
        let t = load(&path);
        for model in [MemoryModel::Power, MemoryModel::Sc] {
            let mut got = HashSet::new();
            let (_, halt) = explore(&t.program, &opts(model), &mut |s| {
                assert!(got.insert(trace_key(s)), "{}: twice", path.display());
                false
            });
            assert_eq!(halt, None);
            let want = all_traces(&t.program, model);
            assert_eq!(got, want, "{} under {model:?}", path.display());
        }
    }
}

/// The classic families give the outcome the POWER model prescribes
/// (tests/litmus/expected.csv: test, expected outcome, source).
#[test]
fn litmus_families_give_the_power_outcomes() {
    let table = std::fs::read_to_string("tests/litmus/expected.csv").expect("expected.csv");
    let mut n = 0;
    for row in table.lines().skip(1) {
        let mut f = row.splitn(3, ',');
        let (name, expected) = (f.next().expect("name"), f.next().expect("outcome"));
        let t = load(std::path::Path::new(&format!("tests/litmus/{name}.litmus")));
        let r = yogar::litmus::run(&t, MemoryModel::Power, Budget::default()).expect("runs");
        let got = format!("{:?}", r.outcome);
        assert_eq!(got, expected, "{name}");
        n += 1;
    }
    assert!(n >= 60, "{n} tests");
}

/// Under SC none of the weak outcomes of the families is reachable (all are non-SC cycles).
#[test]
fn litmus_families_are_forbidden_under_sc() {
    let table = std::fs::read_to_string("tests/litmus/expected.csv").expect("expected.csv");
    for row in table.lines().skip(1) {
        let name = row.split(',').next().expect("name");
        let t = load(std::path::Path::new(&format!("tests/litmus/{name}.litmus")));
        let r = yogar::litmus::run(&t, MemoryModel::Sc, Budget::default()).expect("runs");
        assert_eq!(
            r.outcome,
            yogar::litmus::Outcome::Forbidden,
            "{name} under SC"
        );
    }
}

#[test]
fn d1_lb_data_has_four_power_traces_and_three_sc_traces() {
    let t = load(std::path::Path::new("tests/litmus/seed/D1-LB+data.litmus"));
    let p = yogar::litmus::run(&t, MemoryModel::Power, Budget::default()).expect("runs");
    assert_eq!(
        (p.stats.traces, p.outcome),
        (4, yogar::litmus::Outcome::Allowed)
    );
    let s = yogar::litmus::run(&t, MemoryModel::Sc, Budget::default()).expect("runs");
    assert_eq!(
        (s.stats.traces, s.outcome),
        (3, yogar::litmus::Outcome::Forbidden)
    );
}

#[test]
fn d2_commit_order_example_never_blocks() {
    let t = load(std::path::Path::new(
        "tests/litmus/seed/D2-commit-deadlock.litmus",
    ));
    let p = yogar::litmus::run(&t, MemoryModel::Power, Budget::default()).expect("runs");
    assert_eq!((p.stats.traces, p.stats.blocked), (4, 0));
    assert_eq!(p.outcome, yogar::litmus::Outcome::Forbidden);
}

#[test]
fn d3_one_reader_two_writers_has_six_traces_each_once() {
    let t = load(std::path::Path::new(
        "tests/litmus/seed/D3-one-reader-two-writers.litmus",
    ));
    for model in [MemoryModel::Power, MemoryModel::Sc] {
        let s = once(&t.program, model);
        assert_eq!((s.traces, s.blocked), (6, 0));
    }
}

/// A small deterministic generator (xorshift) of random register programs: 2-3 threads of
/// loads, stores (constant or data/address dependent), forward branches on loaded values and
/// fences over two locations.
fn random_program(seed: u64) -> yogar::explore::rsmc::program::Program {
    use yogar::explore::rsmc::program::{Expr, Fence, Instr, Op, Program, Thread};
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s % n
    };
    let mut p = Program::default();
    let locs = [p.loc("x"), p.loc("y")];
    let threads = 2 + next(2) as usize;
    for t in 0..threads {
        let mut th = Thread {
            name: format!("P{t}"),
            ..Thread::default()
        };
        let len = 2 + next(3) as usize;
        let mut loaded: Vec<u32> = Vec::new();
        let mut code = Vec::new();
        for k in 0..len {
            let at = Expr::Const(Program::address(locs[next(2) as usize]));
            let dep = |e: Expr, r: Option<&u32>| match r {
                // `r ^ r` is 0 but depends on r.
                Some(r) => Expr::bin(Op::Add, e, Expr::bin(Op::Xor, Expr::Reg(*r), Expr::Reg(*r))),
                None => e,
            };
            let last = loaded.last().copied();
            match next(7) {
                0 | 1 => {
                    let r = th.reg(&format!("r{k}"));
                    let addr = if next(3) == 0 {
                        dep(at, last.as_ref())
                    } else {
                        at
                    };
                    code.push(Instr::Load { dst: r, addr });
                    loaded.push(r);
                }
                2 | 3 => {
                    let v = Expr::Const(1 + next(2) as i64 + 2 * t as i64);
                    let val = match next(3) {
                        0 => dep(v, last.as_ref()),
                        1 => match last {
                            Some(r) => Expr::bin(Op::Add, Expr::Reg(r), Expr::Const(1)),
                            None => v,
                        },
                        _ => v,
                    };
                    code.push(Instr::Store { addr: at, val });
                }
                4 => code.push(Instr::Fence(match next(3) {
                    0 => Fence::Sync,
                    1 => Fence::Lwsync,
                    _ => Fence::Isync,
                })),
                _ => match last {
                    Some(r) => code.push(Instr::Branch {
                        cond: Expr::bin(Op::Eq, Expr::Reg(r), Expr::Const(0)),
                        target: usize::MAX,
                    }),
                    None => code.push(Instr::Fence(Fence::Lwsync)),
                },
            }
        }
        // Branches skip one or two instructions forward.
        let n = code.len();
        for (i, ins) in code.iter_mut().enumerate() {
            if let Instr::Branch { target, .. } = ins {
                *target = (i + 2 + (i % 2)).min(n);
            }
        }
        th.instrs = code;
        p.threads.push(th);
    }
    p
}

/// On 400 random programs the exploration reaches exactly the oracle's traces, each once,
/// under POWER and SC.
#[test]
fn exploration_equals_the_oracle_on_random_programs() {
    let mut total = 0;
    for seed in 0..400 {
        let p = random_program(seed);
        for model in [MemoryModel::Power, MemoryModel::Sc] {
            let mut got = HashSet::new();
            let (_, halt) = explore(&p, &opts(model), &mut |s| {
                assert!(got.insert(trace_key(s)), "seed {seed}: twice");
                false
            });
            assert_eq!(halt, None);
            let want = all_traces(&p, model);
            assert_eq!(got, want, "seed {seed} under {model:?}: {p:?}");
            total += got.len();
        }
    }
    assert!(total > 2000, "{total} traces");
}

/// The paper's SB+10W without syncs: 3 + C(20, 10) = 184759 traces on POWER, each once
/// (about 13 s CPU in release mode).
#[test]
fn d4_sb_10_stores_without_syncs_on_power_has_184759_traces() {
    let (stats, halt) = explore(
        &sb_stores(10, false),
        &opts(MemoryModel::Power),
        &mut |_| false,
    );
    assert_eq!(halt, None);
    assert_eq!(stats.traces, 184_759);
    assert_eq!(binomial(20, 10) + 3, 184_759);
}

/// The outcome of a one-thread litmus test given as its code column.
fn one_thread(code: &str, cond: &str) -> yogar::litmus::Outcome {
    let text = format!("PPC T\n{{ x=0; }}\n P0 ;\n{code}\nexists ({cond})\n");
    let t = yogar::litmus::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    yogar::litmus::run(&t, MemoryModel::Sc, Budget::default())
        .expect("runs")
        .outcome
}

/// A branch on a named condition register field tests that field, not `cr0`; `andi.` sets
/// `cr0` from its result (the record form).
#[test]
fn litmus_branches_test_the_condition_field_they_name() {
    use yogar::litmus::Outcome::{Allowed, Forbidden};
    let named = " li r1,1 ;\n li r2,2 ;\n cmpw cr1,r1,r1 ;\n cmpw r1,r2 ;\n beq cr1,L ;\n \
                 li r3,7 ;\n L: ;\n li r4,1 ;";
    assert_eq!(one_thread(named, "0:r3=0"), Allowed);
    assert_eq!(one_thread(named, "0:r3=7"), Forbidden);
    let record = " li r1,2 ;\n cmpwi r1,0 ;\n andi. r2,r1,1 ;\n beq L ;\n li r3,7 ;\n L: ;\n \
                  li r4,1 ;";
    assert_eq!(one_thread(record, "0:r3=0"), Allowed);
    assert_eq!(one_thread(record, "0:r3=7"), Forbidden);
}
