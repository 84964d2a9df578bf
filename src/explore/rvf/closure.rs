//! The closure of an instance (Section 4.2 of the RVF paper): a cheap filter that rejects
//! instances with no witness before VerifySC searches them.
//!
//! The closure is the weakest partial order P over the instance's events that contains
//! program order, the observation edges (a synchronisation read after the write it
//! observes) and the coherence edges those force. For a read r of object k that observes
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
//! that observes no writer has no witness either.
//!
//! Memory reads are identified by value, not by source, and are left to VerifySC: the
//! filter is weaker than the paper's there, never unsound.

use super::event::{Ev, EvId, SyncKey};

/// The kind of the done object of a thread in a `SyncKey`.
const DONE: u8 = 2;

/// False when the instance `inst`, with the event `cand` appended to its thread when given,
/// has no witness by the closure; true says nothing.
pub fn consistent(inst: &[Vec<Ev>], cand: Option<(usize, &Ev)>) -> bool {
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
                return false;
            }
        }
    }
    // Reads: (reader, object, observed writer).
    let mut reads: Vec<(usize, SyncKey, Option<usize>)> = Vec::new();
    for (r, e) in evs.iter().enumerate() {
        for (key, w) in &e.sync_reads {
            match w {
                None if key.0 == DONE => return false,
                None => reads.push((r, *key, None)),
                Some(w) => match index(w) {
                    Some(w) if w == r => {}
                    Some(w) => reads.push((r, *key, Some(w))),
                    // The observed write is not in the instance: no witness.
                    None => return false,
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
    for &(r, _, w) in &reads {
        if let Some(w) = w {
            if !g.add(w, r) {
                return false;
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
                            return false;
                        }
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return true;
        }
    }
}

/// A transitively closed strict order over `n` events.
struct Order {
    n: usize,
    reach: Vec<bool>,
}

impl Order {
    fn new(n: usize) -> Self {
        Order {
            n,
            reach: vec![false; n * n],
        }
    }

    fn before(&self, a: usize, b: usize) -> bool {
        self.reach[a * self.n + b]
    }

    /// Adds a before b with every consequence; false when that makes a cycle.
    fn add(&mut self, a: usize, b: usize) -> bool {
        if a == b || self.before(b, a) {
            return false;
        }
        if self.before(a, b) {
            return true;
        }
        let n = self.n;
        let pre: Vec<usize> = (0..n).filter(|&x| x == a || self.before(x, a)).collect();
        let post: Vec<usize> = (0..n).filter(|&y| y == b || self.before(b, y)).collect();
        for &x in &pre {
            for &y in &post {
                if x == y {
                    return false;
                }
                self.reach[x * n + y] = true;
            }
        }
        true
    }
}
