//! The herd format of PPC litmus tests: a header `PPC NAME`, an optional quoted comment, the
//! initial state in braces (`x=1; 0:r2=x;`), one column of PPC assembly per thread separated
//! by `|` and ended by `;`, then optional `locations [...]` and the final condition
//! (`exists`, `~exists` or `forall` over `T:reg=value`, `x=value`, `/\`, `\/`, `~`,
//! parentheses, `true`, `false`).
//!
//! Instructions: `li`, `mr`, `addi`, `add`, `sub(f)`, `xor(i)`, `and`, `andi.`, `or(i)`,
//! `mullw`, `lwz`, `lwzx`, `ld`, `ldx`, `stw`, `stwx`, `std`, `stdx`, `cmpw(i)`, `cmpd(i)`,
//! `b`, `beq`, `bne`, `blt`, `bgt`, `ble`, `bge`, `sync`, `lwsync`, `isync`, labels `L:`.
//! `cmp` sets a condition register field (`cr0` unless one is named) to the difference of its
//! operands, `andi.` sets `cr0` to its result; conditional branches test the sign of a field
//! (`cr0` unless one is named). In the base position of an access, `r0` is 0 (as on the
//! hardware).

use std::fmt;

use crate::explore::rsmc::program::{Expr, Fence, Instr, Op, Program, Reg, Thread};

/// A litmus test.
#[derive(Clone, Debug)]
pub struct Litmus {
    pub name: String,
    pub program: Program,
    pub quantifier: Quantifier,
    pub cond: Cond,
    /// What the final states show: the condition's registers and locations, then those of
    /// `locations`.
    pub observed: Vec<Atom>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Quantifier {
    Exists,
    NotExists,
    Forall,
}

/// A register of a thread, or a location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    Reg {
        thread: usize,
        reg: Reg,
        name: String,
    },
    Loc {
        loc: usize,
        name: String,
    },
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Atom::Reg { thread, name, .. } => write!(f, "{thread}:{name}"),
            Atom::Loc { name, .. } => write!(f, "{name}"),
        }
    }
}

/// A condition over the final state.
#[derive(Clone, Debug)]
pub enum Cond {
    True,
    False,
    Eq(Atom, i64),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

impl Cond {
    pub fn eval(&self, v: &impl Fn(&Atom) -> i64) -> bool {
        match self {
            Cond::True => true,
            Cond::False => false,
            Cond::Eq(a, x) => v(a) == *x,
            Cond::Not(c) => !c.eval(v),
            Cond::And(a, b) => a.eval(v) && b.eval(v),
            Cond::Or(a, b) => a.eval(v) || b.eval(v),
        }
    }

    fn atoms(&self, out: &mut Vec<Atom>) {
        match self {
            Cond::Eq(a, _) => {
                if !out.contains(a) {
                    out.push(a.clone())
                }
            }
            Cond::Not(c) => c.atoms(out),
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.atoms(out);
                b.atoms(out);
            }
            Cond::True | Cond::False => {}
        }
    }
}

/// A litmus file that cannot be read: line and message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

fn err<T>(line: usize, msg: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        msg: msg.into(),
    })
}

/// Removes `(* ... *)` comments, keeping line breaks.
fn strip_comments(s: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '(' && b.get(i + 1) == Some(&'*') {
            depth += 1;
            i += 2;
        } else if depth > 0 && b[i] == '*' && b.get(i + 1) == Some(&')') {
            depth -= 1;
            i += 2;
        } else {
            if depth == 0 || b[i] == '\n' {
                out.push(b[i]);
            }
            i += 1;
        }
    }
    out
}

/// Parses a litmus test.
pub fn parse(text: &str) -> Result<Litmus, ParseError> {
    let text = strip_comments(text);
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() && lines[i].trim().is_empty() {
        i += 1;
    }
    let Some(header) = lines.get(i) else {
        return err(1, "empty file");
    };
    let mut words = header.split_whitespace();
    let arch = words.next().unwrap_or("");
    if !arch.eq_ignore_ascii_case("PPC") {
        return err(
            i + 1,
            format!("architecture '{arch}' (only PPC is supported)"),
        );
    }
    let name = words.collect::<Vec<_>>().join(" ");
    i += 1;
    // Everything up to the closing brace of the initial state.
    let rest: String = lines[i..].join("\n");
    let Some(open) = rest.find('{') else {
        return err(i + 1, "no initial state '{ ... }'");
    };
    let Some(close) = rest[open..].find('}').map(|c| c + open) else {
        return err(i + 1, "unclosed initial state");
    };
    let init_line = i + 1 + rest[..open].matches('\n').count();
    let init_text = &rest[open + 1..close];
    let body_line = i + 1 + rest[..close].matches('\n').count();
    let body: Vec<&str> = rest[close + 1..].lines().collect();

    let mut program = Program::default();
    let mut code_rows: Vec<(usize, &str)> = Vec::new();
    let mut tail = String::new();
    let mut header_row: Option<(usize, &str)> = None;
    for (k, l) in body.iter().enumerate() {
        let ln = body_line + k;
        let t = l.trim();
        if !tail.is_empty() {
            tail.push(' ');
            tail.push_str(t);
            continue;
        }
        if t.is_empty() {
            continue;
        }
        let lower = t.to_ascii_lowercase();
        if lower.starts_with("exists")
            || lower.starts_with("~exists")
            || lower.starts_with("forall")
            || lower.starts_with("locations")
            || lower.starts_with("filter")
        {
            tail.push_str(t);
            continue;
        }
        if header_row.is_none() {
            header_row = Some((ln, t));
        } else {
            code_rows.push((ln, t));
        }
    }
    let Some((hl, hrow)) = header_row else {
        return err(body_line, "no thread columns");
    };
    let names: Vec<String> = hrow
        .trim_end_matches(';')
        .split('|')
        .map(|s| s.trim().to_string())
        .collect();
    for (k, n) in names.iter().enumerate() {
        if n != &format!("P{k}") {
            return err(hl, format!("thread column '{n}' (expected P{k})"));
        }
        program.threads.push(Thread {
            name: n.clone(),
            ..Thread::default()
        });
    }
    let mut columns: Vec<Vec<(usize, String)>> = vec![Vec::new(); names.len()];
    for (ln, row) in &code_rows {
        let row = row.trim_end().trim_end_matches(';');
        let cells: Vec<&str> = row.split('|').collect();
        if cells.len() > names.len() {
            return err(*ln, "more columns than threads");
        }
        for (k, c) in cells.iter().enumerate() {
            let c = c.trim();
            if !c.is_empty() {
                columns[k].push((*ln, c.to_string()));
            }
        }
    }
    // Locations named in the initial state come first.
    parse_init(init_text, init_line, &mut program)?;
    for (k, col) in columns.iter().enumerate() {
        assemble(&mut program, k, col)?;
    }
    parse_tail(&tail, body_line, name, program)
}

fn parse_value(program: &mut Program, v: &str, line: usize) -> Result<i64, ParseError> {
    let v = v.trim();
    if let Ok(n) = v.parse::<i64>() {
        return Ok(n);
    }
    if let Some(h) = v.strip_prefix("0x") {
        if let Ok(n) = i64::from_str_radix(h, 16) {
            return Ok(n);
        }
    }
    if v.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Ok(Program::address(program.loc(v)));
    }
    err(line, format!("value '{v}'"))
}

fn parse_init(text: &str, line: usize, program: &mut Program) -> Result<(), ParseError> {
    for item in text.split(';') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((lhs, rhs)) = item.split_once('=') else {
            return err(line, format!("initial state item '{item}'"));
        };
        // Drop a C type (`int x`, `uint64_t 0:r1`).
        let lhs = lhs.split_whitespace().last().unwrap_or("");
        let lhs = lhs.trim_start_matches('[').trim_end_matches(']');
        let value = parse_value(program, rhs, line)?;
        if let Some((t, r)) = lhs.split_once(':') {
            let t: usize = match t.parse() {
                Ok(t) if t < program.threads.len() => t,
                _ => return err(line, format!("thread '{t}' in the initial state")),
            };
            let r = program.threads[t].reg(r);
            program.threads[t].init.retain(|(q, _)| *q != r);
            program.threads[t].init.push((r, value));
        } else {
            let l = program.loc(lhs);
            program.init[l] = value;
        }
    }
    Ok(())
}

fn reg_of(th: &mut Thread, s: &str, line: usize) -> Result<Reg, ParseError> {
    let s = s.trim();
    if s.len() > 1 && s.starts_with('r') && s[1..].chars().all(|c| c.is_ascii_digit()) {
        Ok(th.reg(s))
    } else {
        err(line, format!("register '{s}'"))
    }
}

fn imm(s: &str, line: usize) -> Result<i64, ParseError> {
    let s = s.trim();
    s.parse()
        .or_else(|_| i64::from_str_radix(s.trim_start_matches("0x"), 16))
        .or_else(|_| err(line, format!("immediate '{s}'")))
}

/// The base register of an access: `r0` reads as 0.
fn base(th: &mut Thread, s: &str, line: usize) -> Result<Expr, ParseError> {
    if s.trim() == "r0" {
        return Ok(Expr::Const(0));
    }
    Ok(Expr::Reg(reg_of(th, s, line)?))
}

/// A condition register field `cr0`..`cr7`, kept as a register holding the compared
/// difference.
fn cr_field(th: &mut Thread, s: &str, line: usize) -> Result<Reg, ParseError> {
    let s = s.trim();
    match s.strip_prefix("cr").map(|n| n.parse::<u8>()) {
        Some(Ok(n)) if n < 8 => Ok(th.reg(s)),
        _ => err(line, format!("condition register '{s}'")),
    }
}

/// `d(rA)`.
fn displacement(th: &mut Thread, s: &str, line: usize) -> Result<Expr, ParseError> {
    let s = s.trim();
    let Some((d, r)) = s.split_once('(') else {
        return err(line, format!("address '{s}'"));
    };
    let d = if d.trim().is_empty() {
        0
    } else {
        imm(d, line)?
    };
    let b = base(th, r.trim_end_matches(')'), line)?;
    Ok(if d == 0 {
        b
    } else {
        Expr::bin(Op::Add, b, Expr::Const(d))
    })
}

fn assemble(program: &mut Program, t: usize, col: &[(usize, String)]) -> Result<(), ParseError> {
    let mut labels: Vec<(String, usize)> = Vec::new();
    let mut pending: Vec<(usize, String, usize)> = Vec::new();
    let th = &mut program.threads[t];
    let cr0 = th.reg("cr0");
    for (line, text) in col {
        let line = *line;
        let mut text = text.as_str();
        while let Some((lab, rest)) = text.split_once(':') {
            let lab = lab.trim();
            if lab.is_empty() || !lab.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            labels.push((lab.to_string(), th.instrs.len()));
            text = rest.trim();
        }
        if text.is_empty() {
            continue;
        }
        let (op, args) = match text.split_once(char::is_whitespace) {
            Some((o, a)) => (o, a.trim()),
            None => (text, ""),
        };
        let a: Vec<&str> = if args.is_empty() {
            Vec::new()
        } else {
            args.split(',').map(str::trim).collect()
        };
        let want = |n: usize| -> Result<(), ParseError> {
            if a.len() == n {
                Ok(())
            } else {
                err(line, format!("'{op}' takes {n} operands"))
            }
        };
        let op_l = op.to_ascii_lowercase();
        let arith = |o: &str| -> Option<Op> {
            Some(match o {
                "add" => Op::Add,
                "sub" => Op::Sub,
                "mullw" | "mulld" => Op::Mul,
                "xor" => Op::Xor,
                "and" => Op::And,
                "or" => Op::Or,
                _ => return None,
            })
        };
        let instr = match op_l.as_str() {
            "li" => {
                want(2)?;
                Instr::Assign {
                    dst: reg_of(th, a[0], line)?,
                    e: Expr::Const(imm(a[1], line)?),
                }
            }
            "mr" => {
                want(2)?;
                Instr::Assign {
                    dst: reg_of(th, a[0], line)?,
                    e: Expr::Reg(reg_of(th, a[1], line)?),
                }
            }
            "addi" => {
                want(3)?;
                Instr::Assign {
                    dst: reg_of(th, a[0], line)?,
                    e: Expr::bin(
                        Op::Add,
                        base(th, a[1], line)?,
                        Expr::Const(imm(a[2], line)?),
                    ),
                }
            }
            "xori" | "andi." | "ori" => {
                want(3)?;
                let o = match op_l.as_str() {
                    "xori" => Op::Xor,
                    "ori" => Op::Or,
                    _ => Op::And,
                };
                Instr::Assign {
                    dst: reg_of(th, a[0], line)?,
                    e: Expr::bin(
                        o,
                        Expr::Reg(reg_of(th, a[1], line)?),
                        Expr::Const(imm(a[2], line)?),
                    ),
                }
            }
            "subf" => {
                // subf rD,rA,rB = rB - rA
                want(3)?;
                Instr::Assign {
                    dst: reg_of(th, a[0], line)?,
                    e: Expr::bin(
                        Op::Sub,
                        Expr::Reg(reg_of(th, a[2], line)?),
                        Expr::Reg(reg_of(th, a[1], line)?),
                    ),
                }
            }
            o if arith(o).is_some() => {
                want(3)?;
                Instr::Assign {
                    dst: reg_of(th, a[0], line)?,
                    e: Expr::bin(
                        arith(o).expect("checked"),
                        Expr::Reg(reg_of(th, a[1], line)?),
                        Expr::Reg(reg_of(th, a[2], line)?),
                    ),
                }
            }
            "lwz" | "ld" | "lwzx" | "ldx" | "stw" | "std" | "stwx" | "stdx" => {
                // `d(rA)`, or `rA,rB` for the indexed forms.
                let indexed = op_l.ends_with('x');
                want(if indexed { 3 } else { 2 })?;
                let r = reg_of(th, a[0], line)?;
                let addr = if indexed {
                    Expr::bin(
                        Op::Add,
                        base(th, a[1], line)?,
                        Expr::Reg(reg_of(th, a[2], line)?),
                    )
                } else {
                    displacement(th, a[1], line)?
                };
                if op_l.starts_with('l') {
                    Instr::Load { dst: r, addr }
                } else {
                    Instr::Store {
                        val: Expr::Reg(r),
                        addr,
                    }
                }
            }
            "cmpw" | "cmpd" | "cmpwi" | "cmpdi" => {
                let (field, a) = match a.as_slice() {
                    [f, rest @ ..] if rest.len() == 2 => (cr_field(th, f, line)?, rest),
                    _ => (cr0, &a[..]),
                };
                if a.len() != 2 {
                    return err(line, format!("'{op}' takes 2 operands"));
                }
                let rhs = if op_l.ends_with('i') {
                    Expr::Const(imm(a[1], line)?)
                } else {
                    Expr::Reg(reg_of(th, a[1], line)?)
                };
                Instr::Assign {
                    dst: field,
                    e: Expr::bin(Op::Sub, Expr::Reg(reg_of(th, a[0], line)?), rhs),
                }
            }
            "b" | "beq" | "bne" | "blt" | "bgt" | "ble" | "bge" => {
                let (field, target) = match a.as_slice() {
                    [l] => (cr0, *l),
                    [f, l] if op_l != "b" => (cr_field(th, f, line)?, *l),
                    _ => return err(line, format!("'{op}' takes a label")),
                };
                let cond = match op_l.as_str() {
                    "b" => Expr::Const(1),
                    c => {
                        let o = match c {
                            "beq" => Op::Eq,
                            "bne" => Op::Ne,
                            "blt" => Op::Lt,
                            "bgt" => Op::Gt,
                            "ble" => Op::Le,
                            _ => Op::Ge,
                        };
                        Expr::bin(o, Expr::Reg(field), Expr::Const(0))
                    }
                };
                pending.push((th.instrs.len(), target.to_string(), line));
                Instr::Branch { cond, target: 0 }
            }
            "sync" | "hwsync" => Instr::Fence(Fence::Sync),
            "lwsync" => Instr::Fence(Fence::Lwsync),
            "isync" => Instr::Fence(Fence::Isync),
            _ => return err(line, format!("instruction '{op}' is not supported")),
        };
        let record = op_l.ends_with('.');
        let dst = instr.def();
        th.instrs.push(instr);
        // The record form (`andi.`) also compares its result with 0 into `cr0`.
        if let (true, Some(d)) = (record, dst) {
            th.instrs.push(Instr::Assign {
                dst: cr0,
                e: Expr::Reg(d),
            });
        }
    }
    for (at, lab, line) in pending {
        let Some((_, pc)) = labels.iter().find(|(l, _)| *l == lab) else {
            return err(line, format!("unknown label '{lab}'"));
        };
        if *pc <= at {
            return err(
                line,
                format!("backward branch to '{lab}' (loops are not supported)"),
            );
        }
        if let Instr::Branch { target, .. } = &mut th.instrs[at] {
            *target = *pc;
        }
    }
    Ok(())
}

/// Tokens of a condition.
fn tokens(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && c.get(i + 1) == Some(&'\\') {
            out.push("/\\".into());
            i += 2;
        } else if ch == '\\' && c.get(i + 1) == Some(&'/') {
            out.push("\\/".into());
            i += 2;
        } else if "()~=;[]".contains(ch) {
            out.push(ch.to_string());
            i += 1;
        } else {
            let st = i;
            while i < c.len() && !c[i].is_whitespace() && !"()~=;[]/\\".contains(c[i]) {
                i += 1;
            }
            out.push(c[st..i].iter().collect());
        }
    }
    out
}

struct CondParser<'a> {
    toks: Vec<String>,
    pos: usize,
    program: &'a mut Program,
    line: usize,
}

impl CondParser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks.get(self.pos).map(|s| s.as_str())
    }
    fn next(&mut self) -> Option<String> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn expect(&mut self, t: &str) -> Result<(), ParseError> {
        match self.next() {
            Some(x) if x == t => Ok(()),
            other => err(
                self.line,
                format!("expected '{t}' in the condition, found {other:?}"),
            ),
        }
    }
    fn or(&mut self) -> Result<Cond, ParseError> {
        let mut a = self.and()?;
        while self.peek() == Some("\\/") {
            self.pos += 1;
            a = Cond::Or(Box::new(a), Box::new(self.and()?));
        }
        Ok(a)
    }
    fn and(&mut self) -> Result<Cond, ParseError> {
        let mut a = self.unary()?;
        while self.peek() == Some("/\\") {
            self.pos += 1;
            a = Cond::And(Box::new(a), Box::new(self.unary()?));
        }
        Ok(a)
    }
    fn atom(&mut self, t: &str) -> Result<Atom, ParseError> {
        if let Some((th, r)) = t.split_once(':') {
            let thread: usize = match th.parse() {
                Ok(k) if k < self.program.threads.len() => k,
                _ => return err(self.line, format!("thread '{th}' in the condition")),
            };
            let reg = reg_of(&mut self.program.threads[thread], r, self.line)?;
            Ok(Atom::Reg {
                thread,
                reg,
                name: r.to_string(),
            })
        } else {
            let loc = self.program.loc(t);
            Ok(Atom::Loc {
                loc,
                name: t.to_string(),
            })
        }
    }
    fn unary(&mut self) -> Result<Cond, ParseError> {
        match self.next().as_deref() {
            Some("~") => Ok(Cond::Not(Box::new(self.unary()?))),
            Some("(") => {
                let c = self.or()?;
                self.expect(")")?;
                Ok(c)
            }
            Some("true") => Ok(Cond::True),
            Some("false") => Ok(Cond::False),
            Some("[") => {
                let t = self.next().unwrap_or_default();
                self.expect("]")?;
                self.eq(&t)
            }
            Some(t) => {
                let t = t.to_string();
                self.eq(&t)
            }
            None => err(self.line, "the condition ends early"),
        }
    }
    fn eq(&mut self, t: &str) -> Result<Cond, ParseError> {
        let a = self.atom(t)?;
        self.expect("=")?;
        let v = self.next().unwrap_or_default();
        let v = parse_value(self.program, &v, self.line)?;
        Ok(Cond::Eq(a, v))
    }
}

fn parse_tail(
    tail: &str,
    line: usize,
    name: String,
    mut program: Program,
) -> Result<Litmus, ParseError> {
    let toks = tokens(tail);
    let mut p = CondParser {
        toks,
        pos: 0,
        program: &mut program,
        line,
    };
    let mut extra = Vec::new();
    let mut quantifier = None;
    let mut cond = None;
    while let Some(t) = p.next() {
        match t.as_str() {
            "locations" => {
                p.expect("[")?;
                while let Some(x) = p.next() {
                    match x.as_str() {
                        "]" => break,
                        ";" => {}
                        _ => {
                            let a = p.atom(&x)?;
                            extra.push(a);
                        }
                    }
                }
            }
            "~" if p.peek() == Some("exists") => {
                p.pos += 1;
                quantifier = Some(Quantifier::NotExists);
                cond = Some(p.or()?);
            }
            "exists" => {
                quantifier = Some(Quantifier::Exists);
                cond = Some(p.or()?);
            }
            "forall" => {
                quantifier = Some(Quantifier::Forall);
                cond = Some(p.or()?);
            }
            "filter" => return err(line, "filter is not supported"),
            other => return err(line, format!("unexpected '{other}' after the code")),
        }
    }
    let (Some(quantifier), Some(cond)) = (quantifier, cond) else {
        return err(line, "no final condition (exists, ~exists or forall)");
    };
    let mut observed = Vec::new();
    cond.atoms(&mut observed);
    for a in extra {
        if !observed.contains(&a) {
            observed.push(a);
        }
    }
    Ok(Litmus {
        name,
        program,
        quantifier,
        cond,
        observed,
    })
}
