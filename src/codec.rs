//! Column-family compression codecs (`COMPRESSION`): what each does to a data block's bytes and
//! what it costs the flush and compaction threads, from published measurements
//! (docs/CALIBRATION.md, "Compression codecs").
//!
//! HBase compresses every block of an HFile on its own (`HFileBlock.Writer`), after the data
//! block encoding; a region's size, and so its splits, is the compressed on-disk length. How much
//! a codec saves depends wholly on the values, so the ratio is a workload property:
//! `[workload] compressibility` is the share of the data that compresses as the web text of
//! HBase's own codec benchmark does, the rest incompressible (encrypted, already compressed or
//! random bytes).

/// A `COMPRESSION` algorithm (`Compression.Algorithm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Codec {
    /// No compression (HBase's default).
    #[default]
    None,
    /// `SNAPPY`.
    Snappy,
    /// `LZ4`.
    Lz4,
    /// `ZSTD` at HBase's default level 3 (`hbase.io.compress.zstd.level`).
    Zstd,
    /// `GZ`: zlib (deflate) at level 6 (`zlib.compress.level`'s default).
    Gz,
}

/// What a codec achieves and costs, with where each figure was measured.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CodecFigures {
    /// Raw / compressed bytes of HFile data blocks of web text (each block compressed on its
    /// own): the HBase reference guide's compressor microbenchmark over 258 MB of data blocks
    /// loaded by `IntegrationLoadTestCommonCrawl`.
    pub ratio: f64,
    /// Bytes/s one thread compresses (input bytes).
    pub compress_bps: f64,
    /// Bytes/s one thread decompresses (output bytes).
    pub decompress_bps: f64,
}

/// The codecs `COMPRESSION` accepts here, by HBase's name.
pub const NAMES: &str = "NONE, SNAPPY, LZ4, ZSTD or GZ";

impl Codec {
    /// HBase's name (`Compression.Algorithm.getName`, upper case as the shell shows it).
    pub fn name(self) -> &'static str {
        match self {
            Codec::None => "NONE",
            Codec::Snappy => "SNAPPY",
            Codec::Lz4 => "LZ4",
            Codec::Zstd => "ZSTD",
            Codec::Gz => "GZ",
        }
    }

    /// Reads a name as the HBase shell does (any case).
    pub fn parse(name: &str) -> Option<Codec> {
        [
            Codec::None,
            Codec::Snappy,
            Codec::Lz4,
            Codec::Zstd,
            Codec::Gz,
        ]
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The codec's measured figures; `None` for NONE.
    ///
    /// Ratios and compression speeds of SNAPPY (xerial), LZ4 (lz4-java) and ZSTD level 3
    /// (zstd-jni): the HBase reference guide's "Compressor Microbenchmarks" (JMH, JDK 11, one
    /// thread; compression speed = 258,126,022 bytes / the reported time). GZ is not in that
    /// benchmark: its ratio is ZSTD's there times zlib-6 / zstd-3 on the Silesia corpus
    /// (3.106 / 3.180, lzbench), and its speeds are lzbench's zlib 1.3.1 level 6 on an AMD EPYC
    /// 9554. Decompression was not measured on HBase's data: lzbench's Silesia figures (LZ4
    /// 1.10.0, Snappy 1.2.1 and zlib on the EPYC 9554; zstd 1.5 level 3 on an i7-9700K).
    pub fn figures(self) -> Option<CodecFigures> {
        let f = |ratio: f64, compress_mb: f64, decompress_mb: f64| CodecFigures {
            ratio,
            compress_bps: compress_mb * 1e6,
            decompress_bps: decompress_mb * 1e6,
        };
        match self {
            Codec::None => None,
            Codec::Snappy => Some(f(3.197, 717.0, 1077.0)),
            Codec::Lz4 => Some(f(3.353, 852.0, 3716.0)),
            Codec::Zstd => Some(f(4.730, 308.0, 1347.0)),
            Codec::Gz => Some(f(4.730 * 3.106 / 3.180, 25.3, 344.0)),
        }
    }

    /// On-disk / raw bytes of a data block whose data is `compressibility` (0..=1) as
    /// compressible as the benchmark's: that share shrinks by the codec's ratio, the rest stays.
    /// 1.0 for NONE.
    pub fn data_fraction(self, compressibility: f64) -> f64 {
        match self.figures() {
            None => 1.0,
            Some(f) => {
                let c = compressibility.clamp(0.0, 1.0);
                (1.0 - c) + c / f.ratio
            }
        }
    }

    /// A flush thread's bytes/s (memstore bytes) once it also compresses what it writes:
    /// `1 / (1 / thread + 1 / compress)`. `thread_bps` itself for NONE.
    pub fn flush_bps(self, thread_bps: u64) -> u64 {
        match self.figures() {
            None => thread_bps,
            Some(f) => serial(thread_bps, &[f.compress_bps]),
        }
    }

    /// A compaction thread's bytes/s of on-disk bytes read once it also decompresses what it
    /// reads and compresses what it writes: each on-disk byte is `1 / fraction` raw bytes
    /// through both. `thread_bps` itself for NONE.
    pub fn compaction_bps(self, thread_bps: u64, fraction: f64) -> u64 {
        match self.figures() {
            None => thread_bps,
            Some(f) => {
                let raw_per_disk = 1.0 / fraction.clamp(f64::MIN_POSITIVE, 1.0);
                serial(
                    thread_bps,
                    &[
                        f.decompress_bps / raw_per_disk,
                        f.compress_bps / raw_per_disk,
                    ],
                )
            }
        }
    }
}

/// Stages one after another on one thread: the combined rate.
fn serial(thread_bps: u64, stages: &[f64]) -> u64 {
    let ns_per_byte: f64 =
        1.0 / thread_bps.max(1) as f64 + stages.iter().map(|s| 1.0 / s.max(1.0)).sum::<f64>();
    ((1.0 / ns_per_byte).round() as u64).clamp(1, thread_bps.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_in_any_case_as_the_hbase_shell_does() {
        assert_eq!(Codec::parse("snappy"), Some(Codec::Snappy));
        assert_eq!(Codec::parse(" ZSTD "), Some(Codec::Zstd));
        assert_eq!(Codec::parse("gz"), Some(Codec::Gz));
        assert_eq!(
            Codec::parse("LZO"),
            None,
            "LZO needs a GPL codec: not modelled"
        );
        assert_eq!(Codec::parse("none"), Some(Codec::None));
    }

    #[test]
    fn data_fraction_mixes_compressible_and_incompressible_bytes() {
        assert_eq!(Codec::None.data_fraction(1.0), 1.0);
        assert!((Codec::Snappy.data_fraction(1.0) - 1.0 / 3.197).abs() < 1e-12);
        assert_eq!(Codec::Zstd.data_fraction(0.0), 1.0);
        let half = Codec::Lz4.data_fraction(0.5);
        assert!((half - (0.5 + 0.5 / 3.353)).abs() < 1e-12);
        // The stronger codecs save more on the same data.
        let order: Vec<f64> = [Codec::Lz4, Codec::Snappy, Codec::Zstd]
            .iter()
            .map(|c| c.data_fraction(1.0))
            .collect();
        assert!(order[1] > order[0] && order[2] < order[0], "{order:?}");
    }

    #[test]
    fn codec_work_slows_flush_and_compaction_threads() {
        let mib100 = 100 << 20;
        assert_eq!(Codec::None.flush_bps(mib100), mib100);
        assert_eq!(Codec::None.compaction_bps(mib100, 1.0), mib100);
        // SNAPPY: 1 / (1/104.86 MB/s + 1/717 MB/s) = 91.5 MB/s.
        let flush = Codec::Snappy.flush_bps(mib100);
        assert!((91_400_000..91_600_000).contains(&flush), "{flush}");
        // GZ compresses at 25.3 MB/s: it bounds the flush.
        assert!(Codec::Gz.flush_bps(mib100) < 25_300_000);
        // A compaction reads 1 / fraction raw bytes per on-disk byte through both stages.
        let f = Codec::Snappy.data_fraction(1.0);
        let c = Codec::Snappy.compaction_bps(mib100, f);
        let want = 1.0 / (1.0 / 104_857_600.0 + 3.197 / 1077e6 + 3.197 / 717e6);
        assert!((c as f64 - want).abs() < 2.0, "{c} vs {want}");
        // Never faster than the thread.
        assert!(Codec::Lz4.compaction_bps(1000, 0.0001) <= 1000);
    }
}
