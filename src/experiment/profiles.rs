//! The named assumption profiles of `run --assumptions` (docs/CALIBRATION.md, "Assumption
//! profiles"): what each changes in the world around the regions. A leaf module, so the scenario
//! loader can validate `[cluster] assumptions` against it; `assumptions` applies the profiles.

/// The scenario's own settings.
pub const TYPICAL: &str = "typical";

/// What a profile does to the loader's writer count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writers {
    /// The scenario's count.
    Keep,
    /// At most this many.
    AtMost(u64),
    /// At least this many.
    AtLeast(u64),
}

/// One assumption profile. `None` fields keep the scenario's setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Profile {
    /// Name (`--assumptions` value).
    pub name: &'static str,
    /// Hardware profile (`[cluster] hardware`) replacing the scenario's, overrides included.
    pub hardware: Option<&'static str>,
    /// Loader writers.
    pub writers: Writers,
    /// At least this many threads in each compaction pool
    /// (`hbase.regionserver.thread.compaction.small` / `.large`).
    pub compaction_threads: Option<u32>,
    /// `[cluster] variability = "default"` (true) or `"none"` (false).
    pub variability: Option<bool>,
    /// `[bulk_load] task_rate` times num / den (a bulk load's job: its least known figure).
    pub bulk_task_rate: Option<(u64, u64)>,
    /// `[client] request_time` times num / den (a closed loop's request: assumed).
    pub request_time: Option<(u64, u64)>,
}

/// The profiles: the assumptions docs/CALIBRATION.md measured to move the figures most, set
/// one way for `low` (less capable nodes and loader) and the other way for `high`.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: TYPICAL,
        hardware: None,
        writers: Writers::Keep,
        compaction_threads: None,
        variability: None,
        bulk_task_rate: None,
        request_time: None,
    },
    // cloud-ebs: the largest measured slowdown (8 cores bound the puts per second); one writer:
    // the largest measured offline wait (one ordered stream stalls on every split); variability
    // on, as on a real cluster.
    Profile {
        name: "low",
        hardware: Some("cloud-ebs"),
        writers: Writers::AtMost(1),
        compaction_threads: None,
        variability: Some(true),
        // A bulk load's job at half the assumed task rate.
        bulk_task_rate: Some((1, 2)),
        // A closed loop's requests at twice the assumed time.
        request_time: Some((2, 1)),
    },
    // nvme (fastest disks, 25 GbE, 32 cores), 256 writers and two threads per compaction pool:
    // the largest measured lever on blocked time and on quiet-region sizes.
    Profile {
        name: "high",
        hardware: Some("nvme"),
        writers: Writers::AtLeast(256),
        compaction_threads: Some(2),
        variability: Some(true),
        // A bulk load's job at twice the assumed task rate (the node's disks and NIC still
        // bound it).
        bulk_task_rate: Some((2, 1)),
        // A closed loop's requests at half the assumed time.
        request_time: Some((1, 2)),
    },
];

/// The profile named `name`.
pub fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// The profile names, for error messages.
pub fn names() -> String {
    PROFILES
        .iter()
        .map(|p| format!("\"{}\"", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typical_changes_nothing_and_names_are_unique() {
        let t = profile(TYPICAL).unwrap();
        assert_eq!(
            (
                t.hardware,
                t.writers,
                t.compaction_threads,
                t.variability,
                t.bulk_task_rate,
                t.request_time
            ),
            (None, Writers::Keep, None, None, None, None)
        );
        for (i, p) in PROFILES.iter().enumerate() {
            assert!(PROFILES[..i].iter().all(|q| q.name != p.name), "{}", p.name);
        }
        assert!(names().contains("\"low\""));
        assert!(profile("medium").is_none());
    }
}
