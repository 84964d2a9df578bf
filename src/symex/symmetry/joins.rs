//! When joins keep twins interchangeable (`symmetry`, section "Joined twins" of its doc): the
//! joins naming a group must form one block of its creator that waits for every member.

use std::collections::HashSet;

use encoder::ThreadItem;

use super::super::exec::Symex;

impl Symex<'_, '_, '_> {
    /// Whether the joins that name members of `group` (thread instances created by `creator`)
    /// leave them interchangeable: true when none does, or when they are one join block of the
    /// creator as the module doc requires.
    pub(super) fn joins_keep_twins(&self, creator: usize, group: &[usize]) -> bool {
        let members: HashSet<encoder::Thread> =
            group.iter().map(|&i| self.threads[i].info.thread).collect();
        let naming: Vec<usize> = (0..self.eq.joins.len())
            .filter(|&j| members.contains(&self.eq.joins[j].child))
            .collect();
        if naming.is_empty() {
            return true;
        }
        let p = self.threads[creator].info.thread;
        // Only the creator joins them, and nothing waits for the creator's end.
        if naming.iter().any(|&j| self.eq.joins[j].joiner != p)
            || self.eq.joins.iter().any(|j| j.child == p)
        {
            return false;
        }
        let calls: Vec<_> = self
            .join_calls
            .iter()
            .filter(|c| c.thread == creator)
            .collect();
        let names = |c: &&super::super::exec::JoinCall| naming.iter().any(|j| c.joins.contains(j));
        let (Some(a), Some(b)) = (calls.iter().position(names), calls.iter().rposition(names))
        else {
            return false;
        };
        let block = &calls[a..=b];
        // Each call waits for one thread (a constant handle), stores no return value and adds
        // no check; consecutive calls follow each other on one path (the guard after one is
        // the guard before the next) with no check between them.
        let calls_ok = block.iter().all(|c| {
            c.single
                && !c.reads_ret
                && c.checks.is_empty()
                && c.joins.len() == 1
                && self.eq.joins[c.joins.start].atomic.is_none()
        }) && block
            .windows(2)
            .all(|w| w[1].guard_in == w[0].guard_out && w[1].checks.start == w[0].checks.end);
        if !calls_ok {
            return false;
        }
        // Every member is waited for.
        let waited: HashSet<encoder::Thread> = block
            .iter()
            .map(|c| self.eq.joins[c.joins.start].child)
            .collect();
        if !members.is_subset(&waited) {
            return false;
        }
        // Nothing but these join points lies between the first and the last in the
        // creator's program order.
        let items = &self.eq.threads[p].items;
        let at = |j: usize| items.iter().position(|it| *it == ThreadItem::Join(j));
        let (Some(lo), Some(hi)) = (
            at(block[0].joins.start),
            at(block[block.len() - 1].joins.start),
        ) else {
            return false;
        };
        lo <= hi
            && items[lo..=hi]
                .iter()
                .all(|it| matches!(it, ThreadItem::Join(_)))
    }
}
