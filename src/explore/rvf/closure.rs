//! The closure of an instance (Section 4.2 of the RVF paper): a cheap filter that rejects
//! instances with no witness before VerifySC searches them.
//!
//! The closure is the weakest partial order P over the instance's events that contains
//! program order, the observation edges (a synchronisation read after the write it
//! observes) and the coherence edges those force, for synchronisation objects (below) and
//! for memory reads (their own section). For a read r of object k that observes
//! the write w, and any other write w' of k (not r itself):
//! - if w' <P r then w' <P w;
//! - if w <P w' then r <P w';
//!
//! and for a read r that observes no writer, r <P w' for every write w' of k. Adding an edge
//! can fire more rules, so the rules are applied until nothing changes.
//!
//! # Why it only rejects instances without a witness
//!
//! A witness is a total order of the events that respects program order in which every read
//! observes what the instance says. Each edge added is one every witness has: program order
//! by definition; w before r because r observes w, the last write of k before r; a write w'
//! of k that precedes r in the witness cannot lie between w and r (then r would observe w'),
//! so it precedes w; a write w' after w cannot lie before r for the same reason, so it
//! follows r; a read that observes no writer precedes every write of k. By induction every
//! witness contains all edges of P, so a cycle in P (an event before itself) means there is
//! no witness. A read that observes itself (an event whose own earlier access wrote the
//! object) is left unconstrained, which only weakens the filter.
//!
//! Joins: a join runs only after the joined thread's end wrote its done object, so a join
//! that observes no writer has no witness either. Creations: a thread creation reads and
//! writes the thread table, so the creations form a chain their observations fix (the one
//! that observes no writer, then the one that observes it, ...); the k-th in that chain is
//! the k-th creation of every witness and makes thread k (main is thread 0), whose events
//! all follow it.
//!
//! # Memory reads
//!
//! A memory read observes a value, not a writer, so its good writes are a set: the events
//! that write exactly its cell with a value whose bytes give what it observed, and the
//! initial value when that gives it. With that set S_r, the paper's rules apply, where only
//! the writes S_r still *visible* in P count (not P-after r, not hidden by another write of
//! the cell P-between them and r, the initial value hidden by any write P-before r):
//! 1. S_r is empty: no witness;
//! 2. S_r has a P-least element w: w <P r;
//! 3. S_r has a P-greatest element g: every other write w' of the cell with w' <P r gets
//!    w' <P g;
//! 4. every other write w' of the cell P-after all of S_r gets r <P w'.
//!
//! Why each edge is in every witness τ that contains P: let s be the last write of the cell
//! before r in τ (or the initial value). r observes its bytes, so s is good, and it is
//! visible (τ contains P: s is not after r, and a write P-between s and r would lie between
//! them in τ), so s ∈ S_r, and (1) S_r is not empty. (2) w ≤P s <τ r. (3) w' <τ r, so
//! w' <τ s (s is the last before r, w' ∉ S_r, so w' ≠ s), and s ≤P g. (4) s <P w', and
//! w' cannot lie between s and r: it follows r.
//!
//! Only reads that can be compared exactly are constrained: reads of cells of global
//! variables (written only through logged writes: a filled indeterminate value never lands
//! in a global, which starts zeroed; main's locals, which share the globals' owner, are
//! left out for that reason: `Machine::global_summary`), whose every write in the instance covers exactly the cell (a write that
//! covers part of it would mix bytes), by an event that does not write the cell itself (an
//! atomic step that reads what it wrote), of a value whose bytes are known: a scalar of at
//! most 8 bytes (its bits are its bytes, every scalar type of that size using all its
//! bits) or bytes (compared by their summary, equal bytes giving equal summaries). A
//! pointer is compared by its bits, without its provenance: a write with the same bits
//! counts as good, which only weakens the filter. Any other read is left to VerifySC.

use super::event::{Ev, EvId, SyncKey, DONE, THREADS};
use crate::explore::interp::{summary, Target, Value};

/// A memory read the closure constrains: the reader, the events that write its cell, those
/// among them that write what it observes, and whether the initial value is what it
/// observes.
struct MemRead {
    reader: usize,
    writes: Vec<usize>,
    good: Vec<usize>,
    init: bool,
}

/// The key of a memory read's observation `v` of the cell `cell`, comparable with the
/// summaries of writes; `None` when its bytes are not known from it, or when they depend on
/// a symbolic input (a term): their bits then hold for this run's inputs only, and what
/// the explorer decides must be the same for every input on the path condition
/// (`rvf::inputs`).
pub fn read_key(v: &Value, cell: &Target) -> Option<u64> {
    let &Target::Mem { len, .. } = cell else {
        return None;
    };
    match v {
        Value::Scalar(s) if s.sym.is_some() => None,
        Value::Scalar(s) if len <= 8 => {
            Some(s.bits & u64::MAX.checked_shr(64 - 8 * len as u32).unwrap_or(0))
        }
        Value::Scalar(_) => None,
        Value::Bytes(b, _) => Some(summary(b)),
    }
}

/// A candidate event probed for one observation (`consistent_probe`): its index in the
/// closure's events, the memory read probed (the cell and the write it observes, `None`:
/// the initial value), and whether its memory writes are *wildcards*: good writes of every
/// read of their cell, whatever it observes. The closure's argument only needs the last
/// write of a cell before each read to be among the read's good writes, so a wildcard
/// stands for a write whose value is not known (it depends on what the probed event
/// observes) and rejects no witness. The probed read observes the state before the event
/// (the caller checks that the event reads before it writes), so the event's own writes
/// are not among the writes of its cell for it.
#[derive(Clone, Copy)]
struct Probe<'a> {
    at: usize,
    mem: Option<(&'a Target, Option<usize>)>,
}

/// The memory reads of `evs` the closure can constrain (the module doc), `init` giving the
/// summary of a global cell's initial bytes. The probed event (`Probe`) reads only the
/// probed cell, whatever its own observations say.
fn memory_reads(
    evs: &[&Ev],
    init: &dyn Fn(&Target) -> Option<u64>,
    probe: Option<Probe>,
) -> Vec<MemRead> {
    let wild = probe.map(|p| p.at);
    let mut out = Vec::new();
    for (r, e) in evs.iter().enumerate() {
        if let Some(p) = probe.filter(|p| p.at == r) {
            let Some((cell, source)) = p.mem else {
                continue;
            };
            let Some(mut m) = memory_read(evs, r, cell, 0, init, None) else {
                continue;
            };
            m.writes.retain(|&w| w != r);
            m.good = source
                .into_iter()
                .filter(|s| m.writes.contains(s))
                .collect();
            m.init = source.is_none();
            out.push(m);
            continue;
        }
        for (cell, v) in e.mem_reads() {
            let Some(key) = read_key(v, cell) else {
                continue;
            };
            if e.writes.iter().any(|(w, _)| cell.overlaps(w)) {
                continue;
            }
            out.extend(memory_read(evs, r, cell, key, init, wild));
        }
    }
    out
}

/// The read of `cell` by event `r` of `evs` observing the bytes of `key`, when the closure
/// can constrain it (the module doc); the writes of event `wild` are good whatever they
/// write (`Probe`).
fn memory_read(
    evs: &[&Ev],
    r: usize,
    cell: &Target,
    key: u64,
    init: &dyn Fn(&Target) -> Option<u64>,
    wild: Option<usize>,
) -> Option<MemRead> {
    // `init` knows only the cells of global variables (not main's locals, which
    // also belong to owner 0 but can change without a logged write).
    let init = init(cell)?;
    let mut writes = Vec::new();
    let mut good = Vec::new();
    for (w, we) in evs.iter().enumerate() {
        for (t, value) in &we.writes {
            // A write of symbolic bytes: its summary is this run's (`read_key`), so the
            // closure leaves the read to VerifySC.
            if we.writes_symbolic && cell.overlaps(t) {
                return None;
            }
            if t == cell {
                writes.push(w);
                if *value == key || wild == Some(w) {
                    good.push(w);
                }
            } else if cell.overlaps(t) {
                return None;
            }
        }
    }
    writes.dedup();
    good.dedup();
    Some(MemRead {
        reader: r,
        writes,
        good,
        init: init == key,
    })
}

/// The writes a read of `cell` by the candidate `cand` (appended to its thread; it makes
/// that read before any write of the cell) can observe in a witness of `inst` plus it, as
/// far as the closure can tell: the events that write exactly the cell and the initial
/// value (`None`), less those the closure rejects as the last write of the cell before the
/// candidate, with the candidate's memory writes as wildcards (`Probe`). `None` when the
/// closure cannot constrain the read (not a cell of a global variable, or an event writes
/// part of it: the module doc).
///
/// Each rejection is the closure's argument with the read's good writes narrowed to the one
/// source: a witness in which the source is the last write of the cell before the read
/// contains every edge the closure adds.
pub fn sources(
    inst: &[Vec<Ev>],
    cand: (usize, &Ev),
    cell: &Target,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> Option<Vec<Option<EvId>>> {
    init(cell)?;
    let mut all = vec![None];
    for (t, evs) in inst.iter().enumerate() {
        for (i, e) in evs.iter().enumerate() {
            for (w, _) in &e.writes {
                if w == cell {
                    all.push(Some((t, i as u32)));
                } else if cell.overlaps(w) {
                    return None;
                }
            }
        }
    }
    all.dedup();
    // One closure without the read first: a source with another write of the cell between
    // it and the read in the order (the initial value: any write before the read), or
    // after the read, is the last write before the read in no witness. Then one closure
    // per source left, with the read observing it.
    let Some(Closed { g, first }) = closed(inst, Some(cand), Some(None), init) else {
        return Some(Vec::new());
    };
    let at = |(t, i): EvId| first[t] + i as usize;
    let r = at((cand.0, inst.get(cand.0).map_or(0, |v| v.len()) as u32));
    let writes: Vec<usize> = all.iter().flatten().map(|&w| at(w)).collect();
    let hidden = |s: Option<usize>| {
        s.is_some_and(|s| g.before(r, s))
            || writes
                .iter()
                .any(|&x| Some(x) != s && s.is_none_or(|s| g.before(s, x)) && g.before(x, r))
    };
    let left: Vec<Option<EvId>> = all.into_iter().filter(|&s| !hidden(s.map(at))).collect();
    if left.len() <= 1 {
        return Some(left);
    }
    Some(
        left.into_iter()
            .filter(|&s| consistent_probe(inst, cand, Some((cell, s)), init))
            .collect(),
    )
}

/// False when no witness of `inst` plus the candidate `cand` exists by the closure, with
/// the candidate's memory writes as wildcards (`Probe`) and its memory reads unconstrained.
pub fn consistent_wild(
    inst: &[Vec<Ev>],
    cand: (usize, &Ev),
    init: &dyn Fn(&Target) -> Option<u64>,
) -> bool {
    consistent_probe(inst, cand, None, init)
}

/// False when the instance `inst`, with the event `cand` appended to its thread when given,
/// has no witness by the closure; true says nothing. `init` gives the summary of a global
/// variable's cell's initial bytes (`None`: not a cell of a global variable, whose memory
/// reads the closure then leaves alone).
pub fn consistent(
    inst: &[Vec<Ev>],
    cand: Option<(usize, &Ev)>,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> bool {
    closure(inst, cand, None, init)
}

/// `consistent` for the probed candidate `cand` (`Probe`): reading the cell `mem.0` and
/// observing the write `mem.1` (`None`: the initial value) in place of its own memory
/// reads, its memory writes wildcards.
fn consistent_probe(
    inst: &[Vec<Ev>],
    cand: (usize, &Ev),
    mem: Option<(&Target, Option<EvId>)>,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> bool {
    closure(inst, Some(cand), Some(mem), init)
}

/// The closure of `inst` plus `cand`; `probe`: the candidate is probed (`Probe`) for the
/// memory observation given, if any.
fn closure(
    inst: &[Vec<Ev>],
    cand: Option<(usize, &Ev)>,
    probe: Option<Option<(&Target, Option<EvId>)>>,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> bool {
    closed(inst, cand, probe, init).is_some()
}

/// A closure that found no cycle: the order and, per thread, the index of its first event
/// (the candidate follows its thread's events of the instance).
struct Closed {
    g: Order,
    first: Vec<usize>,
}

/// The closure of `inst` plus `cand` (`closure`); `None` when it has a cycle.
fn closed(
    inst: &[Vec<Ev>],
    cand: Option<(usize, &Ev)>,
    probe: Option<Option<(&Target, Option<EvId>)>>,
    init: &dyn Fn(&Target) -> Option<u64>,
) -> Option<Closed> {
    let mut ids: Vec<EvId> = Vec::new();
    let mut evs: Vec<&Ev> = Vec::new();
    let threads = inst.len().max(cand.map_or(0, |(t, _)| t + 1));
    let mut first = Vec::with_capacity(threads + 1);
    for t in 0..threads {
        first.push(ids.len());
        let own = inst.get(t).map_or(&[][..], |v| &v[..]);
        for (i, e) in own.iter().enumerate() {
            ids.push((t, i as u32));
            evs.push(e);
        }
        if let Some((c, e)) = cand.filter(|(c, _)| *c == t) {
            ids.push((c, own.len() as u32));
            evs.push(e);
        }
    }
    first.push(ids.len());
    let n = ids.len();
    let index = |id: &EvId| -> Option<usize> {
        let (t, i) = *id;
        let at = first.get(t)? + i as usize;
        (at < *first.get(t + 1)?).then_some(at)
    };
    let mut g = Order::new(n);
    for t in 0..threads {
        for i in first[t] + 1..first[t + 1] {
            if !g.add(i - 1, i) {
                return None;
            }
        }
    }
    // Creation edges: the creation that is k-th in the thread table's chain creates thread k
    // (the k-th creation in every witness, whose observations fix the chain), and thread k's
    // events run after it.
    let mut writer: Option<usize> = None;
    for k in 1..threads {
        let observes = |c: usize| {
            evs[c].sync_writes.contains(&THREADS)
                && evs[c]
                    .sync_reads
                    .iter()
                    .any(|&(key, w)| key == THREADS && w.map(|w| index(&w)) == writer.map(Some))
        };
        let mut next = (0..n).filter(|&c| observes(c));
        let (Some(c), None) = (next.next(), next.next()) else {
            break;
        };
        if first[k] < first[k + 1] && !g.add(c, first[k]) {
            return None;
        }
        writer = Some(c);
    }
    // Reads: (reader, object, observed writer).
    let mut reads: Vec<(usize, SyncKey, Option<usize>)> = Vec::new();
    for (r, e) in evs.iter().enumerate() {
        for (key, w) in &e.sync_reads {
            match w {
                None if key.0 == DONE => return None,
                None => reads.push((r, *key, None)),
                Some(w) => match index(w) {
                    Some(w) if w == r => {}
                    Some(w) => reads.push((r, *key, Some(w))),
                    // The observed write is not in the instance: no witness.
                    None => return None,
                },
            }
        }
    }
    let writes = |key: &SyncKey| -> Vec<usize> {
        (0..n)
            .filter(|&w| evs[w].sync_writes.contains(key))
            .collect()
    };
    let writers: Vec<Vec<usize>> = reads.iter().map(|(_, k, _)| writes(k)).collect();
    let probe = match (probe, cand) {
        (Some(mem), Some((c, _))) => {
            let at = index(&(c, inst.get(c).map_or(0, |v| v.len()) as u32))
                .expect("the candidate is an event");
            let mem = match mem {
                None => None,
                Some((cell, None)) => Some((cell, None)),
                Some((cell, Some(s))) => match index(&s) {
                    Some(s) => Some((cell, Some(s))),
                    // A source outside the instance: nothing to observe.
                    None => return None,
                },
            };
            Some(Probe { at, mem })
        }
        _ => None,
    };
    let mreads = memory_reads(&evs, init, probe);
    for &(r, _, w) in &reads {
        if let Some(w) = w {
            if !g.add(w, r) {
                return None;
            }
        }
    }
    loop {
        let mut changed = false;
        for (&(r, _, w), ws) in reads.iter().zip(&writers) {
            for &o in ws.iter().filter(|&&o| o != r && Some(o) != w) {
                let edge = match w {
                    None => Some((r, o)),
                    Some(w) if g.before(o, r) => Some((o, w)),
                    Some(w) if g.before(w, o) => Some((r, o)),
                    Some(_) => None,
                };
                if let Some((a, b)) = edge {
                    if !g.before(a, b) {
                        if !g.add(a, b) {
                            return None;
                        }
                        changed = true;
                    }
                }
            }
        }
        for m in &mreads {
            for (a, b) in memory_edges(&g, m)? {
                if !g.before(a, b) {
                    if !g.add(a, b) {
                        return None;
                    }
                    changed = true;
                }
            }
        }
        if !changed {
            return Some(Closed { g, first });
        }
    }
}

/// The edges rules 2-4 give the memory read `m` under the order `g` (the module doc);
/// `None` when it has no visible good write (rule 1). The initial value is `None` among
/// the writes: before every event.
fn memory_edges(g: &Order, m: &MemRead) -> Option<Vec<(usize, usize)>> {
    let r = m.reader;
    let le = |a: Option<usize>, b: Option<usize>| match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => a == b || g.before(a, b),
    };
    // A write of the cell P-between s and r hides s.
    let hidden = |s: Option<usize>| {
        m.writes
            .iter()
            .any(|&x| Some(x) != s && le(s, Some(x)) && g.before(x, r))
    };
    let mut vis: Vec<Option<usize>> = m
        .good
        .iter()
        .copied()
        .filter(|&s| !g.before(r, s) && !hidden(Some(s)))
        .map(Some)
        .collect();
    if m.init && !hidden(None) {
        vis.push(None);
    }
    if vis.is_empty() {
        return None;
    }
    let mut edges = Vec::new();
    if let Some(Some(w)) = vis.iter().copied().find(|&w| vis.iter().all(|&s| le(w, s))) {
        edges.push((w, r));
    }
    let greatest = vis.iter().copied().find(|&w| vis.iter().all(|&s| le(s, w)));
    for &o in m.writes.iter().filter(|&&o| !vis.contains(&Some(o))) {
        if g.before(o, r) {
            match greatest {
                Some(Some(top)) => edges.push((o, top)),
                // The initial value is the last before r, yet o precedes r.
                Some(None) => return None,
                None => {}
            }
        }
        if vis.iter().all(|&s| le(s, Some(o))) {
            edges.push((r, o));
        }
    }
    Some(edges)
}

/// A transitively closed strict order over `n` events: per event, the set of events after
/// it as a bit row (the closure runs for every candidate of every node, and adding an edge
/// is a word-wise union of rows instead of a walk over pairs).
struct Order {
    n: usize,
    /// Words per row.
    w: usize,
    rows: Vec<u64>,
}

impl Order {
    fn new(n: usize) -> Self {
        let w = n.div_ceil(64);
        Order {
            n,
            w,
            rows: vec![0; n * w],
        }
    }

    fn before(&self, a: usize, b: usize) -> bool {
        self.rows[a * self.w + b / 64] >> (b % 64) & 1 == 1
    }

    /// Adds a before b with every consequence; false when that makes a cycle.
    ///
    /// Every x before a or equal to it gets b and everything after b. Nothing more is
    /// needed for transitivity: a new pair (x, y) has x ≤ a and b ≤ y. No cycle can arise
    /// once b is not before a (nor equal): an x ≤ a equal to some y ≥ b would put b ≤ a.
    fn add(&mut self, a: usize, b: usize) -> bool {
        if a == b || self.before(b, a) {
            return false;
        }
        if self.before(a, b) {
            return true;
        }
        let w = self.w;
        let mut post = self.rows[b * w..(b + 1) * w].to_vec();
        post[b / 64] |= 1 << (b % 64);
        for x in 0..self.n {
            if x == a || self.before(x, a) {
                for (r, p) in self.rows[x * w..(x + 1) * w].iter_mut().zip(&post) {
                    *r |= p;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::Order;

    /// The bit-row order against a plain reachability matrix closed after every edge, over
    /// 70 events (two words per row), with edges from a fixed pseudo-random sequence: the
    /// same pairs ordered, and the same edges refused as cycles.
    #[test]
    fn order_matches_plain_transitive_closure() {
        let n = 70;
        let mut g = Order::new(n);
        let mut plain = vec![vec![false; n]; n];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut refused = 0;
        for _ in 0..400 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (a, b) = (
                (seed % n as u64) as usize,
                ((seed >> 32) % n as u64) as usize,
            );
            let cycle = a == b || plain[b][a];
            assert_eq!(g.add(a, b), !cycle, "edge {a} -> {b}");
            if cycle {
                refused += 1;
                continue;
            }
            plain[a][b] = true;
            for k in 0..n {
                let after_k = plain[k].clone();
                for row in plain.iter_mut().filter(|row| row[k]) {
                    for (p, &q) in row.iter_mut().zip(&after_k) {
                        *p |= q;
                    }
                }
            }
            for (i, row) in plain.iter().enumerate() {
                for (j, &p) in row.iter().enumerate() {
                    assert_eq!(g.before(i, j), p, "{i} before {j}");
                }
            }
        }
        assert!(refused > 0, "the sequence tries some cycles");
    }
}
