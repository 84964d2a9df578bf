//! Witnesses written by `yogar::witness`, read back with an independent XML parser and checked
//! against the rules of the SV-COMP GraphML witness format 1.0.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use yogar::svcomp::{DataModel, UNREACH_CALL_SPEC};
use yogar::witness::{
    correctness_witness, violation_witness, write_violation_witness, Step, Trace, TraceStep,
    WitnessError, WitnessMeta,
};

const NS: &str = "http://graphml.graphdrawing.org/xmlns";

const GRAPH_KEYS: [&str; 8] = [
    "witness-type",
    "sourcecodelang",
    "producer",
    "specification",
    "programfile",
    "programhash",
    "architecture",
    "creationtime",
];

fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yogar-witness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn meta_for(program: &Path, data_model: DataModel) -> WitnessMeta {
    let mut meta = WitnessMeta::new(program, UNREACH_CALL_SPEC, data_model).unwrap();
    meta.creation_time = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    meta
}

fn step(thread: u32, line: u32, function: &str, kind: Step) -> TraceStep {
    TraceStep::new(thread, Some(line), function, kind)
}

/// main creates t1 (running `worker`), t1 reads a nondet value and writes a shared variable,
/// main branches on it and reaches the error.
fn two_thread_trace() -> Trace {
    Trace {
        steps: vec![
            step(0, 20, "main", Step::EnterFunction),
            step(
                0,
                21,
                "main",
                Step::NondetInput {
                    name: "n".into(),
                    value: -7,
                },
            ),
            step(
                0,
                22,
                "main",
                Step::CreateThread {
                    child: 1,
                    entry: "worker".into(),
                },
            ),
            step(
                1,
                10,
                "worker",
                Step::Assign {
                    lhs: "p->x".into(),
                    value: 5,
                },
            ),
            step(1, 11, "worker", Step::Return),
            step(
                0,
                23,
                "main",
                Step::Assign {
                    lhs: "tmp".into(),
                    value: 5,
                },
            ),
            step(0, 24, "main", Step::Branch { taken: true }),
            step(0, 25, "main", Step::Violation),
        ],
        ..Default::default()
    }
}

/// The parsed document: graph data, nodes (id → data) in order, edges (source, target, data).
struct Parsed {
    graph: HashMap<String, String>,
    nodes: Vec<(String, HashMap<String, String>)>,
    edges: Vec<(String, String, HashMap<String, String>)>,
}

fn data_of(node: roxmltree::Node) -> HashMap<String, String> {
    node.children()
        .filter(|c| c.has_tag_name((NS, "data")))
        .map(|c| {
            (
                c.attribute("key").unwrap().to_string(),
                c.text().unwrap_or("").to_string(),
            )
        })
        .collect()
}

fn parse(xml: &str) -> Parsed {
    let doc = roxmltree::Document::parse(xml).expect("well-formed XML");
    let root = doc.root_element();
    assert!(root.has_tag_name((NS, "graphml")));
    // Every data element must use a declared key of the right domain.
    let keys: HashMap<&str, &str> = root
        .children()
        .filter(|c| c.has_tag_name((NS, "key")))
        .map(|k| (k.attribute("id").unwrap(), k.attribute("for").unwrap()))
        .collect();
    let graphs: Vec<_> = root
        .children()
        .filter(|c| c.has_tag_name((NS, "graph")))
        .collect();
    assert_eq!(graphs.len(), 1);
    let graph = graphs[0];
    assert_eq!(graph.attribute("edgedefault"), Some("directed"));
    for d in graph.descendants().filter(|d| d.has_tag_name((NS, "data"))) {
        let key = d.attribute("key").unwrap();
        let parent = d.parent_element().unwrap().tag_name().name();
        assert_eq!(
            keys.get(key).copied(),
            Some(parent),
            "data key {key} under <{parent}>"
        );
    }
    let nodes = graph
        .children()
        .filter(|c| c.has_tag_name((NS, "node")))
        .map(|n| (n.attribute("id").unwrap().to_string(), data_of(n)))
        .collect();
    let edges = graph
        .children()
        .filter(|c| c.has_tag_name((NS, "edge")))
        .map(|e| {
            (
                e.attribute("source").unwrap().to_string(),
                e.attribute("target").unwrap().to_string(),
                data_of(e),
            )
        })
        .collect();
    Parsed {
        graph: data_of(graph),
        nodes,
        edges,
    }
}

fn sha256sum_tool(path: &Path) -> Option<String> {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    Some(text.split_whitespace().next()?.to_string())
}

#[test]
fn violation_witness_follows_the_format() {
    let program = temp_file("two_threads.c", b"int main(void) { return 0; }\n");
    let meta = meta_for(&program, DataModel::Ilp32);
    let xml = violation_witness(&meta, &two_thread_trace()).unwrap();
    let w = parse(&xml);

    for key in GRAPH_KEYS {
        assert!(
            w.graph.get(key).is_some_and(|v| !v.is_empty()),
            "graph key {key}"
        );
    }
    assert_eq!(w.graph["witness-type"], "violation_witness");
    assert_eq!(w.graph["sourcecodelang"], "C");
    assert_eq!(w.graph["architecture"], "32bit");
    assert_eq!(w.graph["specification"], UNREACH_CALL_SPEC);
    assert_eq!(w.graph["programfile"], program.display().to_string());
    assert_eq!(w.graph["creationtime"], "2023-11-14T22:13:20Z");
    assert!(w.graph["producer"].starts_with("yogar "));

    // Exactly one entry node, exactly one violation node, and it is the last node of the path.
    let entries: Vec<_> = w
        .nodes
        .iter()
        .filter(|(_, d)| d.get("entry").map(String::as_str) == Some("true"))
        .collect();
    let violations: Vec<_> = w
        .nodes
        .iter()
        .filter(|(_, d)| d.get("violation").map(String::as_str) == Some("true"))
        .collect();
    assert_eq!(entries.len(), 1);
    assert_eq!(violations.len(), 1);
    // The edges form one path from the entry node to the violation node.
    let mut at = entries[0].0.clone();
    for (source, target, _) in &w.edges {
        assert_eq!(*source, at);
        at = target.clone();
    }
    assert_eq!(at, violations[0].0);
    assert_eq!(w.nodes.len(), w.edges.len() + 1);

    // Every edge names its thread.
    for (_, _, d) in &w.edges {
        assert!(
            d.get("threadId").is_some_and(|t| t.parse::<u32>().is_ok()),
            "{d:?}"
        );
    }
    // createThread is followed at once by the child's enterFunction, and not repeated.
    let creates: Vec<usize> = (0..w.edges.len())
        .filter(|&i| w.edges[i].2.contains_key("createThread"))
        .collect();
    assert_eq!(creates.len(), 1);
    let (c, next) = (&w.edges[creates[0]].2, &w.edges[creates[0] + 1].2);
    assert_eq!(c["threadId"], "0");
    assert_eq!(c["createThread"], "1");
    assert_eq!(next["threadId"], "1");
    assert_eq!(next["enterFunction"], "worker");
    assert_eq!(
        w.edges
            .iter()
            .filter(|e| e.2.get("enterFunction").map(String::as_str) == Some("worker"))
            .count(),
        1
    );

    // Assumptions in `x == v;` form, scoped by function, escaped and read back intact.
    let assumptions: Vec<(&str, &str, &str)> = w
        .edges
        .iter()
        .filter_map(|(_, _, d)| {
            Some((
                d.get("assumption")?.as_str(),
                d.get("assumption.scope")?.as_str(),
                d["threadId"].as_str(),
            ))
        })
        .collect();
    assert_eq!(
        assumptions,
        vec![
            ("n == -7;", "main", "0"),
            ("p->x == 5;", "worker", "1"),
            ("tmp == 5;", "main", "0")
        ]
    );
    assert!(xml.contains("p-&gt;x == 5;"));
    assert_eq!(
        w.edges
            .iter()
            .filter(|e| e.2.get("control").map(String::as_str) == Some("condition-true"))
            .count(),
        1
    );
    assert_eq!(
        w.edges
            .iter()
            .filter(|e| e.2.get("returnFrom").map(String::as_str) == Some("worker"))
            .count(),
        1
    );
    // The violation edge carries the line of the error.
    assert_eq!(w.edges.last().unwrap().2["startline"], "25");
}

#[test]
fn program_hash_is_the_sha256_of_the_file() {
    // A known test vector: SHA-256("abc").
    let abc = temp_file("abc.c", b"abc");
    let xml = violation_witness(&meta_for(&abc, DataModel::Lp64), &two_thread_trace()).unwrap();
    let w = parse(&xml);
    assert_eq!(
        w.graph["programhash"],
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(w.graph["architecture"], "64bit");

    // A larger file (several read buffers) against the system's sha256sum, when there is one.
    let big: Vec<u8> = (0..300_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let big_path = temp_file("big.c", &big);
    let meta = meta_for(&big_path, DataModel::Lp64);
    match sha256sum_tool(&big_path) {
        Some(expected) => assert_eq!(meta.program_hash, expected),
        None => println!("skipped the sha256sum comparison: no sha256sum tool"),
    }
    assert_eq!(meta.program_hash.len(), 64);
}

#[test]
fn correctness_witness_has_one_entry_node() {
    let program = temp_file("ok.c", b"int main(void) { return 0; }\n");
    let w = parse(&correctness_witness(&meta_for(&program, DataModel::Ilp32)));
    for key in GRAPH_KEYS {
        assert!(
            w.graph.get(key).is_some_and(|v| !v.is_empty()),
            "graph key {key}"
        );
    }
    assert_eq!(w.graph["witness-type"], "correctness_witness");
    assert_eq!(w.nodes.len(), 1);
    assert_eq!(w.nodes[0].1.get("entry").map(String::as_str), Some("true"));
    assert!(w.edges.is_empty());
}

#[test]
fn odd_names_stay_well_formed() {
    let program = temp_file("a&b<c>.c", b"x");
    let trace = Trace {
        steps: vec![
            step(
                0,
                1,
                "f\"'&<>",
                Step::Assign {
                    lhs: "a[i<j && k>0]".into(),
                    value: i128::MIN,
                },
            ),
            step(0, 2, "main", Step::Violation),
        ],
        ..Default::default()
    };
    let w = parse(&violation_witness(&meta_for(&program, DataModel::Ilp32), &trace).unwrap());
    assert_eq!(w.graph["programfile"], program.display().to_string());
    assert_eq!(
        w.edges[0].2["assumption"],
        format!("a[i<j && k>0] == {};", i128::MIN)
    );
    assert_eq!(w.edges[0].2["assumption.scope"], "f\"'&<>");
}

#[test]
fn traces_that_describe_no_violation_are_refused() {
    let program = temp_file("bad.c", b"x");
    let meta = meta_for(&program, DataModel::Ilp32);
    let cases = [
        (
            vec![step(0, 1, "main", Step::Branch { taken: false })],
            "does not end in a violation",
        ),
        (vec![], "does not end in a violation"),
        (
            vec![
                step(0, 1, "main", Step::Violation),
                step(0, 2, "main", Step::Return),
            ],
            "not the last step",
        ),
        (
            vec![
                step(2, 1, "w", Step::Return),
                step(0, 2, "main", Step::Violation),
            ],
            "before it is created",
        ),
        (
            vec![
                step(
                    0,
                    1,
                    "main",
                    Step::CreateThread {
                        child: 1,
                        entry: "w".into(),
                    },
                ),
                step(
                    0,
                    2,
                    "main",
                    Step::CreateThread {
                        child: 1,
                        entry: "w".into(),
                    },
                ),
                step(0, 3, "main", Step::Violation),
            ],
            "created twice",
        ),
    ];
    for (steps, needle) in cases {
        let mut out = Vec::new();
        match write_violation_witness(
            &mut out,
            &meta,
            &Trace {
                steps,
                ..Default::default()
            },
        ) {
            Err(WitnessError::InvalidTrace(why)) => assert!(why.contains(needle), "{why}"),
            other => panic!("expected an invalid trace, got {other:?}"),
        }
        assert!(out.is_empty(), "nothing is written for a refused trace");
    }
}
