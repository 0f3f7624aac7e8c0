//! Human units for sizes, rates, durations and counts.
//!
//! Sizes are **binary**: 1 KB = 1 KiB = 1024 bytes, 1 TB = 2^40 bytes, the way HBase operators
//! reason ("4 TB / 2 GB = 2048 regions") and the way Hadoop's `Configuration.getLongBytes` reads
//! `k/m/g/t/p` suffixes. Plain integers are bytes. Fractions are allowed ("1.5GB") and rounded
//! down to whole bytes.

/// Why a unit string was rejected; the caller adds the place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitError {
    /// What is wrong.
    pub problem: String,
    /// What would be accepted.
    pub expected: &'static str,
}

/// What a size may look like, for error messages.
pub const SIZE_EXPECTED: &str =
    "a byte count such as 134217728, 64KB, 2GB, 1.5TiB (binary units: 1 KB = 1024 B)";
/// What a duration may look like.
pub const DURATION_EXPECTED: &str = "a duration such as 500ms, 90s, 15m, 1h, 7d";
/// What a rate may look like.
pub const RATE_EXPECTED: &str = "a byte rate such as 1GB/s, 200MB/s or 50MiB/s";
/// What a count may look like.
pub const COUNT_EXPECTED: &str =
    "a whole number such as 100000000, 100_000_000, 100M or 4.3G (decimal k/M/G/T)";

fn err(problem: impl Into<String>, expected: &'static str) -> UnitError {
    UnitError {
        problem: problem.into(),
        expected,
    }
}

/// Splits "  12.5 GB " into ("12.5", "GB").
fn split_number(s: &str) -> (&str, &str) {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_digit() || c == '.' || c == '_' || c == '-' || c == '+'))
        .map_or(s.len(), |(i, _)| i);
    (s[..end].trim(), s[end..].trim())
}

/// Parses the numeric part exactly: an integer part and an optional fraction, scaled by `mult`.
fn scaled(num: &str, mult: u128, what: &str, expected: &'static str) -> Result<u64, UnitError> {
    scaled_exact(num, mult, what, expected).map(|(v, _)| v)
}

/// [`scaled`], also saying whether the result is exact (no fraction was rounded away).
fn scaled_exact(
    num: &str,
    mult: u128,
    what: &str,
    expected: &'static str,
) -> Result<(u64, bool), UnitError> {
    let num: String = num.chars().filter(|&c| c != '_').collect();
    if num.starts_with('-') {
        return Err(err(
            format!("{what} must not be negative, got `{num}`"),
            expected,
        ));
    }
    let num = num.strip_prefix('+').unwrap_or(&num);
    let (int, frac) = match num.split_once('.') {
        Some((i, f)) => (i, f),
        None => (num, ""),
    };
    if int.is_empty() && frac.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(err(format!("`{num}` is not a number"), expected));
    }
    let too_big = || {
        err(
            format!("{what} `{num}` is too large (limit 2^63-1)"),
            expected,
        )
    };
    let int_v: u128 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| too_big())?
    };
    let mut total = int_v.checked_mul(mult).ok_or_else(too_big)?;
    let mut exact = true;
    if !frac.is_empty() {
        // Exact decimal fraction times mult, rounded down.
        let digits = frac.len().min(30) as u32;
        let f: u128 = frac[..digits as usize].parse().map_err(|_| too_big())?;
        let scaled = f.checked_mul(mult).ok_or_else(too_big)?;
        total += scaled / 10u128.pow(digits);
        exact =
            scaled % 10u128.pow(digits) == 0 && frac[digits as usize..].bytes().all(|b| b == b'0');
    }
    if total > i64::MAX as u128 {
        return Err(too_big());
    }
    Ok((total as u64, exact))
}

/// Parses a size in bytes: `134217728`, `64KB`, `2 GB`, `2GiB`, `1.5TB`, `10g` (binary units).
pub fn parse_size(s: &str) -> Result<u64, UnitError> {
    let (num, unit) = split_number(s);
    if num.is_empty() {
        return Err(err(format!("`{}` is not a size", s.trim()), SIZE_EXPECTED));
    }
    // `Gb`, `Mb`: network notation for bits, 8× less than the bytes every size here means.
    if let [p, b'b'] = unit.as_bytes()
        && b"KMGTP".contains(p)
    {
        return Err(err(
            format!(
                "`{unit}` reads as bits; sizes and rates are in bytes (write `{}B`)",
                *p as char
            ),
            SIZE_EXPECTED,
        ));
    }
    let shift = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        "p" | "pb" | "pib" => 50,
        _ => return Err(err(format!("unknown size unit `{unit}`"), SIZE_EXPECTED)),
    };
    scaled(num, 1u128 << shift, "size", SIZE_EXPECTED)
}

/// Parses a byte rate: `1GB/s`, `200 MB/s`, `50MiB/s` (bytes per second).
pub fn parse_rate(s: &str) -> Result<u64, UnitError> {
    let t = s.trim();
    let Some(size) = t.strip_suffix("/s").or_else(|| t.strip_suffix("/sec")) else {
        return Err(err(format!("`{t}` has no `/s`"), RATE_EXPECTED));
    };
    parse_size(size).map_err(|e| err(e.problem, RATE_EXPECTED))
}

/// Parses a duration into milliseconds: `500ms`, `90s`, `15m`, `15min`, `1h`, `7d`, `1.5h`.
pub fn parse_duration_ms(s: &str) -> Result<u64, UnitError> {
    let (num, unit) = split_number(s);
    if num.is_empty() {
        return Err(err(
            format!("`{}` is not a duration", s.trim()),
            DURATION_EXPECTED,
        ));
    }
    let mult: u128 = match unit.to_ascii_lowercase().as_str() {
        "ms" => 1,
        "s" | "sec" => 1_000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        "" => return Err(err(format!("`{num}` has no unit"), DURATION_EXPECTED)),
        _ => {
            return Err(err(
                format!("unknown duration unit `{unit}`"),
                DURATION_EXPECTED,
            ));
        }
    };
    scaled(num, mult, "duration", DURATION_EXPECTED)
}

/// Parses a short duration into microseconds: `800us`, `0.5ms`, `2ms`, `1s`.
pub fn parse_duration_us(s: &str) -> Result<u64, UnitError> {
    let (num, unit) = split_number(s);
    if num.is_empty() {
        return Err(err(
            format!("`{}` is not a duration", s.trim()),
            SHORT_DURATION_EXPECTED,
        ));
    }
    let mult: u128 = match unit.to_ascii_lowercase().as_str() {
        "us" | "µs" => 1,
        "ms" => 1_000,
        "s" | "sec" => 1_000_000,
        "" => {
            return Err(err(format!("`{num}` has no unit"), SHORT_DURATION_EXPECTED));
        }
        _ => {
            return Err(err(
                format!("unknown duration unit `{unit}`"),
                SHORT_DURATION_EXPECTED,
            ));
        }
    };
    scaled(num, mult, "duration", SHORT_DURATION_EXPECTED)
}

/// What [`parse_duration_us`] accepts.
pub const SHORT_DURATION_EXPECTED: &str = "a duration like \"800us\", \"0.5ms\" or \"2ms\"";

/// Formats microseconds for people: `850 µs`, `1.25 ms`, `12.5 s` (longer: as
/// [`format_duration_ms`]).
pub fn format_duration_us(us: u64) -> String {
    match us {
        0..1_000 => format!("{us} µs"),
        1_000..1_000_000 => format!("{:.2} ms", us as f64 / 1000.0),
        _ => format_duration_ms(us / 1000),
    }
}

/// Parses a count: `100000000`, `100_000_000`, `100M`, `4.3G` (decimal multipliers k, M, G, T).
pub fn parse_count(s: &str) -> Result<u64, UnitError> {
    let (num, unit) = split_number(s);
    if num.is_empty() {
        return Err(err(
            format!("`{}` is not a count", s.trim()),
            COUNT_EXPECTED,
        ));
    }
    let mult: u128 = match unit {
        "" => 1,
        "k" | "K" => 1_000,
        "M" => 1_000_000,
        "G" | "B" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        _ => {
            return Err(err(
                format!("unknown count suffix `{unit}`"),
                COUNT_EXPECTED,
            ));
        }
    };
    let (n, exact) = scaled_exact(num, mult, "count", COUNT_EXPECTED)?;
    if !exact {
        let written = s.trim();
        return Err(err(
            format!(
                "`{written}` is not a whole number: a count must be whole after its multiplier"
            ),
            COUNT_EXPECTED,
        ));
    }
    Ok(n)
}

/// Formats bytes for people: `2.00 GiB`, `512 B`. Binary units, two decimals.
pub fn format_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut v = b as f64 / 1024.0;
    let mut i = 0;
    // Roll over when two decimals would round up to 1024.00 (e.g. 1 GiB − 1 byte).
    while v >= 1023.995 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    format!("{v:.2} {}", UNITS[i])
}

/// Formats milliseconds for people: `850 ms`, `12.5 s`, `3m 20s`, `2h 05m`, `3d 04h`.
pub fn format_duration_ms(ms: u64) -> String {
    let s = ms / 1000;
    match ms {
        0..1_000 => format!("{ms} ms"),
        1_000..60_000 => format!("{:.1} s", ms as f64 / 1000.0),
        60_000..3_600_000 => format!("{}m {:02}s", s / 60, s % 60),
        3_600_000..86_400_000 => format!("{}h {:02}m", s / 3600, (s % 3600) / 60),
        _ => format!("{}d {:02}h", s / 86_400, (s % 86_400) / 3600),
    }
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 row`, `2 rows`, `1,000 rows`: a count with its noun, singular for exactly one.
pub fn count_of(n: u128, singular: &str, plural: &str) -> String {
    if n == 1 {
        format!("1 {singular}")
    } else {
        format!("{} {plural}", thousands(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_binary() {
        assert_eq!(parse_size("134217728"), Ok(134_217_728));
        assert_eq!(parse_size("64KB"), Ok(65_536));
        assert_eq!(parse_size("2GB"), Ok(2 << 30));
        assert_eq!(parse_size("2 GiB"), Ok(2 << 30));
        assert_eq!(parse_size("4TB"), Ok(4 << 40));
        assert_eq!(parse_size("10g"), Ok(10 << 30));
        assert_eq!(parse_size("1.5KB"), Ok(1536));
        assert_eq!(parse_size("1_024"), Ok(1024));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size("2 gb"), Ok(2 << 30));
    }

    #[test]
    fn bit_notation_is_rejected() {
        for s in ["1Gb", "100 Mb", "8Kb"] {
            let e = parse_size(s).expect_err(s);
            assert!(e.problem.contains("reads as bits"), "{s}: {}", e.problem);
        }
        assert!(parse_rate("1Gb/s").is_err());
    }

    #[test]
    fn bad_sizes_say_why() {
        assert!(
            parse_size("2XB")
                .unwrap_err()
                .problem
                .contains("unknown size unit `XB`")
        );
        assert!(parse_size("-5GB").unwrap_err().problem.contains("negative"));
        assert!(parse_size("GB").unwrap_err().problem.contains("not a size"));
        assert!(parse_size("9EB").is_err());
        assert!(
            parse_size("99999999999PB")
                .unwrap_err()
                .problem
                .contains("too large")
        );
        assert!(parse_size("1.2.3GB").is_err());
    }

    #[test]
    fn rates_durations_counts() {
        assert_eq!(parse_rate("1GB/s"), Ok(1 << 30));
        assert_eq!(parse_rate("200 MB/s"), Ok(200 << 20));
        assert!(parse_rate("1GB").is_err());
        assert_eq!(parse_duration_ms("500ms"), Ok(500));
        assert_eq!(parse_duration_ms("90s"), Ok(90_000));
        assert_eq!(parse_duration_ms("1.5h"), Ok(5_400_000));
        assert_eq!(parse_duration_ms("7d"), Ok(604_800_000));
        assert!(parse_duration_ms("15").is_err());
        assert_eq!(parse_count("100M"), Ok(100_000_000));
        assert_eq!(parse_count("100_000_000"), Ok(100_000_000));
        assert_eq!(parse_count("4.3G"), Ok(4_300_000_000));
        assert!(parse_count("10 apples").is_err());
    }

    #[test]
    fn formatting() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(2 << 30), "2.00 GiB");
        // Values that round to 1024.00 of a unit roll over to the next one.
        assert_eq!(format_bytes((1 << 30) - 1), "1.00 GiB");
        assert_eq!(format_bytes((1 << 20) - 1), "1.00 MiB");
        assert_eq!(format_bytes(1023), "1023 B");
    }

    #[test]
    fn counts_must_be_whole() {
        assert_eq!(parse_count("4.3G"), Ok(4_300_000_000));
        assert_eq!(parse_count("1.5k"), Ok(1_500));
        assert_eq!(parse_count("2.000"), Ok(2));
        for bad in ["1.5", "1.2345k", "0.5", "1.0000000001G"] {
            let e = parse_count(bad).unwrap_err();
            assert!(e.problem.contains("whole"), "{bad}: {e:?}");
        }
        assert_eq!(format_duration_ms(1500), "1.5 s");
        assert_eq!(format_duration_ms(200_000), "3m 20s");
    }

    #[test]
    fn count_of_uses_the_singular_for_one() {
        assert_eq!(super::count_of(1, "row", "rows"), "1 row");
        assert_eq!(super::count_of(0, "row", "rows"), "0 rows");
        assert_eq!(super::count_of(1000, "region", "regions"), "1,000 regions");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(4_294_967_296), "4,294,967,296");
    }
}
