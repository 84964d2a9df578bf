//! Graphviz rendering of an EOG after closure: po edges solid, rf edges dashed, edges derived
//! by R2/R3 with hollow heads, atomic blocks as clusters, and one cycle (if any) in red.

use std::collections::VecDeque;
use std::fmt::Write;

use cranelift_entity::EntityRef;
use hashbrown::HashSet;

use super::graph::{Access, EogBuilder, Node};
use super::rules::kind;

impl EogBuilder {
    /// The graph in Graphviz syntax. Derived edges and the highlighted cycle come from the
    /// last [`EogBuilder::close`]; before it only the input edges are drawn.
    pub fn to_dot(&self) -> String {
        let derived: Vec<(Node, Node, u8)> = self
            .analysis
            .as_ref()
            .map(|a| a.reach.derived.clone())
            .unwrap_or_default();
        let cycle = self.one_cycle(&derived);
        let on_cycle = |a: Node, b: Node| cycle.contains(&(a, b));

        let mut s = String::from("digraph eog {\n  node [shape=box, fontname=monospace];\n");
        for (node, data) in self.nodes.iter() {
            let cluster = data.events.len() > 1;
            if cluster {
                let _ = writeln!(
                    s,
                    "  subgraph cluster_{} {{ label=\"atomic\"; style=dashed;",
                    node.index()
                );
            }
            for &e in &data.events {
                let ev = &self.events[e];
                let rw = match ev.access {
                    Access::Read => "R",
                    Access::Write => "W",
                };
                let guard = ev.guard.map(|g| format!(" [{g}]")).unwrap_or_default();
                let fill = if ev.access == Access::Read {
                    ", style=filled, fillcolor=lightgray"
                } else {
                    ""
                };
                let red = if cycle.contains(&(node, node)) {
                    ", color=red, penwidth=2"
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "  {} [label=\"{} {} {} {}{}\"{}{}];",
                    e.index(),
                    escape(&self.event_name(e)),
                    rw,
                    ev.loc,
                    ev.thread,
                    guard,
                    fill,
                    red
                );
            }
            if cluster {
                s.push_str("  }\n");
            }
        }
        let hl = |a: Node, b: Node| {
            if on_cycle(a, b) {
                ", color=red, penwidth=2"
            } else {
                ""
            }
        };
        for p in &self.po {
            let (a, b) = (self.events[p.from].node, self.events[p.to].node);
            let _ = writeln!(
                s,
                "  {} -> {} [{}];",
                p.from.index(),
                p.to.index(),
                hl(a, b).trim_start_matches(", ")
            );
        }
        for r in &self.rf {
            let (a, b) = (self.events[r.write].node, self.events[r.read].node);
            let _ = writeln!(
                s,
                "  {} -> {} [style=dashed, label=\"{}\"{}];",
                r.write.index(),
                r.read.index(),
                r.link,
                hl(a, b)
            );
        }
        for &(a, b, k) in &derived {
            let (ea, eb) = (self.nodes[a].events[0], self.nodes[b].events[0]);
            let rule = if k & kind::R2 != 0 { "R2" } else { "R3" };
            let _ = writeln!(
                s,
                "  {} -> {} [arrowhead=empty, color=blue, fontcolor=blue, label=\"{}\"{}];",
                ea.index(),
                eb.index(),
                rule,
                hl(a, b)
            );
        }
        s.push_str("}\n");
        s
    }

    /// The node-level edges of one cycle found by the last closure (empty if none).
    fn one_cycle(&self, derived: &[(Node, Node, u8)]) -> HashSet<(Node, Node)> {
        let mut cycle = HashSet::new();
        let Some(an) = &self.analysis else {
            return cycle;
        };
        let m = &an.reach.m;
        let Some(c) = (0..m.n()).find(|&u| m.get(u, u)) else {
            return cycle;
        };
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); m.n()];
        let base = self.po.iter().map(|p| (p.from, p.to));
        let rf = self.rf.iter().map(|r| (r.write, r.read));
        for (a, b) in base.chain(rf) {
            let (a, b) = (self.events[a].node.index(), self.events[b].node.index());
            if a != b {
                succ[a].push(b);
            }
        }
        for &(a, b, _) in derived {
            succ[a.index()].push(b.index());
        }
        // Breadth-first search from c back to c inside c's strongly connected component.
        let mut parent = vec![usize::MAX; m.n()];
        let mut queue = VecDeque::from([c]);
        while let Some(u) = queue.pop_front() {
            for &v in &succ[u] {
                if v == c {
                    let mut x = u;
                    cycle.insert((Node::new(u), Node::new(c)));
                    while x != c {
                        let p = parent[x];
                        cycle.insert((Node::new(p), Node::new(x)));
                        x = p;
                    }
                    return cycle;
                }
                if parent[v] == usize::MAX && m.get(c, v) && m.get(v, c) {
                    parent[v] = u;
                    queue.push_back(v);
                }
            }
        }
        // No path through distinct nodes: the conflict lies inside node c (an atomic block).
        cycle.insert((Node::new(c), Node::new(c)));
        cycle
    }
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
