//! Running a child process under limits, as SV-COMP does: CPU time (`RLIMIT_CPU`), address
//! space (`RLIMIT_AS`) and a wall-clock backstop, measured with `wait4`. Every task the bench
//! and the regression runner start goes through [`run_limited`].
//!
//! What is measured and limited: `wait4` reports the user + system time and peak RSS of the
//! child together with every descendant it waited for (Linux adds a reaped child's usage to
//! its parent's), so yogar's `gcc -E` preprocessor and the `--memlimit` worker are counted. A
//! descendant still running when the child ends is killed with the group and not counted.
//! The rlimits are per process: a descendant inherits the whole CPU and address-space limit
//! rather than sharing the child's, so a run with helpers may use somewhat more than the
//! limit in total (BenchExec's cgroups limit the group; for yogar the preprocessor's share
//! is small).
//!
//! The CPU limit, not wall time, is what counts: on a shared machine a run may get a small
//! share of a core, so runs may go side by side without shortening each other's limit.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// CPU seconds (rounded up to whole seconds): `SIGXCPU` then, `SIGKILL` one second later.
    pub cpu: f64,
    /// Address space in bytes (`None`: unlimited).
    pub memory: Option<u64>,
    /// Wall-clock time after which the child's process group is killed.
    pub wall: Duration,
}

/// How a run ended and what it printed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ended {
    /// The exit code; `None` when a signal ended the child.
    pub code: Option<i32>,
    /// The signal that ended the child.
    pub signal: Option<i32>,
    /// Whether the wall-clock backstop killed it.
    pub wall_killed: bool,
    /// User + system CPU time of the child and the descendants it waited for.
    pub cpu: Duration,
    pub wall: Duration,
    /// Peak resident set size in bytes (the largest of the child and the descendants it
    /// waited for).
    pub max_rss: u64,
    pub stdout: String,
    pub stderr: String,
}

impl Ended {
    /// Whether the CPU limit ended the run: `SIGXCPU` at the soft limit, or `SIGKILL` from the
    /// hard limit after (nearly) all the CPU time was used.
    pub fn out_of_cpu(&self, limits: &Limits) -> bool {
        match self.signal {
            Some(libc::SIGXCPU) => true,
            Some(libc::SIGKILL) => self.cpu.as_secs_f64() >= limits.cpu.ceil() - 0.5,
            _ => false,
        }
    }
}

/// Runs `command` (stdin empty, stdout and stderr captured) in a process group of its own
/// under `limits`, and reaps it. The whole group is killed when the child ends, so helpers it
/// left behind (a preprocessor) go with it. `Err` when the child cannot be started.
pub fn run_limited(mut command: Command, limits: &Limits) -> std::io::Result<Ended> {
    use std::os::unix::process::CommandExt;
    let started = Instant::now();
    let cpu = limits.cpu.ceil().max(1.0) as libc::rlim_t;
    let memory = limits.memory.map(|m| m as libc::rlim_t);
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls (`setsid`, `setrlimit`) run between fork and exec.
    unsafe {
        command.pre_exec(move || {
            libc::setsid();
            let rl = libc::rlimit {
                rlim_cur: cpu,
                rlim_max: cpu + 1,
            };
            libc::setrlimit(libc::RLIMIT_CPU, &rl);
            if let Some(m) = memory {
                let rl = libc::rlimit {
                    rlim_cur: m,
                    rlim_max: m,
                };
                libc::setrlimit(libc::RLIMIT_AS, &rl);
            }
            Ok(())
        });
    }
    let mut child = command.spawn()?;
    // Pipes are drained on threads so a chatty child cannot block on a full pipe.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out_thread = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err_thread = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let pid = child.id() as libc::pid_t;
    let kill_group = || {
        // SAFETY: signals the process group the child leads; no memory is touched.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
    };
    let mut ended = Ended::default();
    loop {
        let mut status = 0;
        // SAFETY: `wait4` only writes the status and the zeroed plain-data rusage it is given.
        let (r, usage) = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let r = libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage);
            (r, usage)
        };
        if r == pid {
            let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
            ended.cpu = Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime));
            // Linux reports the peak RSS in kilobytes.
            ended.max_rss = usage.ru_maxrss.max(0) as u64 * 1024;
            if libc::WIFEXITED(status) {
                ended.code = Some(libc::WEXITSTATUS(status));
            } else if libc::WIFSIGNALED(status) {
                ended.signal = Some(libc::WTERMSIG(status));
            }
            break;
        }
        if r != 0 {
            // Not our child any more (cannot happen for a spawned child); give up waiting.
            break;
        }
        if !ended.wall_killed && started.elapsed() > limits.wall {
            kill_group();
            ended.wall_killed = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    kill_group();
    ended.wall = started.elapsed();
    ended.stdout = out_thread.join().unwrap_or_default();
    ended.stderr = err_thread.join().unwrap_or_default();
    Ok(ended)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c").arg(script);
        c
    }

    fn limits(cpu: f64, wall: f64) -> Limits {
        Limits {
            cpu,
            memory: None,
            wall: Duration::from_secs_f64(wall),
        }
    }

    #[test]
    fn exit_code_and_output_are_captured() {
        let l = limits(5.0, 30.0);
        let e = run_limited(sh("echo out; echo err >&2; exit 7"), &l).unwrap();
        assert_eq!((e.code, e.signal, e.wall_killed), (Some(7), None, false));
        assert_eq!((e.stdout.as_str(), e.stderr.as_str()), ("out\n", "err\n"));
        assert!(!e.out_of_cpu(&l));
    }

    #[test]
    fn the_cpu_limit_ends_a_spinning_child() {
        let l = limits(1.0, 60.0);
        let e = run_limited(sh("while :; do :; done"), &l).unwrap();
        assert!(e.out_of_cpu(&l), "{e:?}");
        assert!(e.cpu.as_secs_f64() >= 0.5, "{e:?}");
        assert!(!e.wall_killed);
    }

    #[test]
    fn a_waited_for_descendant_counts() {
        // The grandchild spins for one CPU second (its own limit), the child only waits.
        let l = limits(10.0, 60.0);
        let e = run_limited(sh("sh -c 'ulimit -t 1; while :; do :; done'; exit 0"), &l).unwrap();
        assert_eq!(e.code, Some(0), "{e:?}");
        assert!(e.cpu.as_secs_f64() >= 0.5, "{e:?}");
    }

    #[test]
    fn the_wall_limit_kills_a_sleeping_child() {
        let l = limits(5.0, 0.3);
        let e = run_limited(sh("sleep 30"), &l).unwrap();
        assert!(e.wall_killed);
        assert_eq!(e.signal, Some(libc::SIGKILL));
        assert!(!e.out_of_cpu(&l));
        assert!(e.wall < Duration::from_secs(10));
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let l = limits(1.0, 1.0);
        assert!(run_limited(Command::new("/nonexistent/yogar"), &l).is_err());
    }
}
