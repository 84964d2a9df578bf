//! C's integer typing and arithmetic (promotions, usual arithmetic conversions, signedness,
//! casts, shifts, division, comparisons, `?:`) checked against gcc on random constant
//! expressions: the frontend folds each expression; a program compiled by gcc (with `-m32`
//! for ILP32, `-fwrapv` so that signed overflow is defined) prints the value, the size and the
//! signedness of the same expression. A fixed seed makes failures reproducible.

use std::fmt::Write;
use std::process::Command;

use yogar::frontend::load_source;
use yogar::ir::{DataModel, InstrKind, PlaceBase};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

const TYPES: &[&str] = &[
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "_Bool",
];

fn leaf(r: &mut Rng) -> String {
    let v = match r.below(6) {
        0 => r.below(10).to_string(),
        1 => format!("{}u", r.below(300)),
        2 => format!("{}L", r.below(100000)),
        3 => "0xffffffff".to_string(),
        4 => format!("{}ULL", r.next() >> r.below(64)),
        _ => format!("'{}'", (b'a' + r.below(26) as u8) as char),
    };
    if r.below(3) == 0 {
        format!("(({}){v})", TYPES[r.below(TYPES.len() as u64) as usize])
    } else {
        v
    }
}

fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.below(4) == 0 {
        return leaf(r);
    }
    let a = expr(r, depth - 1);
    match r.below(10) {
        0 => format!("(-{a})"),
        1 => format!("(~{a})"),
        2 => format!("(!{a})"),
        3 => format!("(({}){a})", TYPES[r.below(TYPES.len() as u64) as usize]),
        4 => format!("({a} {} {})", ["<<", ">>"][r.below(2) as usize], r.below(8)),
        5 => {
            // Positive divisors only: no division by zero, no INT_MIN / -1.
            format!(
                "({a} {} {})",
                ["/", "%"][r.below(2) as usize],
                1 + r.below(9)
            )
        }
        6 => {
            let b = expr(r, depth - 1);
            let c = expr(r, depth - 1);
            format!("({a} ? {b} : {c})")
        }
        _ => {
            let b = expr(r, depth - 1);
            let ops = [
                "+", "-", "*", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=", "&&", "||",
            ];
            format!("({a} {} {b})", ops[r.below(ops.len() as u64) as usize])
        }
    }
}

fn check(model: DataModel, flag: Option<&str>, seed: u64) {
    let mut r = Rng(seed);
    let exprs: Vec<String> = (0..1000).map(|_| expr(&mut r, 5)).collect();
    let mut src = String::new();
    for (i, e) in exprs.iter().enumerate() {
        let _ = writeln!(src, "unsigned long long v{i} = (unsigned long long)({e});");
        let _ = writeln!(src, "unsigned long s{i} = sizeof({e});");
        let _ = writeln!(src, "int g{i} = ({e}) * 0 - 1 < 0;");
    }
    let prog = match load_source(&src, model) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let body = prog.funcs[prog.init].body.as_ref().unwrap();
    let mut ours = std::collections::HashMap::new();
    for ins in body.instrs.values() {
        if let InstrKind::Assign { dst, src } = &ins.kind {
            if let PlaceBase::Var(v) = dst.base {
                let name = prog.vars[v].name.clone();
                let value = src
                    .as_const()
                    .unwrap_or_else(|| panic!("{name} is not folded: {src:?}"));
                ours.insert(name, value);
            }
        }
    }
    let mut main = String::from("#include <stdio.h>\n");
    main += &src;
    main += "int main(void) {\n";
    for i in 0..exprs.len() {
        let _ = writeln!(
            main,
            "  printf(\"v{i} %llu\\ns{i} %lu\\ng{i} %d\\n\", v{i}, (unsigned long)s{i}, g{i});"
        );
    }
    main += "  return 0;\n}\n";
    let dir = std::env::temp_dir().join(format!("yogar-arith-{}-{model:?}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c = dir.join("arith.c");
    let exe = dir.join("arith");
    std::fs::write(&c, &main).unwrap();
    let mut cmd = Command::new("gcc");
    cmd.args(["-w", "-fwrapv", "-o"]).arg(&exe).arg(&c);
    if let Some(f) = flag {
        cmd.arg(f);
    }
    let built = cmd.output();
    let Ok(built) = built else {
        eprintln!("skipped: gcc not runnable");
        return;
    };
    if !built.status.success() {
        eprintln!(
            "skipped: gcc cannot build for {model:?}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout);
    let mut checked = 0;
    for line in text.lines() {
        let (name, val) = line.split_once(' ').unwrap();
        let want: u64 = val
            .parse::<i64>()
            .map(|v| v as u64)
            .or_else(|_| val.parse::<u64>())
            .unwrap();
        let got = ours[name];
        let idx: usize = name[1..].parse().unwrap();
        // g<i> is an int: compare as the int it is.
        let got = if name.starts_with('g') {
            got as i32 as i64 as u64
        } else {
            got
        };
        assert_eq!(got, want, "{model:?} {name}: expression {}", exprs[idx]);
        checked += 1;
    }
    assert_eq!(checked, 3 * exprs.len());
    eprintln!("{model:?}: {checked} values agree with gcc");
}

#[test]
fn ilp32_arithmetic_matches_gcc_m32() {
    check(DataModel::Ilp32, Some("-m32"), 0x1234_5678_9abc_def1);
}

#[test]
fn lp64_arithmetic_matches_gcc() {
    check(DataModel::Lp64, None, 0x0fed_cba9_8765_4321);
}
