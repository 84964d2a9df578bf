//! Reading a GraphML violation witness: the path of edges from the entry node to the
//! violation node, with what each edge says (thread, line, assumptions, thread creation).

use crate::violation::Violation;

/// One edge of the witness path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WitnessEdge {
    pub thread: u32,
    pub line: Option<u32>,
    /// `(lhs, value)` of every `lhs == value` conjunct of the assumption.
    pub assumptions: Vec<(String, i128)>,
    pub create_thread: Option<u32>,
    pub enter_function: Option<String>,
}

/// What a violation witness says: its path and the architecture it was written for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    pub edges: Vec<WitnessEdge>,
    /// `32bit` or `64bit`, when given.
    pub architecture: Option<String>,
    /// The property the witness violates (its `specification`), when given.
    pub specification: Option<String>,
    /// (thread, line) of each `target` of a YAML witness: the violation a confirming run must
    /// reach there (two: the racing accesses). Empty for GraphML, whose violation node names
    /// no place: any violation of the property confirms it.
    pub targets: Vec<(u32, u32)>,
    /// The subproperty a valid-memsafety witness names (`G valid-deref`, `G valid-free`,
    /// `G valid-memtrack`): only a violation of that kind confirms it. None when the witness
    /// names the whole property (any of the three confirms) or another property.
    pub mem_kind: Option<Violation>,
}

/// The valid-memsafety subproperty an LTL formula (`G valid-deref`) or a one-line
/// specification (`CHECK( init(main()), LTL(G valid-deref) )`) names, if it names one.
pub fn memsafety_kind(text: &str) -> Option<Violation> {
    let flat: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    [
        Violation::ValidDeref,
        Violation::ValidFree,
        Violation::ValidMemtrack,
    ]
    .into_iter()
    .find(|&v| {
        let ltl: String = crate::witness::yaml::ltl_of(v)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        flat == ltl || flat == format!("CHECK(init(main()),LTL({ltl}))")
    })
}

/// An integer literal of C (decimal or hex, optional sign and suffixes).
fn parse_int(s: &str) -> Option<i128> {
    let s = s
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, s),
    };
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else {
        s.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// The `lhs == value` conjuncts of an assumption such as `x == 5; \result == -1;`.
pub(super) fn parse_assumption(text: &str) -> Vec<(String, i128)> {
    text.split([';', '&'])
        .filter_map(|c| {
            let c = c.trim().trim_start_matches('(').trim_end_matches(')');
            let (l, r) = c.split_once("==")?;
            Some((l.trim().to_string(), parse_int(r)?))
        })
        .collect()
}

/// The witness path, entry to violation. Errors are one readable line.
pub fn parse_witness(text: &str) -> Result<Witness, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("not XML: {e}"))?;
    let root = doc.root_element();
    if root.tag_name().name() != "graphml" {
        return Err("not a GraphML document".into());
    }
    // Key ids are the producer's choice; their attribute names are the format.
    let mut key_names = std::collections::HashMap::new();
    for k in root.children().filter(|n| {
        n.has_tag_name(("http://graphml.graphdrawing.org/xmlns", "key"))
            || n.tag_name().name() == "key"
    }) {
        if let (Some(id), Some(name)) = (k.attribute("id"), k.attribute("attr.name")) {
            key_names.insert(id.to_string(), name.to_string());
        }
    }
    let graph = root
        .children()
        .find(|n| n.tag_name().name() == "graph")
        .ok_or("no graph element")?;
    let data = |n: roxmltree::Node, name: &str| -> Option<String> {
        n.children()
            .filter(|c| c.tag_name().name() == "data")
            .find(|c| {
                c.attribute("key")
                    .is_some_and(|k| key_names.get(k).map_or(k, |s| s.as_str()) == name)
            })
            .map(|c| c.text().unwrap_or("").trim().to_string())
    };
    let architecture = data(graph, "architecture");
    // A memory-safety witness may name the one subproperty it violates.
    let mut specification = data(graph, "specification");
    let mem_kind = specification.as_deref().and_then(memsafety_kind);
    if mem_kind.is_some() {
        specification = Some(crate::svcomp::property::VALID_MEMSAFETY_SPEC.to_string());
    }
    let mut entry = None;
    let mut violation = std::collections::HashSet::new();
    for n in graph.children().filter(|n| n.tag_name().name() == "node") {
        let id = n.attribute("id").ok_or("node without id")?;
        if data(n, "isEntryNode").as_deref() == Some("true") {
            entry = Some(id.to_string());
        }
        if data(n, "isViolationNode").as_deref() == Some("true") {
            violation.insert(id.to_string());
        }
    }
    let entry = entry.ok_or("no entry node")?;
    if violation.is_empty() {
        return Err("no violation node (not a violation witness)".into());
    }
    let mut out_edges: std::collections::HashMap<String, Vec<roxmltree::Node>> =
        std::collections::HashMap::new();
    let mut n_edges = 0;
    for e in graph.children().filter(|n| n.tag_name().name() == "edge") {
        let src = e.attribute("source").ok_or("edge without source")?;
        out_edges.entry(src.to_string()).or_default().push(e);
        n_edges += 1;
    }
    let mut path = Vec::new();
    let mut node = entry;
    while !violation.contains(&node) {
        if path.len() > n_edges {
            return Err("the witness path has a cycle".into());
        }
        let Some(e) = out_edges.get(&node).and_then(|v| v.first()) else {
            return Err(format!(
                "no path from the entry node to a violation node (stuck at {node})"
            ));
        };
        let thread = match data(*e, "threadId") {
            Some(s) => s.parse().map_err(|_| format!("bad threadId '{s}'"))?,
            None => 0,
        };
        let line = match data(*e, "startline") {
            Some(s) => Some(s.parse().map_err(|_| format!("bad startline '{s}'"))?),
            None => None,
        };
        let create_thread = match data(*e, "createThread") {
            Some(s) => Some(s.parse().map_err(|_| format!("bad createThread '{s}'"))?),
            None => None,
        };
        path.push(WitnessEdge {
            thread,
            line,
            assumptions: data(*e, "assumption")
                .map(|a| parse_assumption(&a))
                .unwrap_or_default(),
            create_thread,
            enter_function: data(*e, "enterFunction"),
        });
        node = e
            .attribute("target")
            .ok_or("edge without target")?
            .to_string();
    }
    Ok(Witness {
        edges: path,
        architecture,
        specification,
        targets: Vec::new(),
        mem_kind,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assumptions_and_literals() {
        assert_eq!(
            parse_assumption("\\result == -5; x == 0x10U;"),
            vec![("\\result".to_string(), -5), ("x".to_string(), 16)]
        );
        assert_eq!(parse_assumption("x > 3;"), vec![]);
    }

    #[test]
    fn memsafety_subproperties() {
        assert_eq!(memsafety_kind("G valid-free"), Some(Violation::ValidFree));
        assert_eq!(
            memsafety_kind("CHECK( init(main()), LTL(G valid-deref) )"),
            Some(Violation::ValidDeref)
        );
        assert_eq!(
            memsafety_kind(" G  valid-memtrack\n"),
            Some(Violation::ValidMemtrack)
        );
        // The whole property, or another one, names no single kind.
        assert_eq!(memsafety_kind(crate::svcomp::VALID_MEMSAFETY_SPEC), None);
        assert_eq!(memsafety_kind("G ! overflow"), None);
        assert_eq!(memsafety_kind("G valid-memcleanup"), None);
    }
}
