//! A user-defined rowkey design plugged into hbase-emu: `[tenant:2 BE][Long.MAX_VALUE - ts:8 BE]`.
//!
//! Run with `cargo run --example custom_generator`. Keys print in HBase shell notation
//! (`Bytes.toStringBinary`).

use hbase_emu::keygen::rng;
use hbase_emu::keygen::{MAX_ROW_LENGTH, RowKeyGenerator};
use hbase_emu::keynotation::to_string_binary;

/// Tenant id drawn from the seed, then a reversed timestamp so a tenant's newest rows come first.
struct TenantReverseTs {
    seed: u64,
    tenants: u64,
    start_ms: u64,
}

impl RowKeyGenerator for TenantReverseTs {
    fn key_into(&self, id: u64, out: &mut Vec<u8>) {
        // Pure function of (seed, id): a counter-based draw, never a shared RNG.
        let tenant = rng::below(rng::draw(self.seed, 1, id), self.tenants) as u16;
        let ts = self.start_ms + id * 10; // one row every 10 ms
        out.extend_from_slice(&tenant.to_be_bytes());
        out.extend_from_slice(&(i64::MAX as u64 - ts).to_be_bytes());
    }

    fn describe(&self) -> String {
        format!("[tenant 0..{}:2 BE][Long.MAX_VALUE-ts:8 BE]", self.tenants)
    }
}

fn main() {
    let g = TenantReverseTs {
        seed: 42,
        tenants: 50,
        start_ms: 1_767_225_600_000,
    };
    println!("{}", g.describe());
    let mut key = Vec::new();
    for id in 0..5 {
        key.clear();
        g.key_into(id, &mut key);
        assert!(!key.is_empty() && key.len() <= MAX_ROW_LENGTH);
        println!("{id:>3}  {}", to_string_binary(&key));
    }
}
