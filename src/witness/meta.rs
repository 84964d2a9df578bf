//! The graph-level facts of a witness: who wrote it, for which program (path and SHA-256),
//! which specification and architecture, and when.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use crate::svcomp::DataModel;

/// Graph data of a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessMeta {
    /// `producer`, e.g. `yogar 0.1.0`.
    pub producer: String,
    /// `specification`: the property text, e.g. `CHECK( init(main()), LTL(G ! call(reach_error())) )`.
    pub specification: String,
    /// `programfile`: the verified program as given to yogar.
    pub program_file: PathBuf,
    /// `programhash`: lowercase hex SHA-256 of the program file's bytes.
    pub program_hash: String,
    /// `architecture`: `32bit` or `64bit`.
    pub data_model: DataModel,
    /// `creationtime`.
    pub creation_time: SystemTime,
}

impl WitnessMeta {
    /// Metadata for a witness about `program_file` (read now, to hash it), written by this
    /// version of yogar at the current time.
    pub fn new(
        program_file: &Path,
        specification: &str,
        data_model: DataModel,
    ) -> std::io::Result<WitnessMeta> {
        Ok(WitnessMeta {
            producer: format!("yogar {}", env!("CARGO_PKG_VERSION")),
            specification: specification.to_string(),
            program_file: program_file.to_path_buf(),
            program_hash: sha256_file(program_file)?,
            data_model,
            creation_time: SystemTime::now(),
        })
    }
}

/// Lowercase hex SHA-256 of a file's contents.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// Lowercase hex SHA-256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `time` in UTC as ISO 8601 (`2024-01-31T23:59:59Z`). Times before 1970 print as the epoch.
pub fn iso8601_utc(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Gregorian (year, month, day) of the day `days` after 1970-01-01: count 400-year eras of
/// 146097 days starting on March 1st, so that the leap day falls at the end of a year.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Reference calendar: the day after a date, by the leap-year rule.
    fn step_one((y, m, d): (i64, u32, u32)) -> (i64, u32, u32) {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let len = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ][(m - 1) as usize];
        match (d < len, m < 12) {
            (true, _) => (y, m, d + 1),
            (false, true) => (y, m + 1, 1),
            (false, false) => (y + 1, 1, 1),
        }
    }

    #[test]
    fn calendar_agrees_with_day_by_day_counting() {
        // Every day up to 2110: covers 2000 (a leap century) and 2100 (not a leap year).
        let mut expected = (1970, 1, 1);
        let mut day = 0;
        while expected.0 < 2110 {
            assert_eq!(civil_from_days(day), expected, "day {day}");
            expected = step_one(expected);
            day += 1;
        }
        assert_eq!(step_one((2000, 2, 28)), (2000, 2, 29));
        assert_eq!(step_one((2100, 2, 28)), (2100, 3, 1));
    }

    #[test]
    fn iso8601_of_known_instants() {
        assert_eq!(iso8601_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3_661); // 2000-02-29 01:01:01
        assert_eq!(iso8601_utc(t), "2000-02-29T01:01:01Z");
    }

    #[test]
    fn sha256_test_vectors() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
