//! Fuzz target: arbitrary bytes through the `site_xml` reader (`hbase_emu::hostile::feed`, the
//! entry point the property tests in tests/it/hostile_props.rs use too).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = hbase_emu::hostile::feed("site_xml", data);
});
