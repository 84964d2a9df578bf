//! The process's memory: what it holds now, the most it has held, the address-space limit it
//! runs under (`--memlimit` sets one on the process that verifies), and whether `--unwind auto`
//! can afford its next bound under that limit.

/// The process's resident memory in bytes, where the system tells it.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The peak resident set size of this process so far in bytes (`getrusage`), the figure the
/// regression runner's memory limit and SV-COMP's are about.
pub fn peak_resident_bytes() -> Option<u64> {
    // SAFETY: an all-zero rusage is a valid value for getrusage to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes the struct we pass and touches no other memory.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return None;
    }
    // Linux reports kilobytes.
    Some(usage.ru_maxrss.max(0) as u64 * 1024)
}

/// The address-space limit in bytes (`RLIMIT_AS`), None when there is none.
pub fn address_space_limit() -> Option<u64> {
    // SAFETY: an all-zero rlimit is a valid value for getrlimit to fill in.
    let mut lim: libc::rlimit = unsafe { std::mem::zeroed() };
    // SAFETY: getrlimit writes the struct we pass and touches no other memory.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0 {
        return None;
    }
    (lim.rlim_cur != libc::RLIM_INFINITY).then_some(lim.rlim_cur as u64)
}

/// The peak memory (bytes) of two consecutive bounds of `--unwind auto`: `(bound, peak after
/// it)`, the earlier first.
pub type BoundPeak = (u32, u64);

/// The memory bound `next` will need, extrapolated linearly from the peaks after the last two
/// bounds (a formula grows at least linearly with the bound, so this is rather an
/// underestimate); None without two bounds to go by.
pub fn projected_peak(earlier: BoundPeak, last: BoundPeak, next: u32) -> Option<u64> {
    let ((b0, m0), (b1, m1)) = (earlier, last);
    if b1 <= b0 || next <= b1 {
        return None;
    }
    let slope = m1.saturating_sub(m0) as f64 / f64::from(b1 - b0);
    Some(m1.saturating_add((slope * f64::from(next - b1)) as u64))
}

/// Address space that is not resident memory: the frontend thread's stack reservation
/// (512 MiB, `frontend`) and the allocators' slack. On pthread-driver-races' nvram task under
/// a 4 GiB limit, a bound whose resident peak would have been about 4.0 GiB ran out of
/// address space at 3.78 GiB resident.
pub const NOT_RESIDENT: u64 = 512 << 20;

/// Whether a projected resident peak leaves room under the address-space `limit`.
pub fn fits(projected: u64, limit: u64) -> bool {
    projected.saturating_add(NOT_RESIDENT) <= limit
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn projection_is_linear_in_the_bound() {
        // 1,000 MiB at 1024, 3,000 at 1536: 2,000 MiB more per 512, so 5,000 MiB at 2048.
        let p = projected_peak((1024, 1000 * MIB), (1536, 3000 * MIB), 2048).unwrap();
        assert!(p > 4990 * MIB && p < 5010 * MIB, "{}", p / MIB);
        assert!(!fits(p, 4096 * MIB));
        // The nvram task's last two bounds: 2,111 MiB at 4096, 2,869 at 6144, so 3,627 MiB
        // at 8192, which leaves less than the non-resident reserve under 4 GiB.
        let n = projected_peak((4096, 2111 * MIB), (6144, 2869 * MIB), 8192).unwrap();
        assert!(!fits(n, 4096 * MIB));
        assert!(fits(n, 8192 * MIB));
        // A bound that barely grows the formula fits.
        let q = projected_peak((4, 500 * MIB), (6, 510 * MIB), 8).unwrap();
        assert!(fits(q, 4096 * MIB));
        // No projection from one bound, or backwards.
        assert_eq!(projected_peak((4, MIB), (4, MIB), 6), None);
        assert_eq!(projected_peak((4, MIB), (6, MIB), 6), None);
    }

    #[test]
    fn the_process_reads_its_own_memory() {
        let now = resident_bytes().expect("/proc/self/statm");
        let peak = peak_resident_bytes().expect("getrusage");
        assert!(now > 0 && peak >= now / 2, "now {now}, peak {peak}");
    }
}
