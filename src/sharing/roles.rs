//! Thread roles: `main`, and every function that runs as a thread. A role stands for all the
//! thread instances with that entry; what matters for sharing is the code each role may run
//! and whether the role may have more than one instance.
//!
//! A role's code is every function its entry (and the thread-local initialiser, which every
//! thread runs) reaches through calls, direct or through a pointer. Instances are counted
//! abstractly as one or many: a `pthread_create` runs many times per instance of its role when
//! it lies in a loop or in a function that role may call more than once (from a loop, from two
//! call sites, recursively); a role has many instances when its creations add up to more
//! than one. Both counts over-approximate what any bounded execution does.

use std::collections::{BTreeMap, BTreeSet};

use crate::ir::{Body, FuncId, InstrId, InstrKind, Program};

use super::points_to::PointsTo;

/// One, or more than one (saturating counts).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Count(u8);

impl Count {
    pub const ZERO: Count = Count(0);
    pub const ONE: Count = Count(1);
    pub const MANY: Count = Count(2);

    fn add(self, other: Count) -> Count {
        Count((self.0 + other.0).min(2))
    }
    fn mul(self, other: Count) -> Count {
        Count((self.0 * other.0).min(2))
    }
    pub fn is_many(self) -> bool {
        self.0 >= 2
    }
}

/// One role.
#[derive(Clone, Debug)]
pub struct Role {
    pub entry: FuncId,
    /// Functions its instances may run.
    pub code: BTreeSet<FuncId>,
    /// How many instances it may have.
    pub instances: Count,
}

/// The roles of a program; role 0 is `main`'s.
#[derive(Clone, Debug, Default)]
pub struct Roles {
    pub roles: Vec<Role>,
    by_entry: BTreeMap<FuncId, usize>,
}

/// Whether instruction `i` lies in a loop of `body` (between a loop's head and its back edge;
/// every instruction that can run twice per call does).
fn in_loop(body: &Body, i: InstrId) -> bool {
    body.loops.values().any(|l| l.head <= i && i <= l.back_edge)
}

fn repeat(body: &Body, i: InstrId) -> Count {
    if in_loop(body, i) {
        Count::MANY
    } else {
        Count::ONE
    }
}

impl Roles {
    pub fn compute(prog: &Program, pt: &PointsTo) -> Roles {
        let Some(main) = prog.main else {
            return Roles::default();
        };
        // Call sites and creation sites of every reachable function, with their targets.
        let mut calls: BTreeMap<FuncId, Vec<(FuncId, Count)>> = BTreeMap::new();
        let mut creates: BTreeMap<FuncId, Vec<(FuncId, Count)>> = BTreeMap::new();
        for &f in &pt.reachable {
            let Some(body) = &prog.funcs[f].body else {
                continue;
            };
            for (i, ins) in body.instrs.iter() {
                let (list, callee) = match &ins.kind {
                    InstrKind::Call { callee, .. } => (&mut calls, callee),
                    InstrKind::ThreadCreate { entry, .. } => (&mut creates, entry),
                    _ => continue,
                };
                for g in pt.callees(prog, callee) {
                    if prog.funcs[g].body.is_some() {
                        list.entry(f).or_default().push((g, repeat(body, i)));
                    }
                }
            }
        }
        let mut entries: Vec<FuncId> = vec![main];
        entries.extend(pt.thread_entries.iter().copied().filter(|&g| g != main));
        entries.retain(|&g| prog.funcs[g].body.is_some());
        let mut roles = Roles::default();
        // Invocations of each function per instance of each role.
        let mut invocations: Vec<BTreeMap<FuncId, Count>> = Vec::new();
        for &entry in &entries {
            let inv = invocations_from(&[entry, prog.tls_init], &calls);
            roles.by_entry.insert(entry, roles.roles.len());
            roles.roles.push(Role {
                entry,
                code: inv.keys().copied().collect(),
                instances: Count::ZERO,
            });
            invocations.push(inv);
        }
        // Instances: main once, every other role as often as the roles' code creates it.
        loop {
            let mut next: Vec<Count> = vec![Count::ZERO; roles.roles.len()];
            next[0] = Count::ONE;
            for (r, role) in roles.roles.iter().enumerate() {
                for (&f, &inv) in &invocations[r] {
                    for &(g, rep) in creates.get(&f).into_iter().flatten() {
                        if let Some(&k) = roles.by_entry.get(&g) {
                            next[k] = next[k].add(role.instances.mul(inv).mul(rep));
                        }
                    }
                }
            }
            let changed = roles
                .roles
                .iter()
                .zip(&next)
                .any(|(role, n)| role.instances != *n);
            for (role, n) in roles.roles.iter_mut().zip(next) {
                role.instances = n;
            }
            if !changed {
                return roles;
            }
        }
    }

    /// The role of the threads with entry `f`.
    pub fn of_entry(&self, f: FuncId) -> Option<usize> {
        self.by_entry.get(&f).copied()
    }
}

/// How often each function runs per run of `roots` (each root once), through `calls`.
fn invocations_from(
    roots: &[FuncId],
    calls: &BTreeMap<FuncId, Vec<(FuncId, Count)>>,
) -> BTreeMap<FuncId, Count> {
    // The functions reached, then counts to their fixed point (counts only grow and saturate).
    let mut reached: BTreeSet<FuncId> = BTreeSet::new();
    let mut work: Vec<FuncId> = roots.to_vec();
    while let Some(f) = work.pop() {
        if reached.insert(f) {
            work.extend(calls.get(&f).into_iter().flatten().map(|&(g, _)| g));
        }
    }
    let mut inv: BTreeMap<FuncId, Count> = reached.iter().map(|&f| (f, Count::ZERO)).collect();
    loop {
        let mut next: BTreeMap<FuncId, Count> = reached
            .iter()
            .map(|&f| {
                let own = roots.iter().filter(|&&r| r == f).count() as u8;
                (f, Count(own.min(2)))
            })
            .collect();
        for &f in &reached {
            for &(g, rep) in calls.get(&f).into_iter().flatten() {
                let add = inv[&f].mul(rep);
                let slot = next.get_mut(&g).expect("callee reached");
                *slot = slot.add(add);
            }
        }
        if next == inv {
            return inv;
        }
        inv = next;
    }
}
