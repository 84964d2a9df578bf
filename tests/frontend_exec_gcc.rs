//! Evaluation order and side effects of the lowering, checked by execution: small sequential
//! C programs are run twice — compiled by gcc, and lowered to the IR then run by a minimal
//! reference interpreter written here (objects as byte arrays, pointers as object/offset).
//! Both print the same global result array, or the lowering is wrong.

use std::collections::HashMap;
use std::process::Command;

use cranelift_entity::EntityRef;
use yogar::frontend::load_source;
use yogar::ir::*;

const PROGRAMS: &[&str] = &[
    // ++/--, compound assignment, comma, ?: and short-circuit with side effects.
    r#"int res[16]; int n;
int bump(int k) { n += k; return n; }
int main(void) {
  int i = 0, a[5] = {1, 2, 3};
  i++; ++i; res[0] = i;
  a[i++] += 10; res[1] = a[1]; res[2] = i;
  res[3] = (bump(1), bump(2), n * 10);
  res[4] = n > 2 ? bump(5) : bump(100);
  res[5] = n;
  res[6] = (n == 0) && bump(1000); res[7] = n;
  res[8] = (n != 0) || bump(1000); res[9] = n;
  res[10] = (n == 8) && bump(1); res[11] = n;
  int x = 5; x <<= 2; x -= 3; x *= -2; x /= 3; x %= 5; res[12] = x;
  unsigned u = 3; u -= 5; res[13] = u > 100;
  char c = 127; c++; res[14] = c;
  _Bool b = 0; b++; b++; res[15] = b;
  return 0;
}"#,
    // pointers, arrays, structs, unions, pointer arithmetic and differences.
    r#"int res[16];
struct P { int x; char tag; int y[3]; };
union U { int i; unsigned char b[4]; };
int sum(int *p, int n) { int s = 0; while (n-- > 0) s += *p++; return s; }
int main(void) {
  struct P ps[2] = { { 1, 'a', { 2, 3, 4 } }, { .y = { [2] = 9 }, .x = 5 } };
  struct P *q = &ps[1];
  res[0] = q->x + q->y[2] + ps[0].y[1];
  res[1] = sum(ps[0].y, 3);
  int *e = &ps[0].y[2], *s = ps[0].y;
  res[2] = (int)(e - s);
  q->y[0] = ps[0].tag;
  res[3] = ps[1].y[0];
  union U u; u.i = 0x01020304; res[4] = u.b[0] + 10 * u.b[3];
  struct P copy = ps[0]; copy.x = 77; res[5] = ps[0].x + copy.x;
  int m[2][3] = { {1, 2, 3}, {4, 5, 6} }; int (*row)[3] = m + 1; res[6] = (*row)[2] + m[0][1];
  char str[] = "hey"; res[7] = sizeof str + str[1];
  int *pp = &m[1][0]; pp[-1] = 30; res[8] = m[0][2];
  res[9] = sizeof(struct P) + sizeof(union U) * 100;
  return 0;
}"#,
    // loops, switch with fall-through, goto, recursion, function pointers, static locals.
    r#"int res[16];
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int twice(int (*f)(int), int v) { return f(f(v)); }
int inc(int v) { return v + 1; }
int counter(void) { static int c = 10; return c++; }
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) { if (i % 3 == 0) continue; if (i == 8) break; s += i; }
  res[0] = s;
  int k = 0; do { k += 2; } while (k < 7); res[1] = k;
  int w = 0;
  for (int i = 0; i < 5; i++) switch (i) { case 0: w += 1; case 1: w += 10; break; case 3: w += 100; default: w += 1000; }
  res[2] = w;
  int j = 0;
again: j++; if (j < 4) goto again;
  res[3] = j;
  res[4] = fact(6);
  res[5] = twice(inc, 40);
  counter(); counter(); res[6] = counter();
  int t = 0, v = 3;
  while (v) t += v--;
  res[7] = t;
  res[8] = ({ int z = 6; z * 7; });
  return 0;
}"#,
    // conversions: sign and zero extension, truncation, bool conversion, mixed signedness.
    r#"int res[16];
int main(void) {
  signed char sc = -3; unsigned char uc = 250; short sh = -30000; unsigned short us = 65000;
  res[0] = sc + uc;
  res[1] = (unsigned char)(uc + 10);
  res[2] = sh * 2;
  res[3] = (short)(us + 1000);
  unsigned int ui = 1; int si = -1;
  res[4] = si < ui;
  long long ll = -5; unsigned long long ull = 5;
  res[5] = ll < ull;
  res[6] = (int)((ull << 40) >> 38);
  _Bool b = 256; res[7] = b;
  int big = 0x7fffffff; res[8] = (big + 1) < 0;
  res[9] = -7 / 2 * 10 + -7 % 2;
  res[10] = (unsigned)-7 / 2 % 1000;
  res[11] = (sc >> 1) + (uc >> 1);
  char *p = 0; res[12] = !p + (p == 0) * 2;
  return 0;
}"#,
    // heap: malloc, calloc, memset, memcpy, strcpy.
    r#"#include <stdlib.h>
#include <string.h>
int res[16];
struct N { int v; struct N *next; };
int main(void) {
  struct N *h = 0;
  for (int i = 1; i <= 4; i++) { struct N *n = malloc(sizeof *n); n->v = i * i; n->next = h; h = n; }
  int s = 0; for (struct N *p = h; p; p = p->next) s = s * 10 + p->v % 10;
  res[0] = s;
  int *z = calloc(4, sizeof(int)); res[1] = z[0] + z[3];
  int a[4]; memset(a, 1, sizeof a); res[2] = a[3] == 0x01010101;
  int b[4] = {9, 8, 7, 6}; memcpy(a, b, 3 * sizeof(int)); res[3] = a[0] * 1000 + a[2] * 10 + (a[3] == 0x01010101);
  char buf[8]; strcpy(buf, "abc"); res[4] = buf[0] + buf[2] + buf[3];
  free(z);
  return 0;
}"#,
    // nested side effects in conditions, pointers with side effects, global initialisers
    // with addresses.
    r#"int res[16];
int g[4] = {3, 1, 4, 1}; int *gp = &g[2]; char *names[] = {"ab", "cde"};
struct S { int x, y; } ss[3] = { {1, 2}, {3, 4}, {5, 6} }; struct S *sp = ss;
int calls;
int f(int v) { calls++; return v; }
int main(void) {
  int i = 0, t = 0;
  while (f(i) < 3 && (i++ || 1)) t += i;
  res[0] = t * 100 + calls;
  res[1] = *gp + gp[-2] + names[1][2] + "xyz"[1];
  sp++->x += 10; sp->y *= 3;
  res[2] = ss[0].x * 100 + ss[1].y;
  int k = 0;
  res[3] = (k++ ? f(100) : k ? f(7) : f(9)) + k;
  int arr[3] = {0}; int *p = arr;
  *p++ = 5; *p++ = 6; *--p += 1;
  res[4] = arr[0] * 100 + arr[1] * 10 + (int)(p - arr);
  res[5] = ({ int a = f(2); a * a; }) + (f(3), f(4));
  res[6] = calls;
  unsigned char uc = 200; uc += 100; res[7] = uc;
  int neg = -17; res[8] = neg >> 2; res[9] = (unsigned)neg >> 28;
  res[10] = (i > 2) + (i < 2) * 2 + (i == 3) * 4;
  return 0;
}"#,
];

// ----- a minimal reference interpreter for sequential IR -----

/// Addresses are `object << 20 | offset` (objects < 1 MiB), small enough for 32-bit pointers;
/// function addresses are `0xf000_0000 | id`.
const PTR_SHIFT: u32 = 20;
const FUNC_TAG: u64 = 0xf000_0000;

struct Mem {
    objs: Vec<Vec<u8>>,
}

impl Mem {
    fn alloc(&mut self, size: u64) -> u64 {
        self.objs.push(vec![0; size as usize]);
        (self.objs.len() as u64) << PTR_SHIFT
    }
    fn load(&self, addr: u64, size: u64) -> u64 {
        let (o, off) = (
            (addr >> PTR_SHIFT) as usize - 1,
            (addr & ((1 << PTR_SHIFT) - 1)) as usize,
        );
        let mut v = 0u64;
        for i in (0..size as usize).rev() {
            v = (v << 8) | self.objs[o][off + i] as u64;
        }
        v
    }
    fn store(&mut self, addr: u64, size: u64, v: u64) {
        let (o, off) = (
            (addr >> PTR_SHIFT) as usize - 1,
            (addr & ((1 << PTR_SHIFT) - 1)) as usize,
        );
        for i in 0..size as usize {
            self.objs[o][off + i] = (v >> (8 * i)) as u8;
        }
    }
}

struct Interp<'p> {
    p: &'p Program,
    mem: Mem,
    globals: HashMap<VarId, u64>,
    steps: u64,
}

fn norm(p: &Program, v: u64, t: TypeId) -> u64 {
    match p.types.get(t) {
        Type::Bool => (v != 0) as u64,
        Type::Int { bits, signed } => {
            let b = *bits as u32;
            if b >= 64 {
                v
            } else if *signed {
                (((v << (64 - b)) as i64) >> (64 - b)) as u64
            } else {
                v & ((1u64 << b) - 1)
            }
        }
        _ => v,
    }
}

impl<'p> Interp<'p> {
    fn size(&self, t: TypeId) -> u64 {
        self.p.types.size_of(t).unwrap_or(0)
    }

    fn var_addr(&mut self, frame: &mut HashMap<VarId, u64>, v: VarId) -> u64 {
        if let Some(a) = frame.get(&v).or_else(|| self.globals.get(&v)) {
            return *a;
        }
        let size = self.size(self.p.vars[v].ty).max(1);
        let a = self.mem.alloc(size);
        if self.p.vars[v].is_global() {
            self.globals.insert(v, a);
        } else {
            frame.insert(v, a);
        }
        a
    }

    fn place(&mut self, f: &mut HashMap<VarId, u64>, pl: &Place) -> u64 {
        let mut a = match &pl.base {
            PlaceBase::Var(v) => self.var_addr(f, *v),
            PlaceBase::Deref(e) => self.eval(f, e),
        };
        for pr in &pl.projs {
            match pr {
                Proj::Field { offset, .. } => a = a.wrapping_add(*offset),
                Proj::Index { index, elem_size } => {
                    let i = self.eval(f, index);
                    a = a.wrapping_add(i.wrapping_mul(*elem_size));
                }
            }
        }
        a
    }

    fn eval(&mut self, f: &mut HashMap<VarId, u64>, e: &Expr) -> u64 {
        let p = self.p;
        let v = match &e.kind {
            ExprKind::Const(v) => *v,
            ExprKind::Read(pl) => {
                let a = self.place(f, pl);
                self.mem.load(a, self.size(pl.ty))
            }
            ExprKind::AddrOf(pl) => self.place(f, pl),
            ExprKind::FuncAddr(g) => FUNC_TAG | g.index() as u64,
            ExprKind::Unary(op, a) => {
                let x = self.eval(f, a);
                match op {
                    UnOp::Neg => x.wrapping_neg(),
                    UnOp::BitNot => !x,
                    UnOp::LogNot => (x == 0) as u64,
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(f, a), self.eval(f, b));
                let bits = p.types.bits(a.ty);
                let (sx, sy) = (x as i64, y as i64);
                use BinOp::*;
                match op {
                    Add => x.wrapping_add(y),
                    Sub => x.wrapping_sub(y),
                    Mul => x.wrapping_mul(y),
                    SDiv => sx.wrapping_div(sy) as u64,
                    UDiv => x / y,
                    SRem => sx.wrapping_rem(sy) as u64,
                    URem => x % y,
                    Shl => x.wrapping_shl(y as u32),
                    AShr => (sx >> (y.min(63))) as u64,
                    LShr => {
                        let m = if bits >= 64 {
                            u64::MAX
                        } else {
                            (1u64 << bits) - 1
                        };
                        (x & m) >> y.min(63)
                    }
                    BitAnd => x & y,
                    BitOr => x | y,
                    BitXor => x ^ y,
                    Eq => (x == y) as u64,
                    Ne => (x != y) as u64,
                    SLt => (sx < sy) as u64,
                    SLe => (sx <= sy) as u64,
                    SGt => (sx > sy) as u64,
                    SGe => (sx >= sy) as u64,
                    ULt => (x < y) as u64,
                    ULe => (x <= y) as u64,
                    UGt => (x > y) as u64,
                    UGe => (x >= y) as u64,
                    LogAnd => (x != 0 && y != 0) as u64,
                    LogOr => (x != 0 || y != 0) as u64,
                }
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.eval(f, c);
                let (x, y) = (self.eval(f, a), self.eval(f, b));
                if c != 0 {
                    x
                } else {
                    y
                }
            }
            ExprKind::Cast(a) => {
                let x = self.eval(f, a);
                if matches!(p.types.get(e.ty), Type::Bool) {
                    (x != 0) as u64
                } else {
                    x
                }
            }
            ExprKind::PtrAdd(a, b) => {
                let (x, y) = (self.eval(f, a), self.eval(f, b));
                x.wrapping_add(y)
            }
            ExprKind::PtrDiff(a, b) => {
                let (x, y) = (self.eval(f, a), self.eval(f, b));
                x.wrapping_sub(y)
            }
            ExprKind::Float(..) => panic!("these programs have no floating point"),
        };
        norm(p, v, e.ty)
    }

    fn call(&mut self, fid: FuncId, args: &[u64]) -> Option<u64> {
        let p = self.p;
        let func = &p.funcs[fid];
        let body = func.body.as_ref().expect("body");
        let mut frame = HashMap::new();
        for (v, a) in func.params.iter().zip(args) {
            let addr = self.var_addr(&mut frame, *v);
            self.mem.store(addr, self.size(p.vars[*v].ty), *a);
        }
        let mut pc = InstrId::new(0);
        loop {
            self.steps += 1;
            assert!(self.steps < 1_000_000, "runaway program");
            let ins = &body.instrs[pc];
            let mut next = InstrId::new(pc.index() + 1);
            match &ins.kind {
                InstrKind::Skip | InstrKind::Decl(_) => {}
                InstrKind::Assign { dst, src } => {
                    let v = self.eval(&mut frame, src);
                    let a = self.place(&mut frame, dst);
                    if matches!(p.types.get(dst.ty), Type::Struct(_)) {
                        let ExprKind::Read(sp) = &src.kind else {
                            panic!("struct value")
                        };
                        let from = self.place(&mut frame, sp);
                        for i in 0..self.size(dst.ty) {
                            let b = self.mem.load(from + i, 1);
                            self.mem.store(a + i, 1, b);
                        }
                    } else {
                        self.mem.store(a, self.size(dst.ty), v);
                    }
                }
                InstrKind::Goto { target, cond, .. } => {
                    let take = match cond {
                        Some(c) => self.eval(&mut frame, c) != 0,
                        None => true,
                    };
                    if take {
                        next = *target;
                    }
                }
                InstrKind::Call { dst, callee, args } => {
                    let vals: Vec<u64> = args.iter().map(|a| self.eval(&mut frame, a)).collect();
                    let g = match callee {
                        Callee::Direct(g) => *g,
                        Callee::Indirect(e) => {
                            FuncId::new((self.eval(&mut frame, e) & !FUNC_TAG) as usize)
                        }
                    };
                    let r = self.call(g, &vals);
                    if let (Some(d), Some(r)) = (dst, r) {
                        let a = self.place(&mut frame, d);
                        self.mem.store(a, self.size(d.ty), r);
                    }
                }
                InstrKind::Return(v) => return v.as_ref().map(|e| self.eval(&mut frame, e)),
                InstrKind::Alloc {
                    dst,
                    size,
                    zeroed: _,
                    ..
                } => {
                    let n = self.eval(&mut frame, size);
                    let a = self.mem.alloc(n);
                    if let Some(d) = dst {
                        let pa = self.place(&mut frame, d);
                        self.mem.store(pa, self.size(d.ty), a);
                    }
                }
                InstrKind::Free(_) | InstrKind::AtomicBegin | InstrKind::AtomicEnd => {}
                InstrKind::Memset { dst, byte, len } => {
                    let (d, b, n) = (
                        self.eval(&mut frame, dst),
                        self.eval(&mut frame, byte),
                        self.eval(&mut frame, len),
                    );
                    for i in 0..n {
                        self.mem.store(d + i, 1, b & 0xff);
                    }
                }
                InstrKind::Memcpy { dst, src, len } => {
                    let (d, s, n) = (
                        self.eval(&mut frame, dst),
                        self.eval(&mut frame, src),
                        self.eval(&mut frame, len),
                    );
                    for i in 0..n {
                        let b = self.mem.load(s + i, 1);
                        self.mem.store(d + i, 1, b);
                    }
                }
                other => panic!("instruction outside the sequential test subset: {other:?}"),
            }
            pc = next;
        }
    }
}

fn run_ir(src: &str, model: DataModel) -> Vec<i64> {
    let prog = match load_source(src, model) {
        Ok(p) => p,
        Err(e) => panic!("{e}"),
    };
    let mut it = Interp {
        p: &prog,
        mem: Mem { objs: Vec::new() },
        globals: HashMap::new(),
        steps: 0,
    };
    it.call(prog.init, &[]);
    it.call(prog.tls_init, &[]);
    it.call(prog.main.expect("main"), &[]);
    let res = prog.var_by_name("res").expect("res");
    let addr = it.globals[&res];
    (0..16)
        .map(|i| it.mem.load(addr + 4 * i, 4) as u32 as i32 as i64)
        .collect()
}

fn run_gcc(src: &str, flag: Option<&str>, tag: &str) -> Option<Vec<i64>> {
    let dir = std::env::temp_dir().join(format!("yogar-exec-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let c = dir.join("p.c");
    let exe = dir.join("p");
    let main = src.replacen("int main(void)", "static int main_(void)", 1);
    let text = format!(
        "#include <stdio.h>\n{main}\nint main(void) {{ main_(); for (int i = 0; i < 16; i++) printf(\"%d\\n\", res[i]); return 0; }}\n"
    );
    std::fs::write(&c, text).ok()?;
    let mut cmd = Command::new("gcc");
    cmd.args(["-w", "-fwrapv", "-o"]).arg(&exe).arg(&c);
    if let Some(f) = flag {
        cmd.arg(f);
    }
    let built = cmd.output().ok()?;
    if !built.status.success() {
        eprintln!(
            "skipped: gcc cannot build: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        return None;
    }
    let out = Command::new(&exe).output().ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    Some(
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim().parse().unwrap())
            .collect(),
    )
}

fn check(model: DataModel, flag: Option<&str>) {
    for (i, src) in PROGRAMS.iter().enumerate() {
        let Some(want) = run_gcc(src, flag, &format!("{model:?}-{i}")) else {
            return;
        };
        assert!(
            want.iter().filter(|v| **v != 0).count() >= 4,
            "program {i} computes little: {want:?}"
        );
        let got = run_ir(src, model);
        assert_eq!(got, want, "{model:?}: program {i} differs from gcc");
    }
}

#[test]
fn lp64_execution_matches_gcc() {
    check(DataModel::Lp64, None);
}

#[test]
fn ilp32_execution_matches_gcc() {
    check(DataModel::Ilp32, Some("-m32"));
}
