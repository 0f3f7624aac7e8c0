//! Column-family `COMPRESSION` (HBase's `Compression.Algorithm`, applied per HFile block by
//! `HFileBlock.Writer`): region size is the compressed on-disk length, so a compressed table
//! splits later; the codec's work slows the flush and compaction threads.

use hbase_emu::codec::Codec;
use hbase_emu::diag::SourceText;
use hbase_emu::report::run;
use hbase_emu::scenario;

/// A small splitting table: 1 GB of 1 KB rows at 10 MB/s, 64 MB regions, hashed keys. The
/// discharger runs every second: a daughter's compacted References block its next split until
/// archived, which at the default 2 minutes would be most of this load.
const TABLE: &str = r#"
schema_version = 1
name = "compressed"
seed = 5

[cluster]
regionservers = 2

[hbase]
"hbase.hfile.compaction.discharger.interval" = "1000"

[table]
name = "t"
max_filesize = "64MB"
memstore_flushsize = "16MB"
split_policy = "ConstantSizeRegionSplitPolicy"
FAMILY

[workload]
data = "1GB"
rate = "10MB/s"
row = { columns = 1, qualifier = "1B", value = "1KB" }
COMPRESSIBILITY

[[generator]]
name = "h"
kind = "hashed"
"#;

fn scenario(family: &str, compressibility: &str) -> String {
    TABLE
        .replace("FAMILY", family)
        .replace("COMPRESSIBILITY", compressibility)
}

fn report(text: &str) -> run::Report {
    crate::common::exact_report("c.toml", text)
}

fn load_err(text: &str) -> String {
    crate::common::load_error("c.toml", text)
}

/// `HRegion`'s split check reads store file lengths (`reader.length()`, compressed): SNAPPY
/// stores about a third of the bytes and the table splits into about a third of the regions.
#[test]
fn a_compressed_table_splits_by_its_on_disk_bytes_hfile_block() {
    let none = report(&scenario("", ""));
    let snappy = report(&scenario(
        "families = [{ name = \"f\", compression = \"SNAPPY\" }]",
        "",
    ));
    let (n, s) = (&none.runs[0].summary, &snappy.runs[0].summary);
    let fraction = Codec::Snappy.data_fraction(1.0);
    let stored = s.store_bytes as f64 / n.store_bytes as f64;
    assert!(
        (stored - fraction).abs() < 0.05,
        "stored {stored:.3} of NONE's, data blocks {fraction:.3}"
    );
    assert!(
        (s.regions_final as f64) < n.regions_final as f64 * 0.5,
        "SNAPPY {} regions, NONE {}",
        s.regions_final,
        n.regions_final
    );
    let c = &snappy.scenario.compression;
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].codec, "SNAPPY");
    assert!(c[0].compressibility_assumed);
    assert!(none.scenario.compression.is_empty(), "no codec, no entry");
}

/// `compressibility` 0 (encrypted or already compressed values) stores what NONE stores; a
/// measured `compression_ratio` wins over the codec's benchmark ratio; `[table] compression`
/// is every family's default.
#[test]
fn compressibility_and_a_measured_ratio_decide_the_bytes() {
    let load = |text: &str| {
        scenario::load_source(SourceText::from_string("c.toml", text.to_string()))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let random = load(&scenario("compression = \"ZSTD\"", "compressibility = 0.0"));
    let f = &random.table.families[0];
    assert_eq!(
        f.codec,
        Codec::Zstd,
        "[table] compression reaches the family"
    );
    assert_eq!(f.compression_ratio, 1.0);
    let measured = load(&scenario(
        "compression = \"GZ\"\nfamilies = [{ name = \"f\", compression = \"LZ4\", compression_ratio = 0.5 }]",
        "",
    ));
    let f = &measured.table.families[0];
    assert_eq!(f.codec, Codec::Lz4, "the family's own codec wins");
    assert_eq!(f.compression_ratio, 0.5);
    let half = load(&scenario(
        "families = [{ name = \"f\", compression = \"snappy\" }]",
        "compressibility = 0.5",
    ));
    assert!(
        (half.table.families[0].compression_ratio - Codec::Snappy.data_fraction(0.5)).abs() < 1e-12
    );
    assert!(half.warnings.is_empty(), "{:?}", half.warnings);
    // Without a codec, compressibility changes nothing, and the loader says so.
    let unused = load(&scenario("", "compressibility = 0.3"));
    assert!(
        unused
            .warnings
            .iter()
            .any(|w| w.contains("compressibility has no effect")),
        "{:?}",
        unused.warnings
    );
}

#[test]
fn unknown_codecs_and_compressibility_out_of_range_name_the_field() {
    let err = load_err(&scenario(
        "families = [{ name = \"f\", compression = \"LZO\" }]",
        "",
    ));
    assert!(
        err.contains("table.families.compression") && err.contains("SNAPPY"),
        "{err}"
    );
    let err = load_err(&scenario("compression = \"brotli\"", ""));
    assert!(err.contains("table.compression"), "{err}");
    let err = load_err(&scenario("", "compressibility = 1.5"));
    assert!(err.contains("workload.compressibility"), "{err}");
}

/// The codec's work on the threads: GZ compresses at about 25 MB/s, so its flushes and
/// compactions take longer than SNAPPY's on the same table: its work settles later.
#[test]
fn a_slow_codec_slows_flushes_and_compactions() {
    let text = |codec: &str| {
        scenario(
            &format!("families = [{{ name = \"f\", compression = \"{codec}\" }}]"),
            "",
        )
    };
    let snappy = report(&text("SNAPPY"));
    let gz = report(&text("GZ"));
    let bw = |r: &run::Report| r.scenario.compression[0].flush_bandwidth_bytes_per_s;
    assert!(bw(&gz) * 4 < bw(&snappy), "{} vs {}", bw(&gz), bw(&snappy));
    let settle = |r: &run::Report| r.runs[0].summary.settle_seconds;
    assert!(
        settle(&gz) > settle(&snappy),
        "{} vs {}",
        settle(&gz),
        settle(&snappy)
    );
}

/// The text and HTML reports say which codec ran and where its ratio comes from, on the same
/// line as the figure.
#[test]
fn reports_name_the_codec_and_its_ratio_source() {
    let path = crate::common::root().join("scenarios/classic-hash-10-regions.toml");
    let path = path.to_str().expect("UTF-8 path");
    let text = crate::common::run_ok(&["run", path, "--set", "table.compression=LZ4", "--quiet"]);
    assert!(
        text.contains("Codec     f LZ4: data blocks 29.8 % of raw")
            && text.contains("compressibility 1 assumed"),
        "{text}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("html");
    crate::common::run_ok(&[
        "run",
        path,
        "--set",
        "table.compression=LZ4",
        "--set",
        "workload.compressibility=0.5",
        "--format",
        "html",
        "--out",
        out.to_str().expect("UTF-8"),
    ]);
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(
        html.contains("Compression of family <code>f</code>: LZ4")
            && html.contains("compressibility 0.5"),
        "no codec line in the HTML report"
    );
}
