//! The result tables of a regression run: `results.csv` (one row per task), its HTML view,
//! the summary with the SV-COMP score, and the baseline (`task,expected,status`) that later
//! runs are compared with.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::status::{class_of, VerdictClass, SCORE_CORRECT_FALSE, SCORE_CORRECT_TRUE};

/// One row of `results.csv`; the columns are those of the committed tables.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub task: String,
    pub directory: String,
    /// `true` or `false`.
    pub expected: String,
    pub status: String,
    /// correct, wrong, unknown or error.
    pub category: String,
    pub score: i64,
    pub cpu_s: String,
    pub wall_s: String,
    pub mem_mb: String,
    pub refinements: String,
    pub clauses: String,
    pub unwind: String,
    /// With `--replay` and a FALSE: confirmed, not confirmed or no witness.
    #[serde(default)]
    pub witness: String,
    pub baseline: String,
    /// `yes` when the verdict class differs from the baseline's.
    pub changed: String,
}

/// The columns, in table order.
pub const FIELDS: [&str; 15] = [
    "task",
    "directory",
    "expected",
    "status",
    "category",
    "score",
    "cpu_s",
    "wall_s",
    "mem_mb",
    "refinements",
    "clauses",
    "unwind",
    "witness",
    "baseline",
    "changed",
];

impl Row {
    fn cells(&self) -> [String; 15] {
        [
            self.task.clone(),
            self.directory.clone(),
            self.expected.clone(),
            self.status.clone(),
            self.category.clone(),
            self.score.to_string(),
            self.cpu_s.clone(),
            self.wall_s.clone(),
            self.mem_mb.clone(),
            self.refinements.clone(),
            self.clauses.clone(),
            self.unwind.clone(),
            self.witness.clone(),
            self.baseline.clone(),
            self.changed.clone(),
        ]
    }
}

pub fn read_rows(path: &Path) -> Result<Vec<Row>, String> {
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    reader
        .deserialize()
        .collect::<Result<Vec<Row>, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))
}

pub fn write_rows(path: &Path, rows: &[Row]) -> Result<(), String> {
    let mut writer =
        csv::Writer::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    for r in rows {
        writer
            .serialize(r)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    writer
        .flush()
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// task → status of a baseline or a `results.csv` (empty when the file does not exist).
pub fn read_statuses(path: &Path) -> Result<BTreeMap<String, String>, String> {
    if !path.is_file() {
        return Ok(BTreeMap::new());
    }
    #[derive(Deserialize)]
    struct Entry {
        task: String,
        status: String,
    }
    let mut reader =
        csv::Reader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for entry in reader.deserialize::<Entry>() {
        let e = entry.map_err(|e| format!("{}: {e}", path.display()))?;
        if !e.task.is_empty() {
            out.insert(e.task, e.status);
        }
    }
    Ok(out)
}

/// Rewrites the baseline with this run's statuses; tasks not run keep their old row.
pub fn write_baseline(
    path: &Path,
    rows: &[Row],
    previous: &BTreeMap<String, String>,
) -> Result<(), String> {
    let mut merged: BTreeMap<&str, (&str, &str)> = previous
        .iter()
        .map(|(t, s)| (t.as_str(), ("", s.as_str())))
        .collect();
    for r in rows {
        merged.insert(&r.task, (&r.expected, &r.status));
    }
    let err = |e: csv::Error| format!("{}: {e}", path.display());
    let mut w = csv::Writer::from_path(path).map_err(err)?;
    w.write_record(["task", "expected", "status"])
        .map_err(err)?;
    for (task, (expected, status)) in merged {
        w.write_record([task, expected, status]).map_err(err)?;
    }
    w.flush().map_err(|e| format!("{}: {e}", path.display()))
}

/// Tasks where this run and `other` (task → status) both gave a verdict and the verdicts
/// differ.
pub fn disagreements(rows: &[Row], other: &BTreeMap<String, String>) -> Vec<String> {
    rows.iter()
        .filter(|r| {
            let mine = class_of(&r.status);
            let theirs = class_of(other.get(&r.task).map_or("", String::as_str));
            mine != VerdictClass::None && theirs != VerdictClass::None && mine != theirs
        })
        .map(|r| r.task.clone())
        .collect()
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub tasks: usize,
    pub correct_true: usize,
    pub correct_false: usize,
    pub wrong_true: usize,
    pub wrong_false: usize,
    pub unknown: usize,
    pub timeout: usize,
    pub error: usize,
    pub changed: usize,
    pub witness_confirmed: usize,
    pub witness_checked: usize,
    pub score: i64,
    pub max_score: i64,
    pub cpu_s: f64,
}

pub fn summarize(rows: &[Row]) -> Summary {
    let count = |f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| f(r)).count();
    Summary {
        tasks: rows.len(),
        correct_true: count(&|r| r.category == "correct" && r.expected == "true"),
        correct_false: count(&|r| r.category == "correct" && r.expected == "false"),
        wrong_true: count(&|r| r.category == "wrong" && r.status == "true"),
        wrong_false: count(&|r| r.category == "wrong" && r.status != "true"),
        unknown: count(&|r| r.category == "unknown"),
        timeout: count(&|r| r.status == "TIMEOUT"),
        error: count(&|r| r.category == "error"),
        changed: count(&|r| r.changed == "yes"),
        witness_confirmed: count(&|r| r.witness == "confirmed"),
        witness_checked: count(&|r| !r.witness.is_empty()),
        score: rows.iter().map(|r| r.score).sum(),
        max_score: rows
            .iter()
            .map(|r| {
                if r.expected == "true" {
                    SCORE_CORRECT_TRUE
                } else {
                    SCORE_CORRECT_FALSE
                }
            })
            .sum(),
        cpu_s: rows
            .iter()
            .map(|r| r.cpu_s.parse::<f64>().unwrap_or(0.0))
            .sum(),
    }
}

pub fn summary_text(s: &Summary, runner: &str) -> String {
    let mut out = format!(
        "tasks: {} (runner: {runner})\ncorrect: {} ({} true, {} false)\n\
         wrong: {} ({} true, {} false)\nunknown: {} (of which timeout: {})\nerror: {}\n\
         changed from baseline: {}\n",
        s.tasks,
        s.correct_true + s.correct_false,
        s.correct_true,
        s.correct_false,
        s.wrong_true + s.wrong_false,
        s.wrong_true,
        s.wrong_false,
        s.unknown,
        s.timeout,
        s.error,
        s.changed
    );
    if s.witness_checked > 0 {
        let _ = writeln!(
            out,
            "witnesses confirmed by replay: {} of {}",
            s.witness_confirmed, s.witness_checked
        );
    }
    let _ = write!(
        out,
        "score: {} of {}\ncpu time: {:.1} s\n",
        s.score, s.max_score, s.cpu_s
    );
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#x27;")
}

/// The table as one HTML page, rows coloured by category, changed verdicts in bold.
pub fn write_html(path: &Path, rows: &[Row], summary: &str) -> Result<(), String> {
    let mut out = String::from(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>yogar regression</title>\n\
         <style>body{font-family:sans-serif}table{border-collapse:collapse}\
         td,th{border:1px solid #bbb;padding:2px 6px;font-size:13px}\
         td.n{text-align:right}</style></head><body>\n<h1>yogar regression</h1>\n",
    );
    let _ = writeln!(out, "<pre>{}</pre>", escape(summary));
    out.push_str("<table><tr>");
    for h in FIELDS {
        let _ = write!(out, "<th>{h}</th>");
    }
    out.push_str("</tr>\n");
    for r in rows {
        let mut style = match r.category.as_str() {
            "correct" => "#d8f5d8",
            "wrong" => "#f8c8c8",
            "unknown" => "#f4f4f4",
            "error" => "#fbe7c6",
            _ => "#fff",
        }
        .to_string();
        if r.changed == "yes" {
            style.push_str(";font-weight:bold");
        }
        let _ = write!(out, "<tr style=\"background:{style}\">");
        for (field, cell) in FIELDS.iter().zip(r.cells()) {
            let numeric = ["score", "cpu_s", "wall_s", "mem_mb", "refinements"].contains(field);
            let class = if numeric { " class=\"n\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", escape(&cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table></body></html>\n");
    std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::super::status::{categorize, Status};
    use super::*;

    fn row(task: &str, expected: bool, status: &str) -> Row {
        let (category, score) = categorize(expected, &Status::parse(status));
        Row {
            task: task.into(),
            expected: expected.to_string(),
            status: status.into(),
            category: category.name().into(),
            score,
            cpu_s: "1.5".into(),
            ..Row::default()
        }
    }

    #[test]
    fn summary_adds_up() {
        let rows: Vec<Row> = [
            (true, "true"),
            (false, "false(unreach-call)"),
            (false, "true"),
            (true, "false(unreach-call)"),
            (true, "TIMEOUT"),
        ]
        .iter()
        .enumerate()
        .map(|(i, (e, s))| row(&format!("t{i}"), *e, s))
        .collect();
        let s = summarize(&rows);
        assert_eq!(s.score, 2 + 1 - 32 - 16);
        assert_eq!(s.max_score, 2 + 1 + 1 + 2 + 2);
        assert_eq!((s.correct_true, s.correct_false), (1, 1));
        assert_eq!((s.wrong_true, s.wrong_false), (1, 1));
        assert_eq!((s.unknown, s.timeout), (1, 1));
        assert!((s.cpu_s - 7.5).abs() < 1e-9);
        assert!(summary_text(&s, "own").contains("score: -45 of 8\n"));
    }

    #[test]
    fn rows_and_baseline_round_trip_through_csv() {
        let dir = std::env::temp_dir().join(format!("yogar-regress-table-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut rows = vec![
            row("d/a.yml", true, "true"),
            row("d/b.yml", false, "TIMEOUT"),
        ];
        // A status with a comma is quoted, not split.
        rows[1].status = "ERROR (exit code 0, last line 'x')".into();
        let results = dir.join("results.csv");
        write_rows(&results, &rows).unwrap();
        let text = std::fs::read_to_string(&results).unwrap();
        assert!(text.starts_with(&FIELDS.join(",")), "{text}");
        assert_eq!(read_rows(&results).unwrap(), rows);

        let baseline = dir.join("baseline.csv");
        let old: BTreeMap<String, String> = [("d/z.yml".to_string(), "true".to_string())].into();
        write_baseline(&baseline, &rows[..1], &old).unwrap();
        assert_eq!(
            std::fs::read_to_string(&baseline).unwrap(),
            "task,expected,status\nd/a.yml,true,true\nd/z.yml,,true\n"
        );
        let statuses = read_statuses(&baseline).unwrap();
        assert_eq!(statuses["d/a.yml"], "true");
        assert!(read_statuses(&dir.join("none.csv")).unwrap().is_empty());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn only_two_verdicts_can_disagree() {
        let rows = vec![
            row("a", false, "false(unreach-call)"),
            row("b", true, "TIMEOUT"),
            row("c", true, "true"),
        ];
        let other: BTreeMap<String, String> = [
            ("a".to_string(), "true".to_string()),
            ("b".to_string(), "true".to_string()),
            ("c".to_string(), "true".to_string()),
        ]
        .into();
        assert_eq!(disagreements(&rows, &other), vec!["a".to_string()]);
    }
}
