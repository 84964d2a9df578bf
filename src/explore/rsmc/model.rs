//! The axiomatic memory models as predicates over the trace of a state (its committed
//! accesses with program order, read-from and coherence): POWER as in Alglave, Maranget and
//! Tautschnig, "Herding cats" (TOPLAS 2014), and sequential consistency.
//!
//! POWER: SC per location `acyclic(po-loc ∪ com)`; no thin air `acyclic(hb)` with
//! `hb = ppo ∪ fences ∪ rfe`; observation `irreflexive(fre; prop; hb*)`; propagation
//! `acyclic(co ∪ prop)`; `ppo` from the `ii/ic/ci/cc` fixpoint (`ii0 = addr ∪ data ∪ rdw ∪
//! rfi`, `ci0 = ctrl+isync ∪ detour`, `cc0 = addr ∪ data ∪ po-loc ∪ ctrl ∪ addr;po`),
//! `ffence = sync`, `lwfence = lwsync \ W×R`, `prop-base = (fences ∪ rfe;fences); hb*`,
//! `prop = (prop-base ∩ W×W) ∪ (com*; prop-base*; ffence; hb*)`.
//! SC: `acyclic(po ∪ com)`.
//!
//! Nodes: one initial store per location, then the committed accesses in commit order.

use super::rel::{Rel, MAX_NODES};
use super::state::{EventId, Src, State};

/// The memory models the explorer knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemoryModel {
    Sc,
    Power,
}

impl MemoryModel {
    /// The explorer's model for a `--mm` choice, if it knows that model.
    pub fn of(m: crate::engine::MemoryModel) -> Option<MemoryModel> {
        match m {
            crate::engine::MemoryModel::Sc => Some(MemoryModel::Sc),
            crate::engine::MemoryModel::Power => Some(MemoryModel::Power),
            crate::engine::MemoryModel::Tso | crate::engine::MemoryModel::Pso => None,
        }
    }
}

/// The trace of a state as relations.
struct Graph {
    n: usize,
    writes: u128,
    reads: u128,
    po: Rel,
    po_loc: Rel,
    rf: Rel,
    co: Rel,
    /// Pairs of nodes of different threads (the initial stores belong to none).
    ext: Rel,
}

/// Per thread and event index, the node of a committed access.
type Nodes = Vec<Vec<Option<usize>>>;

/// Too many events for the bit matrices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooBig;

fn build(s: &State) -> Result<(Graph, Nodes), TooBig> {
    let nl = s.prog.locs.len();
    let n = nl + s.committed.len();
    if n > MAX_NODES {
        return Err(TooBig);
    }
    let mut node: Nodes = s
        .threads
        .iter()
        .map(|t| vec![None; t.events.len()])
        .collect();
    let mut thread = vec![usize::MAX; n];
    let mut loc = vec![0usize; n];
    let mut index = vec![0u32; n];
    let mut writes: u128 = (1u128 << nl) - 1;
    let mut reads: u128 = 0;
    for (k, l) in loc.iter_mut().enumerate().take(nl) {
        *l = k;
    }
    for (i, e) in s.committed.iter().enumerate() {
        let v = nl + i;
        node[e.thread as usize][e.index as usize] = Some(v);
        thread[v] = e.thread as usize;
        index[v] = e.index;
        let ev = s.ev(*e);
        loc[v] = ev.loc.expect("committed accesses are located");
        if ev.rf.is_some() {
            reads |= 1 << v;
        } else {
            writes |= 1 << v;
        }
    }
    let mut g = Graph {
        n,
        writes,
        reads,
        po: Rel::empty(n),
        po_loc: Rel::empty(n),
        rf: Rel::empty(n),
        co: Rel::empty(n),
        ext: Rel::empty(n),
    };
    for a in 0..n {
        for b in 0..n {
            if thread[a] != thread[b] || thread[a] == usize::MAX {
                g.ext.add(a, b);
            } else if index[a] < index[b] {
                g.po.add(a, b);
                if loc[a] == loc[b] {
                    g.po_loc.add(a, b);
                }
            }
        }
    }
    let nodeof = |e: EventId| node[e.thread as usize][e.index as usize].expect("committed");
    for (i, e) in s.committed.iter().enumerate() {
        if let Some(src) = s.ev(*e).rf {
            let w = match src {
                Src::Init(l) => l,
                Src::Store(w) => nodeof(w),
            };
            g.rf.add(w, nl + i);
        }
    }
    for (l, order) in s.co.iter().enumerate() {
        let chain: Vec<usize> = std::iter::once(l)
            .chain(order.iter().map(|w| nodeof(*w)))
            .collect();
        for (i, a) in chain.iter().enumerate() {
            for b in &chain[i + 1..] {
                g.co.add(*a, *b);
            }
        }
    }
    Ok((g, node))
}

/// Whether the trace of `s` satisfies the model.
pub fn consistent(s: &State, model: MemoryModel) -> Result<bool, TooBig> {
    let (g, node) = build(s)?;
    let fr = g.rf.inverse().seq(&g.co);
    let com = g.rf.union(&g.co).union(&fr);
    match model {
        MemoryModel::Sc => Ok(g.po.union(&com).acyclic()),
        MemoryModel::Power => {
            if !g.po_loc.union(&com).acyclic() {
                return Ok(false);
            }
            Ok(power(s, &g, &node, &fr, &com))
        }
    }
}

fn power(s: &State, g: &Graph, node: &[Vec<Option<usize>>], fr: &Rel, com: &Rel) -> bool {
    let n = g.n;
    let mem = g.reads | g.writes;
    let (mut addr, mut data, mut ctrl, mut ctrl_isync, mut addr_po) = (
        Rel::empty(n),
        Rel::empty(n),
        Rel::empty(n),
        Rel::empty(n),
        Rel::empty(n),
    );
    let (mut sync, mut lwsync) = (Rel::empty(n), Rel::empty(n));
    for (t, th) in s.threads.iter().enumerate() {
        let nodes = &node[t];
        for (i, ev) in th.events.iter().enumerate() {
            let Some(b) = nodes[i] else { continue };
            let link = |r: &mut Rel, loads: &[u32]| {
                for l in loads {
                    if let Some(a) = nodes[*l as usize] {
                        r.add(a, b);
                    }
                }
            };
            link(&mut addr, &ev.deps.addr_loads);
            link(&mut data, &ev.deps.data_loads);
            link(&mut ctrl, &ev.deps.ctrl);
            link(&mut ctrl_isync, &ev.deps.ctrl_isync);
            link(&mut addr_po, &ev.deps.addr_po);
            for (j, p) in th.events[..i].iter().enumerate() {
                let Some(a) = nodes[j] else { continue };
                if p.syncs < ev.syncs {
                    sync.add(a, b);
                }
                if p.lwsyncs < ev.lwsyncs {
                    lwsync.add(a, b);
                }
            }
        }
    }
    let int = {
        let mut r = Rel::empty(n);
        for a in 0..n {
            r.rows[a] = !g.ext.rows[a] & mem;
        }
        r
    };
    let rfe = g.rf.inter(&g.ext);
    let rfi = g.rf.inter(&int);
    let fre = fr.inter(&g.ext);
    let coe = g.co.inter(&g.ext);
    let rdw = g.po_loc.inter(&fre.seq(&rfe));
    let detour = g.po_loc.inter(&coe.seq(&rfe));
    let dd = addr.union(&data);
    let ii0 = dd.union(&rdw).union(&rfi);
    let ci0 = ctrl_isync.union(&detour);
    let cc0 = dd.union(&g.po_loc).union(&ctrl).union(&addr_po);
    let mut ii = ii0.clone();
    let mut ic = Rel::empty(n);
    let mut ci = ci0.clone();
    let mut cc = cc0.clone();
    loop {
        let ii2 = ii0.union(&ci).union(&ic.seq(&ci)).union(&ii.seq(&ii));
        let ic2 = ii.union(&cc).union(&ic.seq(&cc)).union(&ii.seq(&ic));
        let ci2 = ci0.union(&ci.seq(&ii)).union(&cc.seq(&ci));
        let cc2 = cc0.union(&ci).union(&ci.seq(&ic)).union(&cc.seq(&cc));
        if ii2 == ii && ic2 == ic && ci2 == ci && cc2 == cc {
            break;
        }
        (ii, ic, ci, cc) = (ii2, ic2, ci2, cc2);
    }
    let ppo = ii
        .restrict(g.reads, g.reads)
        .union(&ic.restrict(g.reads, g.writes));
    let ffence = sync;
    let lwfence = lwsync.minus(&lwsync.restrict(g.writes, g.reads));
    let fences = ffence.union(&lwfence);
    let hb = ppo.union(&fences).union(&rfe);
    let hb_plus = hb.plus();
    if !hb_plus.irreflexive() {
        return false;
    }
    let mut hb_star = hb_plus;
    for i in 0..n {
        hb_star.add(i, i);
    }
    let prop_base = fences.union(&rfe.seq(&fences)).seq(&hb_star);
    let prop = prop_base
        .restrict(g.writes, g.writes)
        .union(&com.star().seq(&prop_base.star()).seq(&ffence).seq(&hb_star));
    if !g.co.union(&prop).acyclic() {
        return false;
    }
    fre.seq(&prop).seq(&hb_star).irreflexive()
}
