//! Fuzz target: arbitrary bytes through the `keys_file_hex` reader (`hbase_emu::hostile::feed`, the
//! entry point the property tests in tests/it/hostile_props.rs use too).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = hbase_emu::hostile::feed("keys_file_hex", data);
});
