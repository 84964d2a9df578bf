//! A share of the run's time, counted on the clock the run is limited by.
//!
//! Under `RLIMIT_CPU` (as the regression runner and BenchExec set it) the limit is CPU time,
//! but the provers' and solvers' deadlines are wall-clock instants. A share fixed once as a
//! wall-clock timeout is wrong on a loaded machine: at three wall seconds per CPU second, a
//! 30 s share fixed before any CPU was used gives only 10 s of CPU. A [`Budget`] instead
//! ends at a point of the process's CPU time and converts what is left into wall-clock time
//! each time it is asked ([`Budget::left`]), at the rate this process has got the CPU so far:
//! a long search (the counting rung's Houdini loop) that asks before every check stays
//! within its CPU share however the load changes.

use std::time::{Duration, Instant};

/// The CPU time (user and system) of the process so far.
pub fn cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes the timespec it is given and nothing else.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return std::time::Duration::ZERO;
    }
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// When a budget ends.
#[derive(Clone, Copy, Debug)]
enum End {
    /// No limit.
    Never,
    /// At this wall-clock instant.
    Wall(Instant),
    /// When the process has used this much CPU time.
    Cpu(Duration),
}

/// A share of the run's time (see the module doc).
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    end: End,
    /// When the run started: the wall-per-CPU rate is taken since then.
    started: Instant,
}

impl Budget {
    /// No limit.
    pub fn unlimited() -> Budget {
        Budget {
            end: End::Never,
            started: Instant::now(),
        }
    }

    /// `timeout` of wall-clock time from now (none: no limit).
    pub fn wall(timeout: Option<Duration>) -> Budget {
        Budget {
            end: timeout.map_or(End::Never, |t| End::Wall(Instant::now() + t)),
            started: Instant::now(),
        }
    }

    /// Until the process has used `cpu` more CPU time than now; `started` is when the run
    /// started (for the wall-per-CPU rate).
    pub fn cpu(cpu: Duration, started: Instant) -> Budget {
        Budget {
            end: End::Cpu(cpu_time() + cpu),
            started,
        }
    }

    /// The wall-clock time left (none: no limit), at the current wall-per-CPU rate when the
    /// budget is CPU time.
    pub fn left(&self) -> Option<Duration> {
        match self.end {
            End::Never => None,
            End::Wall(at) => Some(at.saturating_duration_since(Instant::now())),
            End::Cpu(at) => Some(
                at.saturating_sub(cpu_time())
                    .mul_f64(wall_per_cpu(self.started)),
            ),
        }
    }

    /// Whether the budget is used up.
    pub fn spent(&self) -> bool {
        self.left().is_some_and(|l| l.is_zero())
    }

    /// `share` (numerator, denominator) of what is left, on the same clock; the whole of an
    /// unlimited budget is `nominal` (see `pipeline::NOMINAL_TIME_WITHOUT_LIMIT`).
    pub fn share(&self, share: (u32, u32), nominal: Duration) -> Budget {
        let part = |d: Duration| d * share.0 / share.1;
        let end = match self.end {
            End::Never => End::Wall(Instant::now() + part(nominal)),
            End::Wall(at) => {
                End::Wall(Instant::now() + part(at.saturating_duration_since(Instant::now())))
            }
            End::Cpu(at) => {
                let now = cpu_time();
                End::Cpu(now + part(at.saturating_sub(now)))
            }
        };
        Budget {
            end,
            started: self.started,
        }
    }

    /// The earlier end of the two (`self` and `other`).
    pub fn within(self, other: &Budget) -> Budget {
        let end = match (self.end, other.end) {
            (End::Never, e) | (e, End::Never) => e,
            (End::Wall(a), End::Wall(b)) => End::Wall(a.min(b)),
            (End::Cpu(a), End::Cpu(b)) => End::Cpu(a.min(b)),
            // Mixed clocks do not arise (a run has one limit); the wall clock is the stricter.
            (End::Wall(a), End::Cpu(_)) | (End::Cpu(_), End::Wall(a)) => End::Wall(a),
        };
        Budget {
            end,
            started: self.started,
        }
    }
}

/// Wall-clock seconds per CPU second this process has had since `started` (at least 1, at
/// most 8; 1 before it has used a measurable amount of CPU).
pub fn wall_per_cpu(started: Instant) -> f64 {
    let cpu = cpu_time().as_secs_f64();
    let wall = started.elapsed().as_secs_f64();
    if cpu < 0.05 {
        return 1.0;
    }
    (wall / cpu).clamp(1.0, 8.0)
}

/// CPU time left under the soft `RLIMIT_CPU`, when one is set.
pub fn cpu_time_left() -> Option<Duration> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct we pass and touches no other memory.
    if unsafe { libc::getrlimit(libc::RLIMIT_CPU, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    Some(Duration::from_secs(lim.rlim_cur).saturating_sub(cpu_time()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU budget ends after its CPU time is used, not after its wall time: sleeping uses
    /// none, spinning uses it up.
    #[test]
    fn cpu_budget_counts_cpu_time() {
        // Two cores give other tests at most 0.6 s of CPU during the sleep.
        let b = Budget::cpu(Duration::from_millis(1000), Instant::now());
        std::thread::sleep(Duration::from_millis(300));
        assert!(!b.spent(), "sleeping must not use a CPU budget");
        let t = Instant::now();
        while !b.spent() {
            assert!(t.elapsed() < Duration::from_secs(20), "budget never ended");
        }
        assert!(cpu_time() >= Duration::from_millis(1000));
    }

    #[test]
    fn share_takes_part_of_what_is_left() {
        let b = Budget::wall(Some(Duration::from_secs(100)));
        let half = b.share((1, 2), Duration::from_secs(7)).left().unwrap();
        assert!(half <= Duration::from_secs(50) && half > Duration::from_secs(49));
        let nominal = Budget::unlimited().share((1, 2), Duration::from_secs(8));
        assert!(nominal.left().unwrap() <= Duration::from_secs(4));
        assert!(Budget::unlimited().left().is_none());
        let both = b.within(&Budget::wall(Some(Duration::from_secs(3))));
        assert!(both.left().unwrap() <= Duration::from_secs(3));
    }
}
