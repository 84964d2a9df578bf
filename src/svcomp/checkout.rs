//! Where the sv-benchmarks checkout is, for the bench and the tests that read shared tasks.

use std::path::{Path, PathBuf};

/// The sv-benchmarks checkout: `explicit` (e.g. `--svb`), else `$SVB`, both as given; else
/// `../shared/sv-benchmarks` beside the repository (or one folder further up, for a worktree
/// nested one level deeper), where that holds a `tasks.csv`.
pub fn sv_benchmarks(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    if let Some(dir) = std::env::var_os("SVB") {
        return Some(PathBuf::from(dir));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    ["../shared/sv-benchmarks", "../../shared/sv-benchmarks"]
        .iter()
        .map(|rel| root.join(rel))
        .find(|p| p.join("tasks.csv").is_file())
}
