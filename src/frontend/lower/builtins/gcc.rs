//! GCC builtins the tasks use (`__builtin_expect`, `__builtin_bswap*`, …); the atomic
//! builtins that `atomics` does not model (`__atomic_*`, `__sync_*`, `__c11_atomic*`) are
//! reported as unsupported.

use super::super::Lowerer;
use super::{Builtin, Call};
use crate::ir::*;

impl Lowerer<'_> {
    /// The GCC builtins; `None` for any other name.
    pub(super) fn gcc_builtin(&mut self, call: &Call) -> Builtin {
        let (name, args, span, _) = call.parts();
        let r: Option<Expr> = match name {
            "__builtin_unreachable" => {
                let int = self.types.int32();
                self.emit(InstrKind::Assume(Expr::constant(0, int)));
                None
            }
            "__builtin_constant_p" => {
                // gcc's answer without optimisation: 1 for constant expressions, else 0.
                self.arg_count(name, args, 1, span)?;
                let pos = self.pos();
                let v = self.rvalue(&args[0]);
                let emitted = self.pos() != pos;
                self.truncate(pos);
                let k = matches!(v, Ok(ref x) if x.as_const().is_some()) && !emitted;
                let int = self.types.int32();
                Some(Expr::constant(k as u64, int))
            }
            "__builtin_bswap16" | "__builtin_bswap32" | "__builtin_bswap64" => {
                self.arg_count(name, args, 1, span)?;
                let bits: u8 = match name {
                    "__builtin_bswap16" => 16,
                    "__builtin_bswap32" => 32,
                    _ => 64,
                };
                let t = self.types.int(bits, false);
                let x = self.rvalue(&args[0])?;
                let x = self.convert_arg(x, t, span)?;
                let x = self.freeze(x);
                let mut acc: Option<Expr> = None;
                let n = bits as u64 / 8;
                for k in 0..n {
                    // Byte k moves to byte n-1-k.
                    let from = k * 8;
                    let to = (n - 1 - k) * 8;
                    let mask = Expr::constant(0xff, t);
                    let shifted = self.binary(BinOp::LShr, x.clone(), Expr::constant(from, t), t);
                    let byte = self.binary(BinOp::BitAnd, shifted, mask, t);
                    let placed = self.binary(BinOp::Shl, byte, Expr::constant(to, t), t);
                    acc = Some(match acc {
                        None => placed,
                        Some(a) => self.binary(BinOp::BitOr, a, placed, t),
                    });
                }
                acc
            }
            "__builtin_expect" => {
                self.arg_count(name, args, 2, span)?;
                let v = self.rvalue(&args[0])?;
                self.discard(&args[1])?;
                Some(v)
            }
            _ if (name.starts_with("__atomic_")
                || name.starts_with("__sync_")
                || name.starts_with("__c11_atomic"))
                && self.lookup(name).is_none() =>
            {
                return Err(self.unsupported(span, name));
            }
            _ => return Ok(None),
        };
        Ok(Some(r))
    }
}
