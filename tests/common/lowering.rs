//! What the lowering test binaries share: lowering a source under a data model (validated),
//! and looking into the IR it gives (a function's instructions, a variable's assignments,
//! the operators and types used).

// Each lowering test binary uses part of this.
#![allow(dead_code)]

use yogar::frontend::load_source;
use yogar::ir::*;

pub fn lower_in(src: &str, model: DataModel) -> Program {
    match load_source(src, model) {
        Ok(p) => {
            if let Err(m) = yogar::ir::validate::validate(&p) {
                panic!("invalid IR: {m}");
            }
            p
        }
        Err(e) => panic!("lowering failed: {e}"),
    }
}

pub fn lower(src: &str) -> Program {
    lower_in(src, DataModel::Ilp32)
}

pub fn lower64(src: &str) -> Program {
    lower_in(src, DataModel::Lp64)
}

pub fn instrs<'p>(p: &'p Program, func: &str) -> Vec<&'p InstrKind> {
    let f = p.func_by_name(func).expect("function exists");
    p.funcs[f]
        .body
        .as_ref()
        .expect("function has a body")
        .instrs
        .values()
        .map(|i| &i.kind)
        .collect()
}

pub fn init_instrs(p: &Program) -> Vec<&InstrKind> {
    p.funcs[p.init]
        .body
        .as_ref()
        .unwrap()
        .instrs
        .values()
        .map(|i| &i.kind)
        .collect()
}

pub fn var(p: &Program, name: &str) -> VarId {
    p.var_by_name(name)
        .unwrap_or_else(|| panic!("no variable {name}"))
}

pub fn is_var(place: &Place, v: VarId) -> bool {
    place.base == PlaceBase::Var(v) && place.projs.is_empty()
}

/// The assignments to variable `v` (whole-variable places) in a list of instructions.
pub fn assigns_to<'p>(ins: &[&'p InstrKind], v: VarId) -> Vec<&'p Expr> {
    ins.iter()
        .filter_map(|k| match k {
            InstrKind::Assign { dst, src } if is_var(dst, v) => Some(src),
            _ => None,
        })
        .collect()
}

pub fn all_exprs(ins: &[&InstrKind]) -> Vec<Expr> {
    let mut out = Vec::new();
    for k in ins {
        k.walk_exprs(&mut |e| out.push(e.clone()));
    }
    out
}

pub fn has_binop(ins: &[&InstrKind], op: BinOp) -> bool {
    all_exprs(ins)
        .iter()
        .any(|e| matches!(e.kind, ExprKind::Binary(o, _, _) if o == op))
}

pub fn int_type(p: &Program, t: TypeId) -> (u8, bool) {
    match p.types.get(t) {
        Type::Int { bits, signed } => (*bits, *signed),
        Type::Bool => (1, false),
        other => panic!("not an integer type: {other:?}"),
    }
}

pub fn struct_of(p: &Program, v: VarId) -> &StructDef {
    match p.types.get(p.vars[v].ty) {
        Type::Struct(s) => &p.types.structs[*s],
        other => panic!("not a struct: {other:?}"),
    }
}
