//! Issue 33: arbitrary bytes and arbitrary UTF-8 through every reader of user input
//! (`hbase_emu::hostile::feed`, the fuzz targets' entry point): an error or a result, never a
//! panic. Sized for CI (`PROPTEST_CASES=N` searches deeper); the fuzz targets in fuzz/ search
//! far longer.

use hbase_emu::hostile::{READERS, feed};
use proptest::prelude::*;

use crate::common::proptest_config;

/// Text near each reader's grammar, so mutations reach past the first token.
fn seed_text(reader: &str) -> &'static str {
    match reader {
        "scenario" => {
            "name = \"s\"\n[cluster]\nregionservers = 3\n[table]\nname = \"t\"\n[workload]\n\
             rows = 1000\n[[generator]]\nname = \"g\"\nkind = \"uniform\"\n"
        }
        "site_xml" => {
            "<configuration><property><name>hbase.hregion.max.filesize</name>\
             <value>1GB</value></property></configuration>"
        }
        "import_csv" => {
            "start,end,server,store_bytes,store_files\n,m,rs1,1GB,1\nm,,rs2,\"2.0GB\",1\n"
        }
        "import_list_regions" => {
            " SERVER_NAME | REGION_NAME | START_KEY | END_KEY | SIZE | REQ | LOCALITY |\n \
             ---------- | ---------- | --- | --- | --- | --- | --- |\n \
             rs1,1,2 | t,,1.0123456789abcdef0123456789abcdef. | | m | 1.0MB | 1 | 1.0 |\n 1 rows\n"
        }
        "import_jmx" => {
            "{\"beans\": [{\"name\": \"Hadoop:service=HBase,name=RegionServer,sub=Regions\", \
             \"Namespace_default_table_t_region_0123456789abcdef0123456789abcdef_metric_storeFileSize\": 5}]}"
        }
        "sweep_json" => {
            "{\"schema_version\": 1, \"scenario\": \"s\", \"scenario_md5\": \"m\", \"seed\": 1, \
             \"scale\": null, \"designs\": [\"a\"], \"keys\": [\"servers\"], \"values\": [[1]], \
             \"points_total\": 1, \"points\": [{\"index\": 0, \"values\": [1], \"designs\": \
             [{\"generator\": \"a\", \"figures\": {\"summary.splits\": 1.5}}]}]}"
        }
        "report_json" => "{\"schema_version\": 1, \"runs\": []}",
        _ => "a\nb\\x00c\n0f1e\n",
    }
}

/// `text` with `edits` applied: (position fraction, replacement).
fn mutate(text: &str, edits: &[(f64, String)]) -> String {
    let mut t = text.to_string();
    for (at, with) in edits {
        let mut i = ((t.len() as f64) * at) as usize;
        while !t.is_char_boundary(i) {
            i -= 1;
        }
        let end = (i + with.len().min(3)).min(t.len());
        let mut end = end;
        while !t.is_char_boundary(end) {
            end += 1;
        }
        t.replace_range(i..end, with);
    }
    t
}

proptest! {
    #![proptest_config(proptest_config(48))]

    #[test]
    fn arbitrary_bytes_never_panic(reader in 0..READERS.len(), bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = feed(READERS[reader], &bytes);
    }

    #[test]
    fn arbitrary_text_never_panics(reader in 0..READERS.len(), text in "(\\PC|\n|é|\"|,|\\|){0,400}") {
        let _ = feed(READERS[reader], text.as_bytes());
    }

    #[test]
    fn mutated_inputs_never_panic(
        reader in 0..READERS.len(),
        edits in prop::collection::vec((0.0..1.0f64, "(\\PC|\n|é|\"|,|\\||\\[|\\]|\\{|\\}|0|-|9{20}){0,6}"), 1..5),
        long in any::<bool>(),
    ) {
        let mut text = mutate(seed_text(READERS[reader]), &edits);
        if long {
            // A long line: errors on it are shown as a window.
            text = text.replacen('\n', &format!("{}\n", "é".repeat(120)), 1);
        }
        let _ = feed(READERS[reader], text.as_bytes());
    }
}

/// The seed texts are accepted (so mutations start from valid input), except where a reader
/// needs more than one small text holds.
#[test]
fn the_seed_texts_are_accepted() {
    for r in [
        "scenario",
        "site_xml",
        "import_csv",
        "sweep_json",
        "keys_file",
    ] {
        assert!(
            feed(r, seed_text(r).as_bytes()).is_ok(),
            "{r}: {:?}",
            feed(r, seed_text(r).as_bytes())
        );
    }
}

/// Regressions of issue 33 through the same entry point: an invalid byte on a long line of
/// every text reader, and a sweep point missing its value.
#[test]
fn issue_33_cases_are_errors_not_panics() {
    let mut long = vec![b'a'; 300];
    long[200] = 0xff;
    for r in READERS {
        assert!(feed(r, &long).is_err(), "{r}");
    }
    let missing = seed_text("sweep_json").replace("\"values\": [1]", "\"values\": []");
    let e = feed("sweep_json", missing.as_bytes()).unwrap_err();
    assert!(e.contains("points[0].values"), "{e}");
}
