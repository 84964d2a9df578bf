//! Equivalence classes of complete runs, for counting what an explorer covered: the
//! Mazurkiewicz trace (the order of every pair of conflicting events), the reads-from map,
//! and the reads-value-from class (every event's values, and the causal order — program
//! order and reads-from, transitively — among the events that read).

use std::collections::{BTreeMap, BTreeSet};

use super::sched::Step;

/// An event's identity: thread and position in the thread.
type Id = (usize, u32);

fn ids(run: &[Step]) -> Vec<Id> {
    let mut count: BTreeMap<usize, u32> = BTreeMap::new();
    run.iter()
        .map(|s| {
            let c = count.entry(s.thread).or_insert(0);
            *c += 1;
            (s.thread, *c)
        })
        .collect()
}

/// For every read of the run: the event it reads from (None: the initial value).
fn reads_from(run: &[Step]) -> Vec<(Id, usize, Option<Id>)> {
    let id = ids(run);
    let mut out = Vec::new();
    for (i, s) in run.iter().enumerate() {
        for (k, a) in s.accesses.iter().enumerate().filter(|(_, a)| !a.write) {
            let src = (0..i)
                .rev()
                .find(|&j| {
                    run[j]
                        .accesses
                        .iter()
                        .any(|w| w.write && w.target.overlaps(&a.target))
                })
                .map(|j| id[j]);
            out.push((id[i], k, src));
        }
    }
    out
}

/// The Mazurkiewicz trace of a run.
pub fn mazurkiewicz(run: &[Step]) -> Vec<(Id, Id)> {
    let id = ids(run);
    let mut out = Vec::new();
    for i in 0..run.len() {
        for j in i + 1..run.len() {
            if run[i].thread != run[j].thread && run[i].conflicts(&run[j]) {
                out.push((id[i], id[j]));
            }
        }
    }
    out.sort();
    out
}

/// The reads-from class of a run.
pub fn reads_from_class(run: &[Step]) -> Vec<(Id, usize, Option<Id>)> {
    let mut r = reads_from(run);
    r.sort();
    r
}

/// An RVF class: every event's (write?, value) list, and the causal order among reads.
pub type RvfClass = (Vec<(Id, Vec<(bool, u64)>)>, Vec<(Id, Id)>);

/// The reads-value-from class of a run.
pub fn rvf_class(run: &[Step]) -> RvfClass {
    let id = ids(run);
    let mut values: Vec<(Id, Vec<(bool, u64)>)> = run
        .iter()
        .zip(&id)
        .map(|(s, i)| (*i, s.accesses.iter().map(|a| (a.write, a.value)).collect()))
        .collect();
    values.sort();
    let index: BTreeMap<Id, usize> = id.iter().enumerate().map(|(k, i)| (*i, k)).collect();
    let rf = reads_from(run);
    // Causal predecessors, in run order (a read's source comes before it).
    let mut causal: Vec<BTreeSet<usize>> = Vec::with_capacity(run.len());
    for (i, s) in run.iter().enumerate() {
        let mut set = BTreeSet::new();
        if let Some(j) = (0..i).rev().find(|&j| run[j].thread == s.thread) {
            set.extend(causal[j].iter().copied());
            set.insert(j);
        }
        if let Some(j) = (0..i).find(|&j| run[j].created.contains(&s.thread)) {
            set.extend(causal[j].iter().copied());
            set.insert(j);
        }
        for (r, _, src) in &rf {
            if *r == id[i] {
                if let Some(w) = src {
                    let j = index[w];
                    set.extend(causal[j].iter().copied());
                    set.insert(j);
                }
            }
        }
        causal.push(set);
    }
    let is_read = |i: usize| run[i].accesses.iter().any(|a| !a.write);
    let mut order = Vec::new();
    for i in (0..run.len()).filter(|&i| is_read(i)) {
        for &j in causal[i].iter().filter(|&&j| is_read(j)) {
            order.push((id[j], id[i]));
        }
    }
    order.sort();
    (values, order)
}

/// How many distinct classes of each kind `runs` cover: (Mazurkiewicz, reads-from, RVF).
pub fn count(runs: &[Vec<Step>]) -> (usize, usize, usize) {
    let maz: BTreeSet<_> = runs.iter().map(|r| mazurkiewicz(r)).collect();
    let rf: BTreeSet<_> = runs.iter().map(|r| reads_from_class(r)).collect();
    let rvf: BTreeSet<_> = runs.iter().map(|r| rvf_class(r)).collect();
    (maz.len(), rf.len(), rvf.len())
}
