//! `yogar show-equation`: the equation symbolic execution builds, checked event by event
//! against the README example (two workers that each read and then write `counter`, a main
//! thread that creates and joins them and asserts on `counter`).

use std::path::PathBuf;
use std::process::Command;

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/readme_example.c")
}

/// The 1-based line of the first source line containing `text`.
fn line_of(text: &str) -> usize {
    let src = std::fs::read_to_string(example()).unwrap();
    src.lines().position(|l| l.contains(text)).expect(text) + 1
}

fn show(unwind: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["show-equation", "--unwind", unwind])
        .arg(example())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The lines of the block of the thread whose header contains `header`.
fn thread_block<'a>(text: &'a str, header: &str) -> Vec<Vec<&'a str>> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        if !line.starts_with(' ') {
            if let Some(b) = current.take() {
                blocks.push(b);
            }
            if line.starts_with("thread") && line.contains(header) {
                current = Some(Vec::new());
            }
        } else if let Some(b) = current.as_mut() {
            b.push(line.trim());
        }
    }
    blocks.extend(current);
    blocks
}

#[test]
fn readme_example_equation_matches_the_program() {
    let (code, text) = show("2");
    assert_eq!(code, 0, "{text}");
    let read_line = format!("readme_example.c:{}", line_of("int tmp = counter;"));
    let write_line = format!("readme_example.c:{}", line_of("counter = tmp + 1;"));
    let assert_line = format!("readme_example.c:{}", line_of("assert(counter == 2)"));

    // Two worker threads, each: read counter at its line, then write it at the next.
    let workers = thread_block(&text, "(worker)");
    assert_eq!(workers.len(), 2, "{text}");
    for w in &workers {
        let events: Vec<&&str> = w
            .iter()
            .filter(|l| l.contains(" counter+0 ") && (l.contains(" R ") || l.contains(" W ")))
            .collect();
        assert_eq!(events.len(), 2, "{w:?}");
        assert!(
            events[0].contains(" R ") && events[0].ends_with(&read_line),
            "{w:?}"
        );
        assert!(
            events[1].contains(" W ") && events[1].ends_with(&write_line),
            "{w:?}"
        );
        // The written value depends on the read: not a constant.
        assert!(events[1].contains("symbolic"), "{w:?}");
    }

    // main creates both workers, joins both, then reads counter at the assertion.
    let main = thread_block(&text, "(main)");
    assert_eq!(main.len(), 1, "{text}");
    let main = &main[0];
    let creates = main.iter().filter(|l| l.starts_with("create")).count();
    let joins = main.iter().filter(|l| l.starts_with("join")).count();
    assert_eq!((creates, joins), (2, 2), "{main:?}");
    let last_join = main.iter().rposition(|l| l.starts_with("join")).unwrap();
    let read = main
        .iter()
        .position(|l| l.contains(" R counter+0") && l.ends_with(&assert_line))
        .expect("main reads counter at the assertion");
    assert!(read > last_join, "{main:?}");

    // The initial value 0 of counter, and exactly one property check at the assertion.
    assert!(
        text.lines()
            .any(|l| l.contains(" W counter+0") && l.contains("value 0 (32 bits)")),
        "{text}"
    );
    let properties: Vec<&str> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("assert "))
        .collect();
    assert_eq!(properties.len(), 1, "{text}");
    assert!(properties[0].contains(&assert_line), "{text}");
}

#[test]
fn unreadable_program_is_an_input_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_yogar"))
        .args(["show-equation", "/nonexistent/x.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}
