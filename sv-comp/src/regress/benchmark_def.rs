//! Copies of the BenchExec benchmark definition (`sv-comp/yogar-concurrency.xml`) for an
//! sv-benchmarks checkout elsewhere, or for a chosen set of tasks: BenchExec itself then runs
//! them with the tool-info module `tools.yogar`.

use std::path::Path;

/// The committed definition.
pub fn definition_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("yogar-concurrency.xml")
}

/// How the committed definition names the checkout (relative to its own folder).
pub const DEFINITION_SVB: &str = "../../shared/sv-benchmarks";

/// The definition `text` with its task paths pointing at the checkout `svb` (an absolute
/// path); with `tasks` (`.yml` paths below `c/`), including just those tasks.
pub fn rewrite(text: &str, svb: &Path, tasks: Option<&[String]>) -> Result<String, String> {
    let prefix = format!("{DEFINITION_SVB}/");
    if !text.contains(&prefix) {
        return Err(format!(
            "the benchmark definition does not name {DEFINITION_SVB}"
        ));
    }
    let mut text = text.to_string();
    if let Some(tasks) = tasks {
        let includes: String = tasks
            .iter()
            .map(|t| format!("    <include>{prefix}c/{}</include>\n", escape(t)))
            .collect();
        let run = regex::Regex::new(r"(    <include>[^\n]*\n)+").expect("a valid pattern");
        text = run
            .replacen(&text, 1, regex::NoExpand(&includes))
            .into_owned();
    }
    Ok(text.replace(&prefix, &format!("{}/", svb.display())))
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committed() -> String {
        std::fs::read_to_string(definition_path()).unwrap()
    }

    fn tags<'a>(text: &'a str, tag: &str) -> Vec<&'a str> {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        text.match_indices(&open)
            .map(|(i, _)| {
                let rest = &text[i + open.len()..];
                &rest[..rest.find(&close).unwrap()]
            })
            .collect()
    }

    #[test]
    fn copy_with_chosen_tasks() {
        let tasks = vec!["pthread/a.yml".to_string(), "pthread-wmm/b.yml".to_string()];
        let text = rewrite(&committed(), Path::new("/data/svb"), Some(&tasks)).unwrap();
        assert_eq!(
            tags(&text, "include"),
            ["/data/svb/c/pthread/a.yml", "/data/svb/c/pthread-wmm/b.yml"]
        );
        assert_eq!(
            tags(&text, "propertyfile"),
            ["/data/svb/c/properties/unreach-call.prp"]
        );
    }

    #[test]
    fn copy_points_at_the_given_checkout() {
        let text = rewrite(&committed(), Path::new("/data/svb"), None).unwrap();
        assert!(!text.contains(DEFINITION_SVB));
        assert!(text.contains("tool=\"tools.yogar\""));
        assert!(text.contains("timelimit=\"60 s\""));
        let includes = tags(&text, "include");
        assert!(includes.contains(&"/data/svb/c/pthread/*.yml"));
        assert!(includes
            .iter()
            .all(|i| i.starts_with("/data/svb/c/pthread")));
        assert!(text.contains("<option name=\"--unwind\">auto</option>"));
        assert!(text.contains("<option name=\"--32\"/>"));
        assert!(rewrite("<benchmark/>", Path::new("/x"), None).is_err());
    }
}
