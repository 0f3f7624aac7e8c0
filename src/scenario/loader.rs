//! The loader's topology and loop (`[client] clients`, `partition`, `loop`, and the same fields
//! on a `[[generator]]`): how many HBase clients write the rows, which rows each one writes, and
//! whether each offers rows at its share of the rate (open loop) or waits for each request
//! before the next (closed loop, as YCSB's threads). docs/MODEL.md, "Loaders".

use std::ops::Range;

use crate::keygen::GeneratorSpec;

/// Which rows each client writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partition {
    /// One client; its writers share its buffers (`clients = 1`, the default).
    Shared,
    /// Every client takes the next row when it is ready: application servers behind a load
    /// balancer, YCSB threads drawing from one key counter.
    NextRow,
    /// Client i writes the i-th contiguous slice of the rows in input order: a map-only Spark
    /// or MapReduce job over input splits.
    InputSplit,
    /// Client i writes the i-th key range, its bounds sampled from the keys (a total-order
    /// partitioner, Spark's `repartitionByRange`).
    KeyRange,
    /// Each key group of the layout (salt bucket, tenant prefix) belongs to one client, groups
    /// dealt to clients in key order: a job partitioned by bucket, a fleet by tenant.
    KeyGroup,
}

/// What `partition` accepts.
pub const PARTITION_EXPECTED: &str =
    "\"next_row\", \"input_split\", \"key_range\" or \"key_group\"";
/// What `loop` accepts.
pub const LOOP_EXPECTED: &str = "\"open\" or \"closed\"";
/// Most clients a loader may have.
pub const MAX_CLIENTS: u64 = 4096;
/// `[client] request_time` when absent, µs: an assumption, one network round trip and a WAL
/// append through a three-node HDFS pipeline (docs/MODEL.md, "Loaders").
pub const DEFAULT_REQUEST_US: u64 = 1_000;

impl Partition {
    fn parse(s: &str) -> Option<Partition> {
        Some(match s {
            "next_row" => Partition::NextRow,
            "input_split" => Partition::InputSplit,
            "key_range" => Partition::KeyRange,
            "key_group" => Partition::KeyGroup,
            _ => return None,
        })
    }

    /// As the scenario writes it.
    pub fn name(self) -> &'static str {
        match self {
            Partition::Shared => "shared",
            Partition::NextRow => "next_row",
            Partition::InputSplit => "input_split",
            Partition::KeyRange => "key_range",
            Partition::KeyGroup => "key_group",
        }
    }
}

/// A design's loader, validated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loader {
    /// HBase clients (each its own `BufferedMutator` and `AsyncProcess`), or closed-loop
    /// threads.
    pub clients: u64,
    /// Which rows each client writes.
    pub partition: Partition,
    /// Each client waits for its request before sending the next (closed loop); otherwise it
    /// offers rows at its share of `workload.rate`.
    pub closed: bool,
    /// Closed loop: a request carries a write buffer of rows (YCSB's `clientbuffering`), not
    /// one row.
    pub buffered: bool,
    /// Closed loop: a request's time beyond the servers' write path, µs (an assumption).
    pub request_us: u64,
}

impl Default for Loader {
    fn default() -> Loader {
        Loader {
            clients: 1,
            partition: Partition::Shared,
            closed: false,
            buffered: false,
            request_us: DEFAULT_REQUEST_US,
        }
    }
}

/// A loader field's error: where, which field, what is wrong, what was expected.
pub type FieldError = (Range<usize>, &'static str, String, String);

impl Loader {
    /// The one shared open-loop client of every run before loaders existed: the engine's own
    /// single-stream path.
    pub fn is_shared(&self) -> bool {
        self.clients == 1 && !self.closed
    }

    /// With `clients`, `partition` and `loop` as written (`None`: keep this loader's).
    pub fn with(
        &self,
        clients: Option<(u64, Range<usize>)>,
        partition: Option<(&str, Range<usize>)>,
        closed: Option<(&str, Range<usize>)>,
        scope: Scope,
    ) -> Result<Loader, FieldError> {
        let mut out = *self;
        if let Some((n, span)) = clients {
            if !(1..=MAX_CLIENTS).contains(&n) {
                return Err((
                    span,
                    scope.field("clients"),
                    format!("{n} clients"),
                    format!("a whole number in 1..={MAX_CLIENTS}"),
                ));
            }
            out.clients = n;
        }
        if let Some((text, span)) = closed {
            out.closed = match text {
                "open" => false,
                "closed" => true,
                other => {
                    return Err((
                        span,
                        scope.field("loop"),
                        format!("unknown loop {other:?}"),
                        LOOP_EXPECTED.to_string(),
                    ));
                }
            };
        }
        match partition {
            Some((text, span)) => {
                let Some(p) = Partition::parse(text) else {
                    return Err((
                        span,
                        scope.field("partition"),
                        format!("unknown partition {text:?}"),
                        PARTITION_EXPECTED.to_string(),
                    ));
                };
                out.partition = p;
            }
            None if out.partition == Partition::Shared && !out.is_shared() => {
                // More than one client, or a closed loop: each takes the next row.
                out.partition = Partition::NextRow;
            }
            None => {}
        }
        if out.clients == 1 && !out.closed {
            out.partition = Partition::Shared;
        }
        Ok(out)
    }

    /// `spec`'s own loader: this one (the `[client]` section's) with the design's fields.
    pub fn for_design(&self, spec: &GeneratorSpec) -> Result<Loader, FieldError> {
        let mut out = self.with(
            spec.clients.as_ref().map(|n| (*n.get_ref(), n.span())),
            spec.partition.as_ref().map(text),
            spec.r#loop.as_ref().map(text),
            Scope::Generator,
        )?;
        if let Some(b) = &spec.buffering {
            out.buffered = *b.get_ref();
        }
        Ok(out)
    }

    /// Writer threads of each client: open-loop clients split the loader's writers (at least
    /// one each); a closed-loop client is one thread.
    pub fn writers_per_client(&self, writers: u64) -> u64 {
        if self.closed {
            1
        } else {
            (writers / self.clients).max(1)
        }
    }

    /// In words, for `check` and the reports.
    pub fn describe(&self, writers: u64) -> String {
        if self.is_shared() {
            return format!("one shared client, {writers} writers, open loop");
        }
        let what = match self.partition {
            Partition::Shared | Partition::NextRow => "each taking the next row",
            Partition::InputSplit => "each writing its slice of the input",
            Partition::KeyRange => "each writing its key range",
            Partition::KeyGroup => "each writing its key groups",
        };
        if self.closed {
            format!(
                "{} closed-loop threads {what}, {} per request (request time {} assumed)",
                self.clients,
                if self.buffered {
                    "a write buffer"
                } else {
                    "one row"
                },
                crate::units::format_duration_us(self.request_us)
            )
        } else {
            format!(
                "{} clients {what}, {} writers each, open loop",
                self.clients,
                self.writers_per_client(writers)
            )
        }
    }
}

/// A text field's value and span.
pub(crate) fn text(s: &toml::Spanned<String>) -> (&str, Range<usize>) {
    (s.get_ref().as_str(), s.span())
}

/// Where a loader field is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// `[client]`.
    Client,
    /// A `[[generator]]`.
    Generator,
}

impl Scope {
    fn field(self, name: &str) -> &'static str {
        match (self, name) {
            (Scope::Client, "clients") => "client.clients",
            (Scope::Client, "partition") => "client.partition",
            (Scope::Client, _) => "client.loop",
            (Scope::Generator, "clients") => "generator.clients",
            (Scope::Generator, "partition") => "generator.partition",
            (Scope::Generator, _) => "generator.loop",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_open_client_is_the_shared_client() {
        let l = Loader::default();
        assert!(l.is_shared());
        let l = l
            .with(
                Some((1, 0..1)),
                Some(("key_range", 0..1)),
                None,
                Scope::Client,
            )
            .unwrap();
        assert_eq!(l.partition, Partition::Shared);
    }

    #[test]
    fn several_clients_take_the_next_row_unless_told() {
        let l = Loader::default()
            .with(Some((8, 0..1)), None, None, Scope::Client)
            .unwrap();
        assert_eq!((l.clients, l.partition), (8, Partition::NextRow));
        let g = l
            .with(None, Some(("key_group", 0..1)), None, Scope::Generator)
            .unwrap();
        assert_eq!(g.partition, Partition::KeyGroup);
        let c = Loader::default()
            .with(None, None, Some(("closed", 0..1)), Scope::Client)
            .unwrap();
        assert!(c.closed && !c.is_shared());
        assert_eq!(c.partition, Partition::NextRow);
    }

    #[test]
    fn bad_fields_name_themselves() {
        let e = Loader::default()
            .with(Some((0, 3..4)), None, None, Scope::Generator)
            .unwrap_err();
        assert_eq!((e.0, e.1), (3..4, "generator.clients"));
        let e = Loader::default()
            .with(None, Some(("buckets", 5..9)), None, Scope::Client)
            .unwrap_err();
        assert_eq!(e.1, "client.partition");
        assert!(e.3.contains("key_group"));
        let e = Loader::default()
            .with(None, None, Some(("half", 0..1)), Scope::Client)
            .unwrap_err();
        assert_eq!(e.1, "client.loop");
    }

    #[test]
    fn open_clients_split_the_writers() {
        let l = Loader::default()
            .with(Some((24, 0..1)), None, None, Scope::Client)
            .unwrap();
        assert_eq!(l.writers_per_client(32), 1);
        assert_eq!(l.writers_per_client(96), 4);
    }
}
