//! Floating-point operations checked against gcc end to end: random operands (specials,
//! denormals, values near the overflow and underflow thresholds, ties, random bit patterns)
//! for every exact operation (`+ - * /`, the six comparisons, unary minus, conversions between
//! `float`, `double` and integers of every width). A program compiled by gcc (x86-64, and i386
//! with `-msse2 -mfpmath=sse`, which is C with `FLT_EVAL_METHOD` 0) prints each result's bits;
//! a second program asserts that every result has those bits, and yogar must answer TRUE for
//! it with the SAT engine (the encoder's circuits), with an explorer (the interpreter), and the
//! frontend's constant folding must give the same bits. Operands are read from unions at run
//! time, so gcc computes them with the machine's instructions. A fixed seed makes failures
//! reproducible; a mismatch is a FALSE with the failing assertion's line.

use std::fmt::Write;
use std::process::Command;

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

#[derive(Copy, Clone)]
struct Fmt {
    bits: u32,
    fraction: u32,
    union: &'static str,
    suffix: &'static str,
}

const FLOAT: Fmt = Fmt {
    bits: 32,
    fraction: 23,
    union: "F",
    suffix: "u",
};
const DOUBLE: Fmt = Fmt {
    bits: 64,
    fraction: 52,
    union: "D",
    suffix: "ull",
};

fn value(r: &mut Rng, f: Fmt) -> u64 {
    let fr = f.fraction;
    let exp_max = (1u64 << (f.bits - 1 - fr)) - 1;
    let frac_mask = (1u64 << fr) - 1;
    let sign = r.below(2) << (f.bits - 1);
    let rnd = r.next();
    let v = match r.below(9) {
        0 => [
            0,
            1,
            frac_mask,
            1 << fr,
            exp_max << fr,
            (exp_max << fr) | 1 << (fr - 1),
            ((exp_max - 1) << fr) | frac_mask,
            (exp_max / 2) << fr,
        ][r.below(8) as usize],
        1 => rnd & frac_mask,
        2 => ((exp_max - 1 - r.below(2)) << fr) | (rnd & frac_mask),
        3 => ((1 + r.below(2)) << fr) | (rnd & frac_mask),
        // Short significands near 1: exact products and ties.
        4 => ((exp_max / 2 - 2 + r.below(5)) << fr) | ((rnd & frac_mask) >> (fr - 3) << (fr - 3)),
        _ => ((1 + rnd % (exp_max - 1)) << fr) | (r.next() & frac_mask),
    };
    v | sign
}

fn is_nan(f: Fmt, v: u64) -> bool {
    let fr = f.fraction;
    let exp_max = (1u64 << (f.bits - 1 - fr)) - 1;
    (v >> fr) & exp_max == exp_max && v & ((1u64 << fr) - 1) != 0
}

fn as_f64(f: Fmt, v: u64) -> f64 {
    if f.bits == 32 {
        f64::from(f32::from_bits(v as u32))
    } else {
        f64::from_bits(v)
    }
}

const INTS: &[(&str, u32, bool)] = &[
    ("signed char", 8, true),
    ("unsigned char", 8, false),
    ("short", 16, true),
    ("unsigned short", 16, false),
    ("int", 32, true),
    ("unsigned", 32, false),
    ("long long", 64, true),
    ("unsigned long long", 64, false),
];

/// One checked operation: declarations of its operands, the statement computing `r<i>` (of
/// type `ty`), and how to print/compare it as an unsigned integer.
struct Case {
    decls: String,
    compute: String,
    /// The result as an unsigned integer expression, and its C type.
    bits_expr: String,
    bits_ty: &'static str,
}

fn gen_case(r: &mut Rng, i: usize) -> Case {
    let f = if r.below(2) == 0 { FLOAT } else { DOUBLE };
    let (u, s) = (f.union, f.suffix);
    let bits_ty = if f.bits == 32 {
        "unsigned"
    } else {
        "unsigned long long"
    };
    let result_union = |decls: &mut String, compute: String| Case {
        decls: {
            let _ = writeln!(decls, "union {u} r{i};");
            decls.clone()
        },
        compute,
        bits_expr: format!("r{i}.u"),
        bits_ty,
    };
    let mut decls = String::new();
    let a = value(r, f);
    let mut b = if r.below(3) == 0 {
        // Close to a: cancellations, alignment by a few bits.
        let d = r.below(4 * u64::from(f.fraction) / 3);
        let e = ((a >> f.fraction) & ((1 << (f.bits - 1 - f.fraction)) - 1)).saturating_sub(d);
        (r.below(2) << (f.bits - 1)) | e << f.fraction | (r.next() & ((1 << f.fraction) - 1))
    } else {
        value(r, f)
    };
    if is_nan(f, a) && is_nan(f, b) {
        // Which NaN the machine returns for two depends on the compiler's operand order.
        b = 0;
    }
    let _ = writeln!(
        decls,
        "union {u} a{i} = {{ {a:#x}{s} }}, b{i} = {{ {b:#x}{s} }};"
    );
    match r.below(6) {
        0 | 1 => {
            let op = ["+", "-", "*", "/"][r.below(4) as usize];
            result_union(&mut decls, format!("r{i}.f = a{i}.f {op} b{i}.f;"))
        }
        2 => {
            let op = ["<", "<=", ">", ">=", "==", "!="][r.below(6) as usize];
            let _ = writeln!(decls, "int r{i};");
            Case {
                decls,
                compute: format!("r{i} = a{i}.f {op} b{i}.f;"),
                bits_expr: format!("(unsigned)r{i}"),
                bits_ty: "unsigned",
            }
        }
        3 => {
            if r.below(2) == 0 {
                result_union(&mut decls, format!("r{i}.f = -a{i}.f;"))
            } else {
                // To the other format.
                let (o, ou) = if f.bits == 32 {
                    ("double", "D")
                } else {
                    ("float", "F")
                };
                let _ = writeln!(decls, "union {ou} r{i};");
                Case {
                    decls,
                    compute: format!("r{i}.f = ({o})a{i}.f;"),
                    bits_expr: format!("r{i}.u"),
                    bits_ty: if ou == "F" {
                        "unsigned"
                    } else {
                        "unsigned long long"
                    },
                }
            }
        }
        4 => {
            // Integer to floating.
            let (ity, w, signed) = INTS[r.below(INTS.len() as u64) as usize];
            let raw = r.next() >> r.below(64);
            let m = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
            let v = raw & m;
            let lit = if signed {
                let sv = ((v << (64 - w)) as i64) >> (64 - w);
                if sv == i64::MIN {
                    "(-9223372036854775807LL - 1)".to_string()
                } else {
                    format!("{sv}LL")
                }
            } else {
                format!("{v}ULL")
            };
            let _ = writeln!(decls, "{ity} n{i} = {lit};");
            result_union(&mut decls, format!("r{i}.f = n{i};"))
        }
        _ => {
            // Floating to integer, in range only (out of range is undefined in C).
            let (ity, w, signed) = INTS[r.below(INTS.len() as u64) as usize];
            let scale = 2f64.powi(r.below(u64::from(w) + 2) as i32);
            let mut x = (r.next() as f64 / u64::MAX as f64) * scale;
            if signed && r.below(2) == 0 {
                x = -x;
            }
            let v = if f.bits == 32 {
                u64::from((x as f32).to_bits())
            } else {
                x.to_bits()
            };
            let t = as_f64(f, v).trunc();
            let (lo, hi) = if signed {
                (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
            } else {
                (0.0, 2f64.powi(w as i32))
            };
            let v = if t >= lo && t < hi { v } else { 0 };
            decls = format!("union {u} a{i} = {{ {v:#x}{s} }};\n");
            let _ = writeln!(decls, "{ity} r{i};");
            Case {
                decls,
                compute: format!("r{i} = ({ity})a{i}.f;"),
                bits_expr: format!("(unsigned long long)r{i}"),
                bits_ty: "unsigned long long",
            }
        }
    }
}

/// Cases per checked program.
const CHUNK: usize = 30;

const PRELUDE: &str = "union F { unsigned u; float f; };\n\
    union D { unsigned long long u; double f; };\n";

fn run_check(label: &str, gcc_flags: &[&str], yogar_model: &str, seed: u64, n: usize) {
    let mut r = Rng(seed);
    let cases: Vec<Case> = (0..n).map(|i| gen_case(&mut r, i)).collect();
    let dir = std::env::temp_dir().join(format!("yogar-float-gcc-{}-{label}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 1. gcc computes. Each case is a block of locals: registers for yogar, stack slots
    // that gcc -O0 reads back at run time.
    let mut src = String::from("#include <stdio.h>\n");
    src += PRELUDE;
    src += "int main(void) {\n";
    for (i, c) in cases.iter().enumerate() {
        let _ = writeln!(
            src,
            "  {{\n{}  {}\n  printf(\"{i} %llu\\n\", (unsigned long long)({}));\n  }}",
            c.decls, c.compute, c.bits_expr
        );
    }
    src += "  return 0;\n}\n";
    let c_path = dir.join("compute.c");
    let exe = dir.join("compute");
    std::fs::write(&c_path, &src).unwrap();
    let built = Command::new("gcc")
        .args(["-w", "-O0"])
        .args(gcc_flags)
        .arg("-o")
        .arg(&exe)
        .arg(&c_path)
        .output();
    let Ok(built) = built else {
        eprintln!("skipped: gcc not runnable");
        return;
    };
    if !built.status.success() {
        eprintln!(
            "skipped: gcc cannot build for {label}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let out = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let expected: Vec<u64> = text
        .lines()
        .map(|l| l.split_once(' ').unwrap().1.parse().unwrap())
        .collect();
    assert_eq!(expected.len(), n, "gcc printed every result");
    // 2. yogar must prove that every result has gcc's bits.
    // In chunks: every union is a memory object, and a pointer has few bits to name them.
    for (k, chunk) in cases.chunks(CHUNK).enumerate() {
        let mut check = String::from("#include <assert.h>\n");
        check += PRELUDE;
        check += "int main(void) {\n";
        for (c, want) in chunk.iter().zip(&expected[k * CHUNK..]) {
            let _ = writeln!(
                check,
                "  {{\n{}  {}\n  assert(({})({}) == ({}){want}ULL);\n  }}",
                c.decls, c.compute, c.bits_ty, c.bits_expr, c.bits_ty
            );
        }
        check += "  return 0;\n}\n";
        let check_path = dir.join(format!("check{k}.c"));
        std::fs::write(&check_path, &check).unwrap();
        for engine in ["yogar", "dpor"] {
            let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
                .args(["verify", yogar_model, "--unwind", "1", "--engine", engine])
                .arg(&check_path)
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let last = stdout.lines().last().unwrap_or("");
            if last != "TRUE" {
                // Keep the files for a look.
                panic!(
                    "{label} {engine}: {last}\n{stdout}{}\nprogram: {}",
                    String::from_utf8_lossy(&out.stderr),
                    check_path.display()
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("{label}: {n} results agree with gcc (SAT engine and interpreter)");
}

#[test]
fn lp64_float_operations_match_gcc() {
    run_check("lp64", &[], "--64", 0x0f10_a7f1_0a75_eed1, 1500);
}

#[test]
fn ilp32_sse_float_operations_match_gcc_m32() {
    run_check(
        "ilp32",
        &["-m32", "-msse2", "-mfpmath=sse"],
        "--32",
        0x5eed_f10a_7d0b_1e32,
        1500,
    );
}

/// Constant expressions folded by the frontend against gcc's folding (which is IEEE-exact
/// too): the same operations on literals.
#[test]
fn folded_constants_match_gcc() {
    let mut r = Rng(0xc0ff_ee00_f10a_7001);
    let mut print = String::from("#include <stdio.h>\n#include <string.h>\nint main(void) {\n");
    let mut decls = String::new();
    let n = 400;
    for i in 0..n {
        let lit = |r: &mut Rng| {
            let mant = r.below(100_000);
            let exp = r.below(80) as i64 - 40;
            format!("{mant}e{exp}")
        };
        let (x, y) = (lit(&mut r), lit(&mut r));
        let (t, suf) = if r.below(2) == 0 {
            ("float", "f")
        } else {
            ("double", "")
        };
        let op = ["+", "-", "*", "/", "<", "=="][r.below(6) as usize];
        let _ = writeln!(decls, "{t} c{i} = {x}{suf} {op} {y}{suf};");
        let _ = writeln!(
            print,
            "  {{ unsigned long long u = 0; memcpy(&u, &c{i}, sizeof c{i}); printf(\"%llu\\n\", u); }}"
        );
    }
    let dir = std::env::temp_dir().join(format!("yogar-float-fold-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let c_path = dir.join("fold.c");
    let exe = dir.join("fold");
    std::fs::write(&c_path, format!("{decls}{print}  return 0;\n}}\n")).unwrap();
    let Ok(built) = Command::new("gcc")
        .args(["-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&c_path)
        .output()
    else {
        eprintln!("skipped: gcc not runnable");
        return;
    };
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let want: Vec<u64> = text.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(want.len(), n);
    let prog = yogar::frontend::load_source(&decls, yogar::ir::DataModel::Lp64).expect("lowers");
    let body = prog.funcs[prog.init].body.as_ref().unwrap();
    let mut got = std::collections::HashMap::new();
    for ins in body.instrs.values() {
        if let yogar::ir::InstrKind::Assign { dst, src } = &ins.kind {
            if let yogar::ir::PlaceBase::Var(v) = dst.base {
                let value = src
                    .as_const()
                    .unwrap_or_else(|| panic!("{} is not folded", prog.vars[v].name));
                got.insert(prog.vars[v].name.clone(), value);
            }
        }
    }
    let mut checked = 0;
    for (i, w) in want.iter().enumerate() {
        let g = got.get(&format!("c{i}")).copied().unwrap_or(0);
        let line = decls.lines().nth(i).unwrap();
        // gcc's folder gives +NaN for an invalid operation, the machine (and yogar, which
        // models the machine) its default NaN: C fixes neither, so NaNs compare as NaNs.
        let nan = |v: u64| {
            if line.starts_with("float") {
                f32::from_bits(v as u32).is_nan()
            } else {
                f64::from_bits(v).is_nan()
            }
        };
        if nan(*w) {
            assert!(nan(g), "c{i}: {line}");
        } else {
            assert_eq!(g, *w, "c{i}: {line}");
        }
        checked += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(checked, n);
}
