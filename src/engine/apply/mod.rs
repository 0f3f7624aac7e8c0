//! The appliers: the only code that changes the engine's state and schedules events. Each file
//! carries out one kind of work; the policies it asks live in `policy/`.

pub(crate) mod cluster;
mod compaction;
mod flush;
mod reads;
mod split;
mod write;
