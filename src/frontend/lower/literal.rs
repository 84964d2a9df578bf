//! Literals: integer, character and string constants, with C's typing of integer constants
//! and escape decoding; string literals become read-only objects.

use lang_c::ast::*;
use lang_c::span::Span;

use super::{Lowerer, R};
use crate::ir::*;

impl<'a> Lowerer<'a> {
    pub(super) fn constant(&mut self, c: &Constant, span: Span) -> R<Expr> {
        match c {
            Constant::Integer(i) => self.integer_constant(i, span),
            Constant::Float(f) => self.float_constant(f, span),
            Constant::Character(s) => {
                let bytes = self.char_literal_bytes(s, span)?;
                let int = self.types.int32();
                // Single char: sign-extended char value; multi-char: gcc's big-endian packing.
                let v: u64 = if bytes.len() == 1 {
                    bytes[0] as i8 as i64 as u64
                } else {
                    bytes.iter().fold(0u64, |acc, b| (acc << 8) | *b as u64)
                };
                Ok(Expr::constant(
                    super::fold::normalize(&self.types, v, int),
                    int,
                ))
            }
        }
    }

    fn integer_constant(&mut self, i: &Integer, span: Span) -> R<Expr> {
        let (radix, digits) = match i.base {
            IntegerBase::Decimal => (10, &*i.number),
            IntegerBase::Octal => (8, &*i.number),
            IntegerBase::Hexadecimal => (
                16,
                i.number.trim_start_matches("0x").trim_start_matches("0X"),
            ),
            IntegerBase::Binary => (
                2,
                i.number.trim_start_matches("0b").trim_start_matches("0B"),
            ),
        };
        if i.suffix.imaginary {
            return Err(self.unsupported(span, "imaginary constant"));
        }
        let digits = if digits.is_empty() { "0" } else { digits };
        let v = u64::from_str_radix(digits, radix)
            .map_err(|_| self.unsupported(span, "integer constant wider than 64 bits"))?;
        let lb = self.types.ptr_bits();
        // Candidate types in C11 6.4.4.1 order: (bits, signed).
        let mut cands: Vec<(u8, bool)> = Vec::new();
        let decimal = i.base == IntegerBase::Decimal;
        let size = i.suffix.size;
        let u = i.suffix.unsigned;
        let push = |c: &mut Vec<(u8, bool)>, b: u8| {
            if !u {
                c.push((b, true));
            }
            if u || !decimal {
                c.push((b, false));
            }
        };
        if size == IntegerSize::Int {
            push(&mut cands, 32);
        }
        if size <= IntegerSize::Long {
            push(&mut cands, lb);
        }
        push(&mut cands, 64);
        if decimal && !u {
            // gcc extension: a decimal too big for long long becomes unsigned long long.
            cands.push((64, false));
        }
        for (b, s) in cands {
            let max = if s {
                (1u128 << (b - 1)) - 1
            } else {
                (1u128 << b) - 1
            };
            if (v as u128) <= max {
                let t = self.types.int(b, s);
                return Ok(Expr::constant(v, t));
            }
        }
        Err(self.unsupported(span, "integer constant wider than 64 bits"))
    }

    /// Bytes of a character constant `'x'` (escapes decoded).
    fn char_literal_bytes(&self, s: &str, span: Span) -> R<Vec<u8>> {
        let body = s.trim_start_matches(['L', 'u', 'U', '8']);
        if body.len() != s.len() {
            return Err(self.unsupported(span, "wide character constant"));
        }
        let inner = body
            .strip_prefix('\'')
            .and_then(|x| x.strip_suffix('\''))
            .ok_or_else(|| self.invalid(span, "malformed character constant"))?;
        let b = decode_escapes(inner).map_err(|m| self.invalid(span, m))?;
        if b.is_empty() {
            return Err(self.invalid(span, "empty character constant"));
        }
        Ok(b)
    }

    /// Bytes of a (possibly concatenated) string literal, without the terminating NUL.
    pub(crate) fn string_bytes(&self, parts: &[String], span: Span) -> R<Vec<u8>> {
        let mut out = Vec::new();
        for p in parts {
            if !p.starts_with('"') {
                return Err(self.unsupported(span, "wide string literal"));
            }
            let inner = p
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .ok_or_else(|| self.invalid(span, "malformed string literal"))?;
            out.extend(decode_escapes(inner).map_err(|m| self.invalid(span, m))?);
        }
        Ok(out)
    }

    /// A string literal is an unnamed global `char` array initialised in the init function.
    pub(crate) fn string_literal(&mut self, parts: &[String], span: Span) -> R<Place> {
        let bytes = self.string_bytes(parts, span)?;
        Ok(self.string_from_bytes(bytes))
    }

    pub(crate) fn string_from_bytes(&mut self, bytes: Vec<u8>) -> Place {
        let c = self.types.char_();
        let n = bytes.len() as u64 + 1;
        let ty = self.types.intern(Type::Array {
            elem: c,
            len: Some(n),
        });
        self.strings += 1;
        let name = format!("$str{}", self.strings);
        let v = self.new_var(&name, ty, VarKind::Global);
        let saved = self.func_cx.take();
        let pd = self.types.ptrdiff_t();
        for (i, b) in bytes.iter().enumerate() {
            if *b == 0 {
                continue;
            }
            let mut p = Place::var(v, ty);
            p.projs.push(Proj::Index {
                index: Box::new(Expr::constant(i as u64, pd)),
                elem_size: 1,
            });
            p.ty = c;
            let val = Expr::constant(*b as i8 as i64 as u64, c);
            self.emit(InstrKind::Assign { dst: p, src: val });
        }
        self.func_cx = saved;
        Place::var(v, ty)
    }
}

/// Decodes C escape sequences of a literal body.
fn decode_escapes(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else {
            return Err("unterminated escape sequence".into());
        };
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut k = 0;
                while k < 2 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    k += 1;
                }
                v as u8
            }
            b'x' => {
                let mut v: u32 = 0;
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                if i == start {
                    return Err("\\x without hex digits".into());
                }
                v as u8
            }
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' => 27,
            b'\\' | b'\'' | b'"' | b'?' => c,
            _ => c,
        };
        out.push(v);
    }
    Ok(out)
}
