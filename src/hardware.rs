//! Named hardware profiles of a RegionServer node: disks, network and cores. A profile describes
//! hardware only, never HBase throughput: how many rows a server takes per second comes out of
//! the engine's resource model (`engine/policy/resources.rs`). docs/MODEL.md lists each figure and
//! where it comes from.

/// One node's hardware.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hardware {
    /// Profile name as the scenario gave it (after overrides: still the profile's name).
    pub profile: String,
    /// Data disks per node (the DataNode's volumes).
    pub disks: u32,
    /// Sequential write bandwidth of one disk under HDFS's concurrent streams, bytes/s.
    pub disk_bandwidth: u64,
    /// NIC bandwidth in each direction, bytes/s.
    pub network: u64,
    /// CPU cores (hardware threads) of the node.
    pub cores: u32,
}

/// The profile used when a scenario names none.
pub const DEFAULT_PROFILE: &str = "ssd";

const MB: u64 = 1_000_000;

/// The shipped profiles: (name, disks, per-disk MB/s (decimal), network Gbit/s, cores, source).
pub const PROFILES: &[(&str, u32, u64, u64, u32, &str)] = &[
    (
        "hdd",
        12,
        100,
        10,
        16,
        "12 × 7,200 rpm SATA (data sheets: ~200 MB/s outer tracks; ~100 MB/s with HDFS's concurrent streams), 10 GbE",
    ),
    (
        "ssd",
        4,
        450,
        10,
        16,
        "4 × SATA SSD (SATA III caps at ~550 MB/s; ~450 MB/s sustained write), 10 GbE",
    ),
    (
        "nvme",
        2,
        2000,
        25,
        32,
        "2 × data-center NVMe (~2 GB/s sustained sequential write each), 25 GbE",
    ),
    (
        "cloud-ebs",
        4,
        125,
        10,
        8,
        "AWS gp3 volumes at their 125 MiB/s baseline, 4 per node, an 8-vCPU instance with 10 Gbit/s",
    ),
];

impl Hardware {
    /// The named profile, or `None` for an unknown name.
    pub fn profile(name: &str) -> Option<Hardware> {
        PROFILES
            .iter()
            .find(|p| p.0 == name)
            .map(|&(n, disks, mbs, gbit, cores, _)| Hardware {
                profile: n.to_string(),
                disks,
                disk_bandwidth: mbs * MB,
                network: gbit * 1_000_000_000 / 8,
                cores,
            })
    }

    /// Names of the shipped profiles, for error messages.
    pub fn names() -> String {
        PROFILES.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
    }

    /// Where the profile's figures come from.
    pub fn source(&self) -> &'static str {
        PROFILES
            .iter()
            .find(|p| p.0 == self.profile)
            .map_or("", |p| p.5)
    }

    /// All disks' bandwidth together, bytes/s.
    pub fn disk_total(&self) -> u64 {
        u64::from(self.disks) * self.disk_bandwidth
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_resolves_and_the_default_exists() {
        for p in PROFILES {
            let h = Hardware::profile(p.0).expect("profile");
            assert!(h.disk_total() > 0 && h.network > 0 && h.cores > 0);
            assert!(!h.source().is_empty());
        }
        assert!(Hardware::profile(DEFAULT_PROFILE).is_some());
        assert!(Hardware::profile("floppy").is_none());
        let ssd = Hardware::profile("ssd").unwrap();
        assert_eq!(ssd.disk_total(), 1_800_000_000);
        assert_eq!(ssd.network, 1_250_000_000);
    }
}
