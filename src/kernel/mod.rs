//! Every CPU-specific kernel and every `unsafe` block of the crate, behind safe functions.
//!
//! The rest of the crate asks [`active`] which kernel set runs and calls the kernels through
//! the tokens [`Avx512`] and [`Avx2`]: a token exists only where the CPU has its features, so
//! the kernels' methods on it (x86-64 only) are safe to call. The CPU is probed once ([`cpu`]); the
//! environment variable [`ENV_VAR`] (`HBASE_EMU_KERNELS=scalar`) forces the scalar kernels
//! everywhere, `auto` (the default) takes the widest set the CPU runs. Every kernel equals its
//! scalar form bit for bit, so the choice changes speed only, never a report.
//!
//! Submodules, one concern each: [`md5`] (multi-buffer MD5 lanes), [`hex`] (`hashed` keys
//! formatted from digest heads), [`clock`] (the per-row clock's draws and sums), [`select`]
//! (the flush's key-selection copy pass), [`prefetch`] (cache hints), [`buf`] (vectors filled
//! in their spare capacity).

pub mod buf;
pub mod clock;
pub mod hex;
pub mod md5;
pub mod prefetch;
pub mod select;

use std::fmt;
use std::sync::OnceLock;

/// The environment variable that picks the kernel set: `auto` (or unset) or `scalar`.
pub const ENV_VAR: &str = "HBASE_EMU_KERNELS";

/// A kernel set, from the plainest up; each includes the ones before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kernels {
    /// Plain Rust: no SIMD.
    Scalar,
    /// AVX2 (8 lanes of 32 bits).
    Avx2,
    /// AVX-512 with the F, BW, DQ and VL subsets (every AVX-512 CPU since Skylake-SP has all
    /// four), and AVX2.
    Avx512,
}

impl Kernels {
    /// The name `--version` and the JSON report print.
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Scalar => "scalar",
            Kernels::Avx2 => "avx2",
            Kernels::Avx512 => "avx512",
        }
    }

    /// The AVX-512 kernels, where this set includes them and the CPU runs them.
    #[inline]
    pub fn avx512(self) -> Option<Avx512> {
        (self >= Kernels::Avx512 && cpu() >= Kernels::Avx512).then(Avx512::proven)
    }

    /// The AVX2 kernels, where this set includes them and the CPU runs them.
    #[inline]
    pub fn avx2(self) -> Option<Avx2> {
        (self >= Kernels::Avx2 && cpu() >= Kernels::Avx2).then(Avx2::proven)
    }

    /// Every set this CPU runs, plainest first (tests run each).
    pub fn runnable() -> Vec<Kernels> {
        [Kernels::Scalar, Kernels::Avx2, Kernels::Avx512]
            .into_iter()
            .filter(|&k| k <= cpu())
            .collect()
    }
}

impl fmt::Display for Kernels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Proof that the CPU runs the [`Kernels::Avx512`] kernels: only [`Kernels::avx512`] makes one.
#[derive(Debug, Clone, Copy)]
pub struct Avx512(());

/// Proof that the CPU runs the [`Kernels::Avx2`] kernels: only [`Kernels::avx2`] makes one.
#[derive(Debug, Clone, Copy)]
pub struct Avx2(());

impl Avx512 {
    /// Only once [`cpu`] found the features.
    fn proven() -> Avx512 {
        Avx512(())
    }
}

impl Avx2 {
    /// Only once [`cpu`] found the features.
    fn proven() -> Avx2 {
        Avx2(())
    }
}

/// What the process runs: the CPU's widest set and the one chosen.
#[derive(Debug, Clone, Copy)]
struct Selection {
    cpu: Kernels,
    active: Kernels,
    /// [`ENV_VAR`] asked for `scalar`.
    forced: bool,
}

/// The one place the CPU is probed, and [`ENV_VAR`] read for the kernels' use.
fn selection() -> &'static Selection {
    static SELECTION: OnceLock<Selection> = OnceLock::new();
    SELECTION.get_or_init(|| {
        let cpu = detect();
        // An unknown value is refused by the binary before anything runs (`from_env`); a
        // library caller that did not ask gets the default.
        let forced = requested().ok().flatten();
        Selection {
            cpu,
            active: forced.map_or(cpu, |k| k.min(cpu)),
            forced: forced.is_some(),
        }
    })
}

/// The widest kernel set this CPU runs.
fn detect() -> Kernels {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx2") {
            if has!("avx512f") && has!("avx512bw") && has!("avx512dq") && has!("avx512vl") {
                return Kernels::Avx512;
            }
            return Kernels::Avx2;
        }
    }
    Kernels::Scalar
}

/// The set [`ENV_VAR`] asks for: `None` for `auto` (or unset).
fn requested() -> Result<Option<Kernels>, KernelsError> {
    let Some(value) = std::env::var_os(ENV_VAR) else {
        return Ok(None);
    };
    match value.to_str() {
        Some("auto") => Ok(None),
        Some("scalar") => Ok(Some(Kernels::Scalar)),
        _ => Err(KernelsError {
            value: value.to_string_lossy().into_owned(),
        }),
    }
}

/// [`ENV_VAR`] holds a value other than `auto` and `scalar`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelsError {
    /// The value found.
    pub value: String,
}

impl fmt::Display for KernelsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{ENV_VAR}={:?} is not a kernel choice: use `auto` (the widest kernels this CPU runs, \
             the default) or `scalar` (no SIMD kernels)",
            self.value
        )
    }
}

impl std::error::Error for KernelsError {}

/// Checks [`ENV_VAR`] and returns the kernel set the process runs; the binary calls it before
/// anything else, so that a mistyped value is an error instead of the default.
pub fn from_env() -> Result<Kernels, KernelsError> {
    requested()?;
    Ok(active())
}

/// The widest kernel set this CPU runs (whatever [`ENV_VAR`] says).
#[inline]
pub fn cpu() -> Kernels {
    selection().cpu
}

/// The kernel set every dispatch site uses.
#[inline]
pub fn active() -> Kernels {
    #[cfg(test)]
    if let Some(k) = SCOPED.get() {
        return k;
    }
    selection().active
}

/// The kernels for `--version`: the active set, and why when it is not the CPU's widest.
pub fn describe() -> String {
    let s = selection();
    if s.forced && s.active != s.cpu {
        format!(
            "{} (forced by {ENV_VAR}; this CPU runs {})",
            s.active, s.cpu
        )
    } else {
        s.active.name().to_string()
    }
}

#[cfg(test)]
thread_local! {
    /// [`scoped`]'s set for this thread.
    static SCOPED: std::cell::Cell<Option<Kernels>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with [`active`] returning `k` on this thread (unit tests run each kernel set;
/// tokens still need the CPU's features).
#[cfg(test)]
pub(crate) fn scoped<R>(k: Kernels, f: impl FnOnce() -> R) -> R {
    let before = SCOPED.replace(Some(k));
    let out = f();
    SCOPED.set(before);
    out
}

/// Runs `f` once under each kernel set this CPU runs ([`scoped`]), passing it the set.
#[cfg(test)]
pub(crate) fn for_each_runnable(mut f: impl FnMut(Kernels)) {
    for k in Kernels::runnable() {
        scoped(k, || f(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_follow_the_set_and_the_cpu() {
        assert!(Kernels::Scalar.avx512().is_none() && Kernels::Scalar.avx2().is_none());
        assert!(Kernels::Avx2.avx512().is_none());
        assert_eq!(Kernels::Avx2.avx2().is_some(), cpu() >= Kernels::Avx2);
        assert_eq!(Kernels::Avx512.avx512().is_some(), cpu() == Kernels::Avx512);
        assert_eq!(Kernels::Avx512.avx2().is_some(), cpu() >= Kernels::Avx2);
        assert!(active() <= cpu());
        assert_eq!(Kernels::runnable()[0], Kernels::Scalar);
        assert_eq!(*Kernels::runnable().last().unwrap(), cpu());
    }

    #[test]
    fn scoped_sets_active_on_this_thread_only() {
        let outer = active();
        scoped(Kernels::Scalar, || {
            assert_eq!(active(), Kernels::Scalar);
            assert!(active().avx2().is_none());
            std::thread::spawn(move || assert_eq!(active(), outer))
                .join()
                .unwrap();
        });
        assert_eq!(active(), outer);
    }

    #[test]
    fn the_error_names_the_variable_and_the_choices() {
        let e = KernelsError {
            value: "avx9".into(),
        };
        let text = e.to_string();
        assert!(text.starts_with("HBASE_EMU_KERNELS=\"avx9\""), "{text}");
        assert!(
            text.contains("`auto`") && text.contains("`scalar`"),
            "{text}"
        );
    }
}
