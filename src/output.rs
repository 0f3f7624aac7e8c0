//! Output writing for every command: standard output, or files written atomically, and the
//! output directories they go in.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use md5::{Digest, Md5};

use crate::diag::InputError;

/// Held while an output file exists under a temporary name; the signal thread takes it before
/// exiting, so SIGINT/SIGTERM never leave a temporary file behind.
static WRITING: Mutex<()> = Mutex::new(());

/// Installs (once) the SIGINT/SIGTERM handler: it waits for the file being written to be
/// complete (renamed into place, or removed on error), then exits with 128 + the signal.
pub fn exit_cleanly_on_signals() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            // Without the handler the default action applies: an interrupted write may leave
            // its temporary file, as before.
            return;
        };
        std::thread::spawn(move || {
            if let Some(sig) = signals.forever().next() {
                let _held = WRITING.lock();
                eprintln!("interrupted: output not complete (no manifest written)");
                std::process::exit(128 + sig);
            }
        });
    });
}

/// What a failed write to standard output means: a closed pipe (`| head`) ends the command
/// quietly, anything else is an error.
pub fn stdout_error(e: std::io::Error) -> InputError {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        InputError::broken_pipe()
    } else {
        InputError::new(format!("cannot write to standard output: {e}"))
    }
}

/// Writes `bytes` to `path` atomically (temp file in the same directory, then rename), or to
/// stdout when `path` is None. Standard output closed by its reader (`hbase-emu … | head -1`)
/// gives [`InputError::broken_pipe`], which the binary treats as a normal end (exit 0, no
/// message); every other failure is a real error.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), InputError> {
    // Names and keys from the user's files reach terminals (and `cat report.txt`): their
    // control characters are escaped. JSON already escapes them; key notation too.
    let escaped;
    let bytes = match std::str::from_utf8(bytes).map(crate::diag::escape_controls) {
        Ok(std::borrow::Cow::Owned(s)) => {
            escaped = s;
            escaped.as_bytes()
        }
        _ => bytes,
    };
    let Some(path) = path else {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(stdout_error);
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        let problem = if dir.exists() {
            format!(
                "cannot write output: `{}` is not a directory",
                dir.display()
            )
        } else {
            format!(
                "cannot write output: the directory `{}` does not exist",
                dir.display()
            )
        };
        return Err(InputError::new(problem)
            .in_file(path)
            .expected("a file path in an existing directory"));
    }
    check_output_file(path)?;
    let _writing = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    // Errors name the output path, never the hidden temporary file next to it.
    // tempfile's errors carry the temporary file's path in their text: keep the OS error only.
    let fail = |e: std::io::Error| {
        let e = e
            .raw_os_error()
            .map_or(e, std::io::Error::from_raw_os_error);
        InputError::new(format!("cannot write output: {e}")).in_file(path)
    };
    // A report is meant to be shared: rw-r--r-- (as a plain create would give under the usual
    // umask), not the temporary file's private 0600.
    let mut tmp = tempfile::Builder::new()
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644))
        .tempfile_in(dir)
        .map_err(fail)?;
    tmp.write_all(bytes).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// Refuses to write over anything but a regular file (or nothing): writing replaces the path
/// by renaming a temporary file onto it, which would turn `/dev/null` or a FIFO into a plain
/// file (as root). The error names the path as the user gave it.
pub fn check_output_file(path: &Path) -> Result<(), InputError> {
    use std::os::unix::fs::FileTypeExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let t = meta.file_type();
    let what = if t.is_file() {
        return Ok(());
    } else if t.is_dir() {
        "a directory"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    Err(InputError::new(format!(
        "cannot write output: `{}` is {what}",
        path.display()
    ))
    .in_file(path)
    .expected("a regular file's path (new or existing); for standard output, leave the option out"))
}

/// Creates `dir` and its parents for output files.
pub fn create_dir(dir: &Path) -> Result<(), InputError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        InputError::new(format!("cannot create the output directory: {e}")).in_file(dir)
    })
}

/// The file a set of output files ends with: written last, it lists every file of the set with
/// its size and MD5, so a set cut short (or mixed with an older run's files) is recognised.
pub const MANIFEST: &str = "manifest.txt";
const MANIFEST_HEAD: &str = "hbase-emu output set";
const MANIFEST_INCOMPLETE: &str = "hbase-emu output set: incomplete (writing was interrupted)\n";

/// Checks, before any work, that files can be written into `dir` (created if missing): errors
/// name the directory and the option, never a temporary file.
pub fn check_writable(dir: &Path, option: &str) -> Result<(), InputError> {
    create_dir(dir).map_err(|e| e.field(option))?;
    probe_writable(dir).map_err(|e| {
        InputError::new(format!("cannot write into the output directory: {e}"))
            .in_file(dir)
            .field(option)
            .expected("a writable directory")
    })
}

/// Writes and removes a probe file in `dir`. The error is the OS error alone: tempfile's own
/// message names the probe file, which the user never asked for.
pub fn probe_writable(dir: &Path) -> std::io::Result<()> {
    tempfile::Builder::new()
        .prefix(".hbase-emu-probe")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| {
            e.raw_os_error()
                .map_or_else(|| e.kind().into(), std::io::Error::from_raw_os_error)
        })
}

/// A set of output files in one directory, each written atomically, ended by the manifest. The
/// manifest is marked incomplete before the first file, so an interrupted set never carries a
/// manifest that matches it.
pub struct FileSet {
    dir: PathBuf,
    files: Vec<(String, u64, String)>,
}

impl FileSet {
    /// Starts a set in `dir` (created if missing). The files a complete set already there lists
    /// are removed: a set holds only what one run wrote (re-running `run --format html` as
    /// text must not leave the older pages under the new manifest). Files the manifest does not
    /// list are never touched.
    pub fn begin(dir: &Path, option: &str) -> Result<FileSet, InputError> {
        Self::begin_from(dir, option, None)
    }

    /// [`begin`](Self::begin) for a set rendered from `source`: when `source` is a file of the
    /// set already in `dir` (`report out/report.json --out out/`), it stays in the set, since
    /// the new files are renderings of it; every other file of the old set is removed.
    pub fn begin_from(
        dir: &Path,
        option: &str,
        source: Option<&Path>,
    ) -> Result<FileSet, InputError> {
        exit_cleanly_on_signals();
        check_writable(dir, option)?;
        let old = read_bounded(&dir.join(MANIFEST), 1 << 20)
            .ok()
            .and_then(|m| entries(&m))
            .unwrap_or_default();
        let same_dir = |p: &Path| {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            let parent = parent.unwrap_or(Path::new("."));
            matches!(
                (parent.canonicalize(), dir.canonicalize()),
                (Ok(a), Ok(b)) if a == b
            )
        };
        let kept = source.filter(|p| same_dir(p)).and_then(|p| p.file_name());
        write_output(Some(&dir.join(MANIFEST)), MANIFEST_INCOMPLETE.as_bytes())?;
        let mut files = Vec::new();
        for f in old {
            if kept.is_some_and(|k| k == std::ffi::OsStr::new(&f.0)) && matches(dir, &f) {
                files.push(f);
            } else if is_plain_name(&f.0) && matches(dir, &f) {
                // Only a file exactly as the set wrote it: one edited since is the user's.
                // Already gone is fine; anything else is an error naming the file.
                match std::fs::remove_file(dir.join(&f.0)) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(InputError::new(format!(
                            "cannot remove `{}` of the set written there before: {e}",
                            f.0
                        ))
                        .in_file(dir)
                        .field(option)
                        .expected("a directory whose older output set can be replaced"));
                    }
                    _ => {}
                }
            }
        }
        Ok(FileSet {
            dir: dir.to_path_buf(),
            files,
        })
    }

    /// Writes one file of the set; returns its path.
    pub fn write(&mut self, name: &str, bytes: &[u8]) -> Result<PathBuf, InputError> {
        let path = self.dir.join(name);
        self.files.retain(|f| f.0 != name);
        write_output(Some(&path), bytes)?;
        self.files
            .push((name.to_string(), bytes.len() as u64, md5_hex(bytes)));
        Ok(path)
    }

    /// Ends the set: writes the manifest.
    pub fn finish(self) -> Result<(), InputError> {
        let mut m = format!("{MANIFEST_HEAD} 1\n");
        for (name, len, md5) in &self.files {
            m.push_str(&format!("{md5} {len} {name}\n"));
        }
        write_output(Some(&self.dir.join(MANIFEST)), m.as_bytes())
    }
}

/// A manifest entry names a file in its own directory: never a path (a hand-edited manifest
/// must not make a run delete files elsewhere).
fn is_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\'])
        && name != MANIFEST
}

fn md5_hex(bytes: &[u8]) -> String {
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Checks the set `file` belongs to, if it belongs to one (a manifest beside it): the manifest
/// must be complete, list `file`, and every listed file must match its size and MD5. A file
/// with no manifest beside it (saved by hand, or by an older version) is accepted.
pub fn verify_set(file: &Path) -> Result<(), InputError> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let path = dir.join(MANIFEST);
    let Ok(text) = read_bounded(&path, 1 << 20) else {
        return Ok(());
    };
    let bad = |problem: String| {
        Err(InputError::new(problem).in_file(file).expected(format!(
            "a complete output set (its `{MANIFEST}` lists every file); rerun the command \
                 that wrote it"
        )))
    };
    let Some(files) = entries(&text) else {
        return bad(format!(
            "`{}` says the set is incomplete: the run that wrote it was interrupted",
            path.display()
        ));
    };
    let own = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if let Some(f) = files.iter().find(|f| !matches(dir, f)) {
        return bad(format!(
            "`{}` does not match `{}`: the set mixes files of different runs",
            f.0,
            path.display()
        ));
    }
    if !files.iter().any(|f| f.0 == own) {
        return bad(format!("`{own}` is not listed in `{}`", path.display()));
    }
    Ok(())
}

/// A complete manifest's entries (name, size, MD5); None for an incomplete or damaged one.
fn entries(manifest: &str) -> Option<Vec<(String, u64, String)>> {
    let mut lines = manifest.lines();
    if lines.next()? != format!("{MANIFEST_HEAD} 1") {
        return None;
    }
    lines
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let md5 = parts.next()?.to_string();
            let len = parts.next()?.parse().ok()?;
            Some((parts.next()?.to_string(), len, md5))
        })
        .collect()
}

/// Whether the file in `dir` has the entry's size and MD5.
fn matches(dir: &Path, (name, len, md5): &(String, u64, String)) -> bool {
    // Names are ours (no separators); a hand-edited entry cannot point outside `dir`.
    if name.contains('/') {
        return false;
    }
    let path = dir.join(name);
    std::fs::metadata(&path).is_ok_and(|m| m.len() == *len)
        && std::fs::read(&path).is_ok_and(|b| md5_hex(&b) == *md5)
}

/// Reads at most `limit` bytes of `path` as UTF-8 (lossy).
fn read_bounded(path: &Path, limit: u64) -> std::io::Result<String> {
    crate::diag::read_bounded(path, limit).map(|b| String::from_utf8_lossy(&b).into_owned())
}
