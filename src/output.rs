//! Output writing for every command: standard output, or files written atomically, and the
//! output directories they go in.

use std::io::Write;
use std::path::Path;

use crate::diag::InputError;

/// Writes `bytes` to `path` atomically (temp file in the same directory, then rename), or to
/// stdout when `path` is None. Standard output closed by its reader (`hbase-emu … | head -1`)
/// gives [`InputError::broken_pipe`], which the binary treats as a normal end (exit 0, no
/// message); every other failure is a real error.
pub fn write_output(path: Option<&Path>, bytes: &[u8]) -> Result<(), InputError> {
    let Some(path) = path else {
        let mut out = std::io::stdout().lock();
        return out.write_all(bytes).and_then(|_| out.flush()).map_err(|e| {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                InputError::broken_pipe()
            } else {
                InputError::new(format!("cannot write to standard output: {e}"))
            }
        });
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
    // Errors name the output path, never the hidden temporary file next to it.
    let fail =
        |e: std::io::Error| InputError::new(format!("cannot write output: {e}")).in_file(path);
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

/// Creates `dir` and its parents for output files.
pub fn create_dir(dir: &Path) -> Result<(), InputError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        InputError::new(format!("cannot create the output directory: {e}")).in_file(dir)
    })
}
