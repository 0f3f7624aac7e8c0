//! Fuzz target: arbitrary bytes through the `import_csv` reader (`hbase_emu::hostile::feed`, the
//! entry point the property tests in tests/it/hostile_props.rs use too).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = hbase_emu::hostile::feed("import_csv", data);
});
