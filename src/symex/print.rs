//! The equation as text (`yogar show-equation`): per thread, its shared-memory events in
//! program order (read or write, location, guard, value width or constant, source line), its
//! create and join points, the search orders of symmetry breaking, then the checks with the literal that is true iff each fails.
//!
//! Literals are printed as the solver's DIMACS numbers (`l17`, `-l17`), `true`/`false` for the
//! constant, so a reader can follow a guard from event to event and into `yogar verify --stats`
//! formulas; the circuits that define them are clauses, not printed.

use std::fmt;

use cranelift_entity::EntityRef;

use encoder::{AccessKind, BitVec, ThreadItem};
use solver_glue::Lit;

use super::{CheckKind, SymexOutput};
use crate::ir::Program;

/// Prints a [`SymexOutput`] of `prog`.
pub struct EquationPrinter<'a> {
    pub prog: &'a Program,
    pub out: &'a SymexOutput,
}

impl EquationPrinter<'_> {
    fn lit(&self, l: Lit) -> String {
        let t = self.out.equation.true_lit;
        if l == t {
            "true".into()
        } else if l == !t {
            "false".into()
        } else if l.is_positive() {
            format!("l{}", l.var().to_dimacs())
        } else {
            format!("-l{}", l.var().to_dimacs())
        }
    }

    fn value(&self, v: &BitVec) -> String {
        match v.const_value(self.out.equation.true_lit) {
            Some(n) => format!("{n} ({} bits)", v.width()),
            None => format!("symbolic ({} bits)", v.width()),
        }
    }

    fn thread_name(&self, t: encoder::Thread) -> String {
        match self.out.threads.iter().find(|i| i.thread == t) {
            Some(info) => format!("{t} ({})", self.prog.funcs[info.entry].name),
            None if t == self.out.equation.init_thread() => format!("{t} (initial values)"),
            None => t.to_string(),
        }
    }
}

impl fmt::Display for EquationPrinter<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let eq = &self.out.equation;
        writeln!(
            f,
            "equation: {} threads, {} events, {} locations, {} checks",
            eq.threads.len(),
            eq.events.len(),
            eq.locations.len(),
            self.out.checks.len()
        )?;
        for (t, data) in eq.threads.iter() {
            let created = self.out.threads.iter().find(|i| i.thread == t);
            match created {
                Some(info) => writeln!(
                    f,
                    "{} created at {} under {}",
                    self.thread_name(t),
                    self.prog.loc_str(info.loc),
                    self.lit(info.guard)
                )?,
                None => writeln!(f, "{}", self.thread_name(t))?,
            }
            for item in &data.items {
                match *item {
                    ThreadItem::Event(e) => {
                        let ev = &eq.events[e];
                        let kind = match ev.kind {
                            AccessKind::Read => "R",
                            AccessKind::Write => "W",
                        };
                        let at = self
                            .out
                            .event_info
                            .get(e)
                            .map_or(String::new(), |i| self.prog.loc_str(i.loc));
                        let atomic = ev.atomic.map_or(String::new(), |b| format!(" [{b}]"));
                        let line = format!(
                            "  {:<6} {kind} {:<20} guard {:<8} value {}{atomic}  {at}",
                            e.to_string(),
                            eq.locations[ev.location].name,
                            self.lit(ev.guard),
                            self.value(&ev.value),
                        );
                        writeln!(f, "{}", line.trim_end())?;
                    }
                    ThreadItem::Create(k) => {
                        let c = &eq.creates[k];
                        writeln!(
                            f,
                            "  create {} under {}",
                            self.thread_name(c.child),
                            self.lit(c.guard)
                        )?;
                    }
                    ThreadItem::Join(k) => {
                        let j = &eq.joins[k];
                        writeln!(
                            f,
                            "  join {} under {}",
                            self.thread_name(j.child),
                            self.lit(j.guard)
                        )?;
                    }
                }
            }
        }
        if !eq.search_orders.is_empty() {
            writeln!(f, "search orders (symmetry breaking):")?;
            for o in &eq.search_orders {
                writeln!(
                    f,
                    "  e{} of {} before e{} of {} under {}",
                    o.before.index(),
                    self.thread_name(eq.events[o.before].thread),
                    o.after.index(),
                    self.thread_name(eq.events[o.after].thread),
                    self.lit(o.guard)
                )?;
            }
        }
        writeln!(f, "checks (each fails iff its literal is true):")?;
        for c in &self.out.checks {
            let what = match &c.kind {
                CheckKind::Property(p) => format!("{:?}", self.prog.props[*p].kind).to_lowercase(),
                CheckKind::Unwind { func, lp } => {
                    format!("unwinding of loop {}", self.prog.loop_name(*func, *lp))
                }
                CheckKind::Recursion(func) => {
                    format!("recursion of {}", self.prog.funcs[*func].name)
                }
                CheckKind::Unsupported(what) => format!("unsupported: {what}"),
                CheckKind::Overflow => "signed overflow".into(),
                CheckKind::Memory(v) => format!("invalid memory use ({})", v.name()),
                CheckKind::InvalidRead => format!("{} (value arbitrary)", super::INVALID_READ),
                CheckKind::Approximate(a) => format!("{} (values arbitrary)", a.describe()),
            };
            writeln!(
                f,
                "  {what} in {} at {}: {}",
                self.thread_name(c.thread),
                self.prog.loc_str(c.loc),
                self.lit(c.lit)
            )?;
        }
        Ok(())
    }
}
