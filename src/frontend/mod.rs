//! The C frontend: preprocess (`gcc -E`), parse (lang-c, GNU C11), type-check and lower to the
//! IR ([`crate::ir`]). SV-COMP builtins and the pthread API are recognised during lowering.

pub mod error;
pub mod lower;
pub mod parse;
pub mod preprocess;
pub mod source_map;

use std::path::Path;

pub use error::FrontendError;

use crate::ir::{DataModel, Program};

/// Preprocesses, parses and lowers a `.c` or `.i` file.
pub fn load_file(path: &Path, model: DataModel) -> Result<Program, FrontendError> {
    let text = preprocess::preprocess(path, model)?;
    lower_preprocessed(&text, model)
}

/// Parses and lowers already preprocessed text (line markers give the locations).
///
/// Parser and lowering recurse over the syntax tree: they run on a thread with a large stack,
/// so that deeply nested input cannot overflow it.
pub fn lower_preprocessed(text: &str, model: DataModel) -> Result<Program, FrontendError> {
    let owned = text.to_string();
    let handle = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let (text, dollar) = preprocess::rewrite_tokens(&owned);
            let map = source_map::SourceMap::new(&text);
            let unit = parse::parse(&text, &map)?;
            lower::lower_unit(&unit, &map, model, dollar.as_deref())
        })
        .map_err(|e| FrontendError::Input(format!("cannot start the frontend thread: {e}")))?;
    match handle.join() {
        Ok(r) => r,
        Err(p) => std::panic::resume_unwind(p),
    }
}

/// Writes `source` to a temporary file and loads it as a `.c` file: the entry point of the
/// unit tests and the fuzz test.
pub fn load_source(source: &str, model: DataModel) -> Result<Program, FrontendError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir();
    let path = dir.join(format!("yogar-src-{}-{n}.c", std::process::id()));
    std::fs::write(&path, source)
        .map_err(|e| FrontendError::Input(format!("cannot write {}: {e}", path.display())))?;
    let r = load_file(&path, model);
    let _ = std::fs::remove_file(&path);
    r
}
