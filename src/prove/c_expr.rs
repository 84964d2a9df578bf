//! IR conditions as C expressions over the program's source names, for correctness
//! witnesses. An expression that names something the source does not have (a temporary of
//! the lowering, a ghost, an instance's `self`) or that C cannot say the same way gives
//! `None`: the caller leaves that conjunct out, which only weakens the invariant.

use crate::ir::{
    BinOp, Expr, ExprKind, Place, PlaceBase, Program, Proj, Type, TypeId, UnOp, VarKind,
};

/// `e` in C, fully parenthesised.
pub fn to_c(prog: &Program, e: &Expr) -> Option<String> {
    Some(match &e.kind {
        ExprKind::Const(v) => constant(prog, *v, e.ty)?,
        ExprKind::Read(p) => place(prog, p)?,
        ExprKind::AddrOf(p) => format!("(&{})", place(prog, p)?),
        ExprKind::FuncAddr(f) => prog.funcs[*f].name.clone(),
        ExprKind::Unary(op, a) => {
            let s = match op {
                UnOp::Neg => "-",
                UnOp::BitNot => "~",
                UnOp::LogNot => "!",
            };
            format!("({s}{})", to_c(prog, a)?)
        }
        ExprKind::Binary(op, a, b) => {
            format!("({} {} {})", to_c(prog, a)?, symbol(*op), to_c(prog, b)?)
        }
        ExprKind::Ite(c, a, b) => format!(
            "({} ? {} : {})",
            to_c(prog, c)?,
            to_c(prog, a)?,
            to_c(prog, b)?
        ),
        ExprKind::Cast(a) => format!("(({}) {})", c_type(prog, e.ty)?, to_c(prog, a)?),
        ExprKind::PtrAdd(..) | ExprKind::PtrDiff(..) | ExprKind::Float(..) => return None,
    })
}

fn symbol(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        SDiv | UDiv => "/",
        SRem | URem => "%",
        Shl => "<<",
        AShr | LShr => ">>",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        Eq => "==",
        Ne => "!=",
        SLt | ULt => "<",
        SLe | ULe => "<=",
        SGt | UGt => ">",
        SGe | UGe => ">=",
        LogAnd => "&&",
        LogOr => "||",
    }
}

fn constant(prog: &Program, v: u64, ty: TypeId) -> Option<String> {
    match prog.types.get(ty) {
        Type::Bool => Some(v.to_string()),
        Type::Int { bits, signed } => {
            let bits = u32::from(*bits);
            let masked = if bits >= 64 {
                v
            } else {
                v & ((1u64 << bits) - 1)
            };
            Some(if *signed {
                let shift = 64 - bits;
                (((masked << shift) as i64) >> shift).to_string()
            } else {
                format!("{masked}U")
            })
        }
        Type::Pointer(_) if v == 0 => Some("0".into()),
        _ => None,
    }
}

/// C's name for an integer type of the data model.
fn c_type(prog: &Program, ty: TypeId) -> Option<String> {
    let long_bits = match prog.types.model {
        crate::ir::DataModel::Ilp32 => 32,
        crate::ir::DataModel::Lp64 => 64,
    };
    let name = match prog.types.get(ty) {
        Type::Bool => "_Bool",
        Type::Int { bits: 8, signed } => {
            if *signed {
                "signed char"
            } else {
                "unsigned char"
            }
        }
        Type::Int { bits: 16, signed } => {
            if *signed {
                "short"
            } else {
                "unsigned short"
            }
        }
        Type::Int { bits: 32, signed } => {
            if *signed {
                "int"
            } else {
                "unsigned int"
            }
        }
        Type::Int { bits: 64, signed } if long_bits == 64 => {
            if *signed {
                "long"
            } else {
                "unsigned long"
            }
        }
        Type::Int { bits: 64, signed } => {
            if *signed {
                "long long"
            } else {
                "unsigned long long"
            }
        }
        _ => return None,
    };
    Some(name.into())
}

fn place(prog: &Program, p: &Place) -> Option<String> {
    let PlaceBase::Var(v) = &p.base else {
        return None;
    };
    let var = &prog.vars[*v];
    // Temporaries, and the variables the prover adds (ghosts, `self`, lock owners: their
    // names are no C identifiers), have no source name.
    if matches!(var.kind, VarKind::Temp(_))
        || !is_identifier(&var.source_name)
        || var.source_name.starts_with("__")
    {
        return None;
    }
    let mut s = var.source_name.clone();
    let mut ty = var.ty;
    for pr in &p.projs {
        match pr {
            Proj::Field { index, .. } => {
                let Type::Struct(sid) = prog.types.get(ty) else {
                    return None;
                };
                let f = prog.types.structs[*sid].fields.get(*index as usize)?;
                s = format!("{s}.{}", f.name.as_ref()?);
                ty = f.ty;
            }
            Proj::Index { index, .. } => {
                let Type::Array { elem, .. } = prog.types.get(ty) else {
                    return None;
                };
                s = format!("{s}[{}]", to_c(prog, index)?);
                ty = *elem;
            }
        }
    }
    Some(s)
}

fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
