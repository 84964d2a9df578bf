//! `--memlimit MB`: verification under an address-space limit that ends in
//! `UNKNOWN (out of memory)` instead of a crash.
//!
//! Rust aborts the process when an allocation fails (and the C++ SAT back end terminates on
//! `std::bad_alloc`), so the limit cannot be caught in-process. Instead the command re-executes
//! itself as a child with [`CHILD_ENV`] set; the child lowers its own `RLIMIT_AS` and verifies,
//! sharing the parent's stdout and stderr. The parent passes the child's exit code on, and maps
//! a child killed by a signal (an abort on allocation failure) or reporting an allocation
//! failure to `UNKNOWN (out of memory)`, so that line is the last of the output.
//!
//! `RLIMIT_AS` bounds virtual memory, which includes the frontend thread's 512 MiB stack
//! reservation and the preprocessor (it inherits the limit): limits below about 600 MiB end in
//! `UNKNOWN (out of memory)` before any verification happens.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::exit;

/// Set in the child: the limit in MiB it applies to itself.
pub const CHILD_ENV: &str = "YOGAR_MEMLIMIT_CHILD";

/// What the caller does next.
pub enum Role {
    /// Verify here (the limit, if any, is in force).
    Verify,
    /// The child has finished: exit with this code.
    Done(u8),
}

/// Called at the start of `yogar verify --memlimit MB`.
pub fn enter(mb: u64) -> Role {
    if std::env::var_os(CHILD_ENV).is_some() {
        if let Err(e) = limit_address_space(mb) {
            eprintln!("yogar: warning: cannot set the memory limit: {e}");
        }
        return Role::Verify;
    }
    Role::Done(supervise(mb))
}

fn limit_address_space(mb: u64) -> std::io::Result<()> {
    let bytes = mb.saturating_mul(1 << 20) as libc::rlim_t;
    let lim = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit reads the struct we pass and touches no memory of ours.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &lim) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// Error texts that mean the address-space limit was hit: by an allocation (Rust, C++), by a
/// thread's stack mapping, or in the preprocessor the child runs under the same limit.
const RESOURCE_ERRORS: &[&str] = &[
    "memory allocation of",
    "bad_alloc",
    "out of memory",
    "Cannot allocate memory",
    "Resource temporarily unavailable",
    "failed to spawn thread",
    "failed to map segment",
    "internal compiler error: Segmentation fault",
];

fn supervise(mb: u64) -> u8 {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("yogar: error: cannot find the yogar executable for --memlimit: {e}");
            return exit::INTERNAL;
        }
    };
    let child = Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env(CHILD_ENV, mb.to_string())
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            eprintln!("yogar: error: cannot start the verification process: {e}");
            return exit::INTERNAL;
        }
    };
    // Pass stderr through, remembering whether an allocation failed.
    let mut err = Vec::new();
    if let Some(mut pipe) = child.stderr.take() {
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            use std::io::Write;
            let _ = std::io::stderr().write_all(&buf[..n]);
            err.extend_from_slice(&buf[..n]);
            if err.len() > 1 << 16 {
                err.drain(..err.len() - 4096);
            }
        }
    }
    let status = match child.wait() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("yogar: error: lost the verification process: {e}");
            return exit::INTERNAL;
        }
    };
    let text = String::from_utf8_lossy(&err);
    let alloc_failed = RESOURCE_ERRORS.iter().any(|e| text.contains(e));
    let verdict = [exit::TRUE, exit::FALSE, exit::UNKNOWN].map(i32::from);
    match status.code() {
        // A verdict stands; an error caused by the limit (ENOMEM anywhere) is the limit's.
        Some(code) if verdict.contains(&code) || !alloc_failed => code as u8,
        _ if alloc_failed || killed_by_abort(&status) => {
            let oom = crate::verdict::Verdict::Unknown(crate::verdict::UnknownReason::OutOfMemory);
            println!("{oom}");
            exit::UNKNOWN
        }
        _ if pass_on_signal(&status) => exit::INTERNAL,
        _ => {
            eprintln!("yogar: internal error: the verification process died ({status})");
            exit::INTERNAL
        }
    }
}

/// A worker ended by a limit's signal (`SIGXCPU` at the soft CPU limit, `SIGKILL` at the hard
/// one or from whoever runs yogar, `SIGTERM`, `SIGINT`) ends the supervisor the same way, so the
/// caller sees what it would have seen without `--memlimit` (the regression runner counts a
/// CPU-limit signal as a time-out, not as an error). Returns only when the signal could not be
/// passed on.
fn pass_on_signal(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    let Some(sig) = status.signal() else {
        return false;
    };
    if ![libc::SIGXCPU, libc::SIGKILL, libc::SIGTERM, libc::SIGINT].contains(&sig) {
        return false;
    }
    use std::io::Write;
    let _ = std::io::stdout().flush();
    // SAFETY: restores the default action of one signal and raises it on this process; no
    // memory is touched.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
    true
}

fn killed_by_abort(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    matches!(status.signal(), Some(libc::SIGABRT) | Some(libc::SIGSEGV))
}
