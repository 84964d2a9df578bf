//! `sscanf` with a literal format of integer conversions (`%d %i %u %x %o`, with the length
//! modifiers `hh h l ll j z t` and assignment suppression `*`), whitespace and ordinary
//! characters; any other format is unsupported.
//!
//! When the input is a string literal, the call is evaluated here as the C library does it
//! (skip whitespace, read an optional sign and digits, stop at the first mismatch, return the
//! number of assignments or EOF on an input failure before the first conversion): the stores
//! and the result are constants, exact. A value outside its conversion's type, where the C
//! library's result is not fixed by the standard, is unsupported.
//!
//! Otherwise the string's content is not known here. The call is then modelled as returning
//! any count from EOF to the number of assigning conversions, the first that many targets
//! receiving arbitrary values of their types, the others unchanged. This covers every string
//! the program can pass, but may include outcomes the actual string cannot give, so the call is
//! marked [`Approximation::ScanfInput`]: a TRUE verdict may rest on it (it only adds
//! executions), a violation reached through it is UNKNOWN.

use lang_c::ast::Expression;
use lang_c::span::Span;

use super::super::fold::normalize;
use super::super::{Lowerer, R};
use super::Args;
use crate::ir::*;

/// One directive of a scanf format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Directive {
    /// White space: skips any amount (none included) of white space in the input.
    Space,
    /// An ordinary character: must come next.
    Char(u8),
    /// An integer conversion.
    Int(Conversion),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Conversion {
    /// 10, 16, 8, or 0 for `%i` (the base of C's integer constants).
    base: u32,
    signed: bool,
    /// Width in bits of the target.
    bits: u32,
    /// False for `%*d`: read, not stored, not counted.
    assign: bool,
}

/// The directives of a format, or why it is not supported.
fn parse_format(f: &[u8], types: &Types) -> Result<Vec<Directive>, String> {
    let model = types.model;
    let mut out = Vec::new();
    let mut i = 0;
    while i < f.len() {
        let c = f[i];
        i += 1;
        if is_space(c) {
            if out.last() != Some(&Directive::Space) {
                out.push(Directive::Space);
            }
            continue;
        }
        if c != b'%' {
            out.push(Directive::Char(c));
            continue;
        }
        if f.get(i) == Some(&b'%') {
            // `%%` skips white space, then matches '%'.
            i += 1;
            out.push(Directive::Space);
            out.push(Directive::Char(b'%'));
            continue;
        }
        let assign = if f.get(i) == Some(&b'*') {
            i += 1;
            false
        } else {
            true
        };
        if f.get(i).is_some_and(u8::is_ascii_digit) {
            return Err("sscanf with a field width".into());
        }
        let mut len = String::new();
        while let Some(&m) = f.get(i).filter(|m| b"hljzt".contains(m)) {
            len.push(m as char);
            i += 1;
        }
        let long_bits = if model == DataModel::Ilp32 { 32 } else { 64 };
        let bits = match len.as_str() {
            "hh" => 8,
            "h" => 16,
            "" => 32,
            "l" | "z" | "t" => long_bits,
            "ll" | "j" => 64,
            other => return Err(format!("sscanf with the length modifier {other}")),
        };
        let (base, signed) = match f.get(i) {
            Some(b'd') => (10, true),
            Some(b'i') => (0, true),
            Some(b'u') => (10, false),
            Some(b'x') | Some(b'X') => (16, false),
            Some(b'o') => (8, false),
            Some(&o) => return Err(format!("sscanf with a %{} conversion", o as char)),
            None => return Err("sscanf with an incomplete conversion".into()),
        };
        i += 1;
        out.push(Directive::Int(Conversion {
            base,
            signed,
            bits,
            assign,
        }));
    }
    Ok(out)
}

/// What `sscanf(input, format)` returns and stores: the result and the values of the
/// assignments made (bit patterns of their widths), or why the library's answer is not fixed.
fn scan(input: &[u8], dirs: &[Directive]) -> Result<(i64, Vec<u64>), String> {
    let mut at = 0;
    let mut stored = Vec::new();
    let mut converted = false;
    let skip_space = |at: &mut usize| {
        while input.get(*at).is_some_and(|c| is_space(*c)) {
            *at += 1;
        }
    };
    // An input failure (the input ends) before the first conversion gives EOF. After only
    // suppressed conversions, C says 0 and glibc EOF: not fixed.
    let input_failure = |converted: bool, stored: Vec<u64>| {
        let n = stored.len() as i64;
        if converted && n == 0 {
            return Err("sscanf whose input ends after only suppressed conversions".to_string());
        }
        Ok((if converted { n } else { -1 }, stored))
    };
    for d in dirs {
        match *d {
            Directive::Space => skip_space(&mut at),
            Directive::Char(c) => match input.get(at) {
                None => return input_failure(converted, stored),
                Some(&x) if x == c => at += 1,
                Some(_) => break,
            },
            Directive::Int(conv) => {
                skip_space(&mut at);
                if at >= input.len() {
                    return input_failure(converted, stored);
                }
                let Some((v, next)) = read_integer(&input[at..], conv.base) else {
                    break;
                };
                // "0x" without a hexadecimal digit: libraries differ on what it consumes.
                if matches!(conv.base, 0 | 16) && matches!(input.get(at + next), Some(b'x' | b'X'))
                {
                    return Err("sscanf of an incomplete hexadecimal prefix".into());
                }
                at += next;
                let value = fit(v, conv).ok_or_else(|| {
                    let text = String::from_utf8_lossy(&input[at - next..at]);
                    format!("sscanf of {text}, which is out of range of its conversion")
                })?;
                converted = true;
                if conv.assign {
                    stored.push(value);
                }
            }
        }
    }
    let n = stored.len() as i64;
    Ok((n, stored))
}

/// The string a literal's bytes hold for the C library: up to its first NUL (`"1\0 2"` is
/// read as `"1"`).
fn c_string(mut bytes: Vec<u8>) -> Vec<u8> {
    if let Some(end) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(end);
    }
    bytes
}

/// C's `isspace` in the "C" locale.
fn is_space(c: u8) -> bool {
    b" \t\n\x0b\x0c\r".contains(&c)
}

/// The integer at the start of `s` in `base` (0: by its prefix), as strtol reads it, and the
/// number of bytes it takes; `None` when no digit comes.
fn read_integer(s: &[u8], base: u32) -> Option<(i128, usize)> {
    let mut i = 0;
    let neg = match s.first() {
        Some(b'-') => {
            i += 1;
            true
        }
        Some(b'+') => {
            i += 1;
            false
        }
        _ => false,
    };
    let hex_prefix = |i: usize| {
        s.get(i) == Some(&b'0')
            && matches!(s.get(i + 1), Some(b'x') | Some(b'X'))
            && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    };
    let base = match base {
        0 if hex_prefix(i) => {
            i += 2;
            16
        }
        0 if s.get(i) == Some(&b'0') => 8,
        0 => 10,
        16 if hex_prefix(i) => {
            i += 2;
            16
        }
        b => b,
    };
    let start = i;
    // Saturates: a number too long for an i128 is still one conversion (its value out of the
    // range of every type, which `fit` refuses), never a matching failure.
    let mut v: i128 = 0;
    while let Some(d) = s.get(i).and_then(|c| (*c as char).to_digit(base)) {
        v = v.saturating_mul(base as i128).saturating_add(d as i128);
        i += 1;
    }
    if i == start {
        return None;
    }
    Some((if neg { -v } else { v }, i))
}

/// `v` as a bit pattern of the conversion's width, when it is a value of its type.
fn fit(v: i128, c: Conversion) -> Option<u64> {
    let bits = c.bits;
    let (lo, hi) = if c.signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    if v < lo || v > hi {
        return None;
    }
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    Some((v as i64 as u64) & mask)
}

impl Lowerer<'_> {
    /// `sscanf(input, format, targets...)`: see the module documentation.
    pub(super) fn sscanf(&mut self, args: &Args, span: Span) -> R<Expr> {
        if args.len() < 2 {
            return Err(self.invalid(span, "sscanf expects an input and a format"));
        }
        let Expression::StringLiteral(f) = &args[1].node else {
            return Err(self.unsupported(span, "sscanf with a format that is not a literal"));
        };
        let format = c_string(self.string_bytes(&f.node, span)?);
        let dirs = parse_format(&format, &self.types).map_err(|m| self.unsupported(span, m))?;
        let convs: Vec<Conversion> = dirs
            .iter()
            .filter_map(|d| match d {
                Directive::Int(c) if c.assign => Some(*c),
                _ => None,
            })
            .collect();
        if args.len() != 2 + convs.len() {
            return Err(self.invalid(
                span,
                format!(
                    "sscanf format has {} conversions for {} targets",
                    convs.len(),
                    args.len() - 2
                ),
            ));
        }
        let int = self.types.int32();
        let literal = match &args[0].node {
            Expression::StringLiteral(s) => Some(c_string(self.string_bytes(&s.node, span)?)),
            _ => {
                self.discard(&args[0])?;
                None
            }
        };
        let mut targets = Vec::new();
        for (a, c) in args[2..].iter().zip(&convs) {
            let p = self.ptr_arg(a)?;
            let place = self.deref_place(p, span)?;
            if !self.types.is_integer(place.ty) || self.types.bits(place.ty) != c.bits {
                return Err(self.unsupported(
                    span,
                    format!(
                        "sscanf into a {} for a conversion of {} bits",
                        self.types.display(place.ty),
                        c.bits
                    ),
                ));
            }
            targets.push(place);
        }
        if let Some(input) = literal {
            let (ret, values) = scan(&input, &dirs).map_err(|m| self.unsupported(span, m))?;
            for (place, v) in targets.into_iter().zip(values) {
                let ty = place.ty;
                let v = normalize(&self.types, v, ty);
                self.emit(InstrKind::Assign {
                    dst: place,
                    src: Expr::constant(v, ty),
                });
            }
            return Ok(Expr::constant(normalize(&self.types, ret as u64, int), int));
        }
        self.emit(InstrKind::Approximate(Approximation::ScanfInput));
        let r = self.temp(int);
        self.emit(InstrKind::Nondet { dst: r.clone() });
        let n = convs.len() as u64;
        let ge = self.binary(
            BinOp::SGe,
            Expr::read(r.clone()),
            Expr::constant(-1i64 as u64, int),
            int,
        );
        let le = self.binary(
            BinOp::SLe,
            Expr::read(r.clone()),
            Expr::constant(n, int),
            int,
        );
        let within = self.binary(BinOp::LogAnd, ge, le, int);
        self.emit(InstrKind::Assume(within));
        let mut ends = Vec::new();
        for (i, place) in targets.into_iter().enumerate() {
            let stop = self.binary(
                BinOp::SLe,
                Expr::read(r.clone()),
                Expr::constant(i as u64, int),
                int,
            );
            ends.push(self.emit_jump(Some(stop)));
            self.emit(InstrKind::Nondet { dst: place });
        }
        for e in ends {
            self.patch_here(e);
        }
        Ok(Expr::read(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str, format: &str) -> (i64, Vec<u64>) {
        let types = Types::new(DataModel::Ilp32);
        let dirs = parse_format(format.as_bytes(), &types).unwrap();
        scan(input.as_bytes(), &dirs).unwrap()
    }

    #[test]
    fn scans_as_the_c_library_does() {
        assert_eq!(run("42", "%d"), (1, vec![42]));
        assert_eq!(run("  -7 x", "%d"), (1, vec![(-7i32) as u32 as u64]));
        assert_eq!(run("", "%d"), (-1, vec![]));
        assert_eq!(run("   ", "%d"), (-1, vec![]));
        assert_eq!(run("abc", "%d"), (0, vec![]));
        assert_eq!(run("3,4", "%d,%d"), (2, vec![3, 4]));
        assert_eq!(run("3;4", "%d,%d"), (1, vec![3]));
        assert_eq!(run("3", "%d,%d"), (1, vec![3]));
        assert_eq!(run("0x1f 017 9", "%i %i %i"), (3, vec![31, 15, 9]));
        assert_eq!(run("ff", "%x"), (1, vec![255]));
        assert_eq!(run("1 2", "%*d %d"), (1, vec![2]));
        // The library reads up to the first NUL.
        let dirs = parse_format(&c_string(b"%d\0%d".to_vec()), &Types::new(DataModel::Ilp32));
        assert_eq!(
            scan(&c_string(b"1\0 2".to_vec()), &dirs.unwrap()),
            Ok((1, vec![1]))
        );
    }

    #[test]
    fn out_of_range_is_refused() {
        let types = Types::new(DataModel::Ilp32);
        let dirs = parse_format(b"%d", &types).unwrap();
        assert!(scan(b"4294967296", &dirs).is_err());
        // Longer than any i128: a conversion out of range, not a matching failure (0).
        assert!(scan(b"1000000000000000000000000000000000000000000", &dirs).is_err());
        assert!(parse_format(b"%s", &types).is_err());
        assert!(parse_format(b"%3d", &types).is_err());
    }
}
