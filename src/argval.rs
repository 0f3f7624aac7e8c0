//! Value parsers for the integer command-line options: a bad value gets a message saying what
//! was expected, and clap names the option and the value in front of it (`-1` reaches the
//! parser, not clap's "unexpected argument"); and the options every emulating command shares.

use clap::Args;

/// An integer option in `lo..=hi`; the message says what was expected (clap puts the option's
/// name and the value in front of it).
fn int_in(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let range = if hi == u64::MAX {
        format!("an integer ≥ {lo}")
    } else {
        format!("an integer from {lo} to {hi}")
    };
    let t = text.trim();
    let digits = |d: &str| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    match t.replace('_', "").parse::<u64>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) => Err(format!("out of range; expected {range}")),
        Err(_) if t.strip_prefix('-').is_some_and(digits) => {
            Err(format!("negative; expected {range}"))
        }
        Err(_) if digits(t) => Err(format!("too large; expected {range}")),
        Err(_) => Err(format!("not an integer; expected {range}")),
    }
}

/// Seeds, row ids and counts whose lower bounds are checked (with their context) later.
pub fn seed_arg(t: &str) -> Result<u64, String> {
    int_in(t, 0, u64::MAX)
}

/// `--scale`.
pub fn scale_arg(t: &str) -> Result<u64, String> {
    int_in(t, 1, u64::MAX).map_err(|e| format!("{e} (real rows per emulated row)"))
}

/// `--threads`.
pub fn threads_arg(t: &str) -> Result<u64, String> {
    int_in(t, 1, 256)
}

/// `--max-memory`: a size with units (`8GB`, `512MiB`), as the scenario's sizes are written.
pub fn memory_arg(t: &str) -> Result<u64, String> {
    match crate::units::parse_size(t.trim()) {
        Ok(0) => Err(format!("zero; expected {}", crate::units::SIZE_EXPECTED)),
        Ok(v) => Ok(v),
        Err(e) => Err(format!("{}; expected {}", e.problem, e.expected)),
    }
}

/// `keys --count`.
pub fn count_arg(t: &str) -> Result<u64, String> {
    int_in(t, 1, 100_000_000)
}

/// `check --sample-keys`.
pub fn sample_keys_arg(t: &str) -> Result<u64, String> {
    int_in(t, 0, 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_options_say_what_was_expected() {
        assert_eq!(seed_arg("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(scale_arg("1_000"), Ok(1000));
        assert_eq!(
            scale_arg("-1").unwrap_err(),
            "negative; expected an integer ≥ 1 (real rows per emulated row)"
        );
        assert_eq!(
            seed_arg("-1").unwrap_err(),
            "negative; expected an integer ≥ 0"
        );
        assert_eq!(
            seed_arg("18446744073709551616").unwrap_err(),
            "too large; expected an integer ≥ 0"
        );
        assert_eq!(
            threads_arg("0").unwrap_err(),
            "out of range; expected an integer from 1 to 256"
        );
        assert_eq!(
            count_arg("x").unwrap_err(),
            "not an integer; expected an integer from 1 to 100000000"
        );
    }
}

/// The knobs every emulating command shares (`run`, `test`, `sweep`).
#[derive(Debug, Clone, Default, Args)]
pub struct EmulationArgs {
    /// Worker threads (default: the machine's cores). Results do not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = threads_arg)]
    pub threads: Option<u64>,
    /// Real rows per emulated row (1 = exact; default: the scenario's, else chosen automatically).
    #[arg(long, allow_negative_numbers = true, value_parser = scale_arg)]
    pub scale: Option<u64>,
    /// Refuse before running when a run's memory estimate exceeds SIZE (default: 80 % of
    /// MemAvailable, or 8 GiB where /proc/meminfo cannot be read).
    #[arg(long, value_name = "SIZE", allow_negative_numbers = true, value_parser = memory_arg)]
    pub max_memory: Option<u64>,
    /// Run on the reference engine: the same model without its speed-ups (rows one at a
    /// time, each key made on its own, routing by binary search, flushes by the standard
    /// sort). Many times slower; its report is byte-identical, a check on a figure you doubt.
    #[arg(long)]
    pub reference: bool,
}

impl EmulationArgs {
    /// `--threads`, else the machine's cores.
    pub fn threads(&self) -> usize {
        self.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |t| t as usize,
        )
    }
}
