//! The C frontend: preprocess (`gcc -E`), parse (lang-c, GNU C11), type-check and lower to the
//! IR ([`crate::ir`]). SV-COMP builtins and the pthread API are recognised during lowering.
//!
//! Entry points: [`load_file`] (a `.c` or `.i` path), [`lower_preprocessed`] (text that went
//! through the preprocessor), [`load_source`] (C text, for tests).
//!
//! Policies (each one exact, an explicit error, or an over-approximation marked by
//! `InstrKind::Approximate` on which no counterexample may rest):
//! - `reach_error()` / `__VERIFIER_error()` calls are the unreach-call property (an `Assert` of
//!   0), whatever their body; `assert(e)` (`__assert_fail`) is an `Assert` of `e`.
//! - `abort`/`exit` end the whole program (`Halt`); `__VERIFIER_assume` is `Assume`.
//! - `__VERIFIER_nondet_T()` is `Nondet` of the declared return type (or of `T`'s SV-COMP
//!   type when undeclared), floating-point types included.
//! - A call to `__VERIFIER_atomic_*` (a function with a body) is wrapped in `AtomicBegin` /
//!   `AtomicEnd`, except inside another atomic function (already atomic there).
//! - `malloc`/`calloc` never fail (`Alloc`, one `AllocSite` per call site); `memset`,
//!   `memcpy`/`memmove` are instructions; `strcpy` is lowered to its copy loop; library
//!   `sscanf` of integer conversions is evaluated on a literal input and over-approximated on
//!   any other (`builtins::scanf`); other library functions that write through pointers
//!   (`sprintf`, `strcat`, …) are unsupported. A variable-length array is an allocation of its
//!   size (`vla`).
//! - pthread: create, join, exit, self, equal, mutex init/lock/unlock/trylock/destroy,
//!   cond init/wait/timedwait/signal/broadcast/destroy, keys (a thread-local table; destructors
//!   run at a thread's end, `thread_end`), semaphores, spin and read-write locks, once,
//!   barriers (`builtins::sync_objects`); thread attributes are ignored except the detach
//!   state (`detach`; kept in the object when `pthread_attr_getdetachstate` reads it back);
//!   mutex kinds (recursive, error-checking; from `settype` or glibc's static initialisers)
//!   are modelled with cells of the mutex where the program names one (`mutex_kinds`,
//!   `builtins::mutex_kinds`); condition, read-write lock and barrier attributes, the other
//!   mutex attribute setters and every other `pthread_*` function are unsupported.
//! - CBMC's extensions (`builtins::cprover`, `cprover_async`): `__CPROVER_assert/assume`,
//!   atomic sections, `__CPROVER_fence`, `__CPROVER_ASYNC_n:` thread labels (the statement
//!   outlined into a thread function, the spawner's locals copied by value), `nondet_*`;
//!   `assert` without `<assert.h>` is the assertion.
//! - C11 atomics under SC: `_Atomic` read-modify-writes are atomic sections
//!   (`atomic_objects`); GCC's `__atomic_*`/`__sync_*` builtins (`builtins::atomics`), which
//!   yogar's own `<stdatomic.h>` (`include/`) maps the C11 functions to.
//! - A call of an unmodelled name of the reserved families (`__CPROVER_`, `__VERIFIER_`,
//!   `__builtin_`, `__sync_`, `__atomic_`, `pthread_`, `sem_`) is unsupported.
//! - A function without a body returns a nondet value and writes nothing (listed in
//!   `Program::external_calls`, printed as a warning by the CLI). A program's own definition of
//!   a library function is used instead of the built-in model (SV-COMP builtins excepted).
//! - Unsupported constructs in a function that the program cannot reach (headers define many)
//!   are not errors; in reachable code they are (`FrontendError::Unsupported`).
//! - Floating point: constants exact, operations over-approximated (`float`).
//! - Unsupported: long double constants, bit-field access, multi-dimensional variable-length
//!   arrays, inline
//!   assembly (other than empty barriers), `va_arg`, `_Generic`, wide strings, setjmp/longjmp,
//!   K&R parameter lists; what lang-c cannot parse (`a ?: b`, `__int128`, `__auto_type`,
//!   `__label__`, computed goto, nested functions) is a syntax error.

pub mod error;
pub mod load;
pub mod lower;
pub mod parse;
pub mod preprocess;
pub mod source_map;

use std::path::Path;

pub use error::FrontendError;
pub use load::{load, load_with, LoadError};

use crate::ir::{DataModel, Program};

/// What the user tells the frontend beyond the file (CBMC's options of the same names).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrontendOptions {
    /// `-D NAME[=VALUE]`: macros defined for the preprocessor.
    pub defines: Vec<String>,
    /// `-I DIR`: directories searched for `#include`, before the system ones.
    pub include_dirs: Vec<std::path::PathBuf>,
    /// `--function NAME`: the entry point instead of `main`.
    pub entry: Option<String>,
    /// `--error-label LABEL`: reaching a statement with this label is the error.
    pub error_label: Option<String>,
}

/// Preprocesses, parses and lowers a `.c` or `.i` file.
pub fn load_file(path: &Path, model: DataModel) -> Result<Program, FrontendError> {
    load_file_with(path, model, &FrontendOptions::default())
}

/// [`load_file`] with the user's frontend options.
pub fn load_file_with(
    path: &Path,
    model: DataModel,
    options: &FrontendOptions,
) -> Result<Program, FrontendError> {
    let text = preprocess::preprocess(path, model, options)?;
    lower_preprocessed_with(&text, model, options)
}

/// Parses and lowers already preprocessed text (line markers give the locations).
pub fn lower_preprocessed(text: &str, model: DataModel) -> Result<Program, FrontendError> {
    lower_preprocessed_with(text, model, &FrontendOptions::default())
}

/// [`lower_preprocessed`] with the user's frontend options.
///
/// Parser and lowering recurse over the syntax tree: they run on a thread with a large stack,
/// so that deeply nested input cannot overflow it.
pub fn lower_preprocessed_with(
    text: &str,
    model: DataModel,
    options: &FrontendOptions,
) -> Result<Program, FrontendError> {
    let owned = text.to_string();
    let options = options.clone();
    let handle = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || {
            let (text, dollar) = preprocess::rewrite_tokens(&owned);
            let map = source_map::SourceMap::new(&text);
            check_pragmas(&text, &map)?;
            let unit = parse::parse(&text, &map)?;
            lower::lower_unit(&unit, &map, model, dollar.as_deref(), &options)
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

/// `#pragma pack` changes struct layouts in ways the layout code does not model: refuse it
/// rather than compute different offsets than the compiler. Other pragmas do not change what
/// a program does.
fn check_pragmas(text: &str, map: &source_map::SourceMap) -> Result<(), FrontendError> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('#') {
            let words: Vec<&str> = rest.split_whitespace().take(2).collect();
            if words.first() == Some(&"pragma")
                && words.get(1).is_some_and(|w| w.starts_with("pack"))
            {
                let (f, l, _) = map.locate(offset);
                return Err(FrontendError::Unsupported(format!(
                    "{}:{}: unsupported: #pragma pack",
                    map.file_name(f),
                    l
                )));
            }
        }
        offset += line.len();
    }
    Ok(())
}
