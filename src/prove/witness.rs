//! A checked proof's invariants as correctness-witness content: per loop head and thread entry
//! of the source, a C expression over source names (the GraphML `invariant` of a node, and
//! the entries of a YAML witness 2.0 `invariant_set`).
//!
//! What is written is implied by the certificate: a source location may stand for several
//! template locations (each inlined copy of its function, each template), so its invariant is
//! the disjunction over them; each disjunct is the conjunction of the facts C can express in
//! the function's scope (globals, and the function's own locals when their source name is not
//! shadowed) — leaving conjuncts out only weakens it. A location with no such fact in some
//! copy gets no invariant.

use std::collections::{BTreeMap, HashSet};

use cranelift_entity::EntityRef;
use serde::Serialize;

use super::c_expr::to_c;
use super::run::Proof;
use super::{Fact, PtrTarget};
use crate::ir::{FuncId, InstrId, VarId, VarKind};
use crate::witness::{iso8601_utc, sha256_hex, WitnessMeta};

/// Where an invariant holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum InvariantKind {
    /// At the head of a loop, before each iteration's test.
    Loop,
    /// At a thread's entry.
    Location,
}

/// One invariant of the source program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessInvariant {
    pub kind: InvariantKind,
    pub line: u32,
    pub function: String,
    /// A C expression.
    pub value: String,
}

/// The invariants of `proof` at loop heads and thread entries.
pub fn invariants(proof: &Proof) -> Vec<WitnessInvariant> {
    let ts = &proof.templates;
    let prog = &ts.program;
    let cert = &proof.certificate;
    // The source locations wanted.
    let mut wanted: BTreeMap<(FuncId, InstrId), InvariantKind> = BTreeMap::new();
    for (f, _, body) in prog.defined_funcs() {
        for lp in body.loops.values() {
            wanted.insert((f, lp.head), InvariantKind::Loop);
        }
    }
    for t in ts.templates.values() {
        wanted
            .entry((t.entry, InstrId::from_u32(0)))
            .or_insert(InvariantKind::Location);
    }
    // Variables of the proof, not of the source; and the template copies of locals.
    let mut hidden: HashSet<VarId> = cert.ghosts.iter().copied().collect();
    hidden.extend(cert.counters.iter().map(|c| c.var));
    hidden.extend(ts.mutex_owners.values());
    let mut copies: HashSet<VarId> = HashSet::new();
    for t in ts.templates.values() {
        hidden.insert(t.self_id);
        copies.extend(t.locals.iter().copied());
    }
    let shadowed = |f: FuncId, v: VarId| {
        let name = &prog.vars[v].source_name;
        prog.vars.iter().any(|(w, d)| {
            w != v
                && !copies.contains(&w)
                && matches!(d.kind, VarKind::Local(g) | VarKind::Param(g) if g == f)
                && &d.source_name == name
        })
    };
    let in_scope = |f: FuncId, v: VarId| {
        let d = &prog.vars[v];
        if hidden.contains(&v) || d.thread_local {
            return false;
        }
        match d.kind {
            VarKind::Global | VarKind::StaticLocal(_) => true,
            VarKind::Local(g) | VarKind::Param(g) => g == f && !shadowed(f, v),
            VarKind::Temp(_) => false,
        }
    };
    // Per source location, the disjuncts (None: a copy that says nothing).
    let mut disjuncts: BTreeMap<(FuncId, InstrId), Vec<Option<String>>> = BTreeMap::new();
    for (t, tpl) in ts.templates.iter() {
        for (l, origin) in tpl.origin.iter() {
            let Some(key) = *origin else { continue };
            if !wanted.contains_key(&key) {
                continue;
            }
            // Only the first template location of each inlined copy of the instruction.
            if l.index() > 0 && tpl.origin[InstrId::from_u32(l.as_u32() - 1)] == Some(key) {
                continue;
            }
            let inv = super::check::invariant(cert, t, l);
            let d = if inv.unreachable {
                Some("0".to_string())
            } else {
                let facts: Vec<String> = inv
                    .facts
                    .iter()
                    .filter_map(|f| fact_c(proof, f, &|v| in_scope(key.0, v)))
                    .collect();
                (!facts.is_empty()).then(|| facts.join(" && "))
            };
            disjuncts.entry(key).or_default().push(d);
        }
    }
    let mut out = Vec::new();
    for (key, ds) in disjuncts {
        let Some(ds) = ds.into_iter().collect::<Option<Vec<String>>>() else {
            continue;
        };
        let mut ds: Vec<String> = ds.into_iter().filter(|d| d != "0").collect();
        ds.sort();
        ds.dedup();
        let value = match ds.len() {
            0 => "0".to_string(),
            1 => ds.remove(0),
            _ => ds
                .iter()
                .map(|d| format!("({d})"))
                .collect::<Vec<_>>()
                .join(" || "),
        };
        let body = prog.funcs[key.0]
            .body
            .as_ref()
            .expect("a location has a body");
        out.push(WitnessInvariant {
            kind: wanted[&key],
            line: body.instrs[key.1].loc.line,
            function: prog.funcs[key.0].name.clone(),
            value,
        });
    }
    out
}

/// A fact in C, when every variable it names is in scope.
fn fact_c(proof: &Proof, f: &Fact, in_scope: &dyn Fn(VarId) -> bool) -> Option<String> {
    let prog = &proof.templates.program;
    let mut vars = Vec::new();
    match f {
        Fact::Holds(e) => {
            super::rename::expr_vars(e, &mut vars);
            if !vars.iter().all(|&v| in_scope(v)) {
                return None;
            }
            to_c(prog, e)
        }
        Fact::PointsTo { var, targets } => {
            vars.push(*var);
            let mut alts = Vec::new();
            for t in targets {
                alts.push(match t {
                    PtrTarget::Null => "0".to_string(),
                    PtrTarget::Var(v) => {
                        vars.push(*v);
                        format!("(void *) &{}", prog.vars[*v].source_name)
                    }
                    PtrTarget::Func(g) => format!("(void *) {}", prog.funcs[*g].name),
                });
            }
            if !vars.iter().all(|&v| in_scope(v)) {
                return None;
            }
            let p = &prog.vars[*var].source_name;
            Some(format!(
                "({})",
                alts.iter()
                    .map(|a| format!("(void *) {p} == {a}"))
                    .collect::<Vec<_>>()
                    .join(" || ")
            ))
        }
    }
}

#[derive(Serialize)]
struct Entry {
    entry_type: &'static str,
    metadata: Metadata,
    content: Vec<Content>,
}

#[derive(Serialize)]
struct Metadata {
    format_version: &'static str,
    uuid: String,
    creation_time: String,
    producer: Producer,
    task: TaskMeta,
}

#[derive(Serialize)]
struct Producer {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct TaskMeta {
    input_files: Vec<String>,
    input_file_hashes: BTreeMap<String, String>,
    specification: String,
    data_model: &'static str,
    language: &'static str,
}

#[derive(Serialize)]
struct Content {
    invariant: YamlInvariant,
}

#[derive(Serialize)]
struct YamlInvariant {
    #[serde(rename = "type")]
    kind: &'static str,
    location: Location,
    value: String,
    format: &'static str,
}

#[derive(Serialize)]
struct Location {
    file_name: String,
    line: u32,
    column: u32,
    function: String,
}

/// The YAML correctness witness (format 2.0, one `invariant_set`).
pub fn yaml_witness(meta: &WitnessMeta, invs: &[WitnessInvariant]) -> String {
    let file = meta.program_file.display().to_string();
    let content = invs
        .iter()
        .map(|i| Content {
            invariant: YamlInvariant {
                kind: match i.kind {
                    InvariantKind::Loop => "loop_invariant",
                    InvariantKind::Location => "location_invariant",
                },
                location: Location {
                    file_name: file.clone(),
                    line: i.line,
                    column: 1,
                    function: i.function.clone(),
                },
                value: i.value.clone(),
                format: "c_expression",
            },
        })
        .collect();
    // A UUID (version 4 layout) from the content's hash: the same witness, the same id.
    let h = sha256_hex(format!("{file}{:?}{}", invs, meta.program_hash).as_bytes());
    let uuid = format!(
        "{}-{}-4{}-8{}-{}",
        &h[0..8],
        &h[8..12],
        &h[13..16],
        &h[17..20],
        &h[20..32]
    );
    let entry = Entry {
        entry_type: "invariant_set",
        metadata: Metadata {
            format_version: "2.0",
            uuid,
            creation_time: iso8601_utc(meta.creation_time),
            producer: Producer {
                name: "yogar",
                version: env!("CARGO_PKG_VERSION"),
            },
            task: TaskMeta {
                input_files: vec![file.clone()],
                input_file_hashes: [(file.clone(), meta.program_hash.clone())].into(),
                specification: "G ! call(reach_error())".into(),
                data_model: match meta.data_model {
                    crate::ir::DataModel::Ilp32 => "ILP32",
                    crate::ir::DataModel::Lp64 => "LP64",
                },
                language: "C",
            },
        },
        content,
    };
    yaml_serde::to_string(&vec![entry]).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use cranelift_entity::SecondaryMap;

    use super::*;
    use crate::frontend::load_source;
    use crate::ir::{BinOp, DataModel, Expr, ExprKind, InstrKind, Place};
    use crate::prove::{check, templates, Certificate, Invariant};
    use crate::sharing::Sharing;

    /// The unbounded-creation program, with `x <= 1` (and, for the thread's temporaries,
    /// nothing) everywhere: checked, then written out.
    fn proof() -> Proof {
        let src = "#include <pthread.h>\n#include <assert.h>\nint x;\n\
                   void *t(void *a) { int i = 0; x = 1; assert(x <= 1); return 0; }\n\
                   int main() { pthread_t h; while (1) pthread_create(&h, 0, t, 0); return 0; }\n";
        let prog = load_source(src, DataModel::Lp64).unwrap();
        let sharing = Sharing::analyse(&prog);
        let ts = templates::build(&prog, &sharing).unwrap();
        let xv = ts.program.var_by_name("x").unwrap();
        let xt = ts.program.vars[xv].ty;
        let x_le_1 = Fact::Holds(Expr {
            kind: ExprKind::Binary(
                BinOp::SLe,
                Box::new(Expr::read(Place::var(xv, xt))),
                Box::new(Expr::constant(1, xt)),
            ),
            ty: xt,
        });
        let mut invariants = SecondaryMap::new();
        for (t, tpl) in ts.templates.iter() {
            let mut per: SecondaryMap<InstrId, Invariant> = SecondaryMap::new();
            for (l, ins) in tpl.body.instrs.iter() {
                let dead = matches!(&ins.kind, InstrKind::Assert { cond, .. } if cond.as_const() == Some(0))
                    || matches!(ins.kind, InstrKind::Halt);
                per[l] = Invariant {
                    unreachable: dead,
                    facts: if dead { vec![] } else { vec![x_le_1.clone()] },
                };
            }
            invariants[t] = per;
        }
        let cert = Certificate {
            method: "hand-written".into(),
            ghosts: vec![],
            updates: vec![],
            invariants,
            counters: vec![],
        };
        let stats = check::check(&ts, &cert, None).expect("the certificate holds");
        Proof {
            method: cert.method.clone(),
            templates: ts,
            certificate: cert,
            stats,
        }
    }

    #[test]
    fn loop_heads_and_thread_entries_carry_the_invariants() {
        let p = proof();
        let invs = invariants(&p);
        assert!(
            invs.iter().any(|i| i.kind == InvariantKind::Loop
                && i.function == "main"
                && i.line == 5
                && i.value == "(x <= 1)"),
            "{invs:?}"
        );
        assert!(
            invs.iter().any(|i| i.kind == InvariantKind::Location
                && i.function == "t"
                && i.line == 4
                && i.value == "(x <= 1)"),
            "{invs:?}"
        );
        let meta = WitnessMeta {
            producer: "yogar test".into(),
            specification: "CHECK( init(main()), LTL(G ! call(reach_error())) )".into(),
            program_file: "prog.c".into(),
            program_hash: "ab".repeat(32),
            data_model: DataModel::Ilp32,
            creation_time: std::time::SystemTime::UNIX_EPOCH,
        };
        let yaml = yaml_witness(&meta, &invs);
        let v: yaml_serde::Value = yaml_serde::from_str(&yaml).expect("valid YAML");
        let entry = &v[0];
        assert_eq!(entry["entry_type"].as_str(), Some("invariant_set"));
        assert_eq!(entry["metadata"]["format_version"].as_str(), Some("2.0"));
        assert_eq!(
            entry["metadata"]["task"]["data_model"].as_str(),
            Some("ILP32")
        );
        let content = entry["content"].as_sequence().unwrap();
        assert_eq!(content.len(), invs.len());
        let loop_inv = content
            .iter()
            .find(|c| c["invariant"]["type"].as_str() == Some("loop_invariant"))
            .unwrap();
        assert_eq!(loop_inv["invariant"]["value"].as_str(), Some("(x <= 1)"));
        assert_eq!(loop_inv["invariant"]["location"]["line"].as_u64(), Some(5));
        assert_eq!(
            loop_inv["invariant"]["format"].as_str(),
            Some("c_expression")
        );
        let triples: Vec<(u32, String, String)> = invs
            .iter()
            .map(|i| (i.line, i.function.clone(), i.value.clone()))
            .collect();
        let g = crate::witness::correctness_witness_with_invariants(&meta, &triples);
        assert!(
            g.contains("<data key=\"invariant\">(x &lt;= 1)</data>"),
            "{g}"
        );
        assert!(g.contains("correctness_witness"));
        roxmltree::Document::parse(&g).expect("well-formed GraphML");
    }
}
