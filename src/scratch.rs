//! Where the tests put their scratch files (not part of the analyzer).

use std::path::PathBuf;

/// The directory the tests make their scratch directories in: the
/// in-memory file system `/dev/shm` where the system has one with at
/// least 1 GiB free, else the system's temporary directory. The searches
/// on disk sync their files every round and the companion its saved game
/// every move; on a busy disk those syncs took most of the tests' time.
/// In memory a sync costs nothing, and the files written and read back
/// are the same.
#[doc(hidden)]
pub fn scratch_root() -> PathBuf {
    let shm = PathBuf::from("/dev/shm");
    if shm.is_dir() && free_bytes(&shm).is_some_and(|free| free >= 1 << 30) {
        shm
    } else {
        std::env::temp_dir()
    }
}

#[cfg(unix)]
fn free_bytes(dir: &std::path::Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `statvfs` reads the NUL-terminated path and writes only
    // the struct it is given, which lives for the call.
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stats) } != 0 {
        return None;
    }
    // u64 on 64-bit Linux, narrower elsewhere.
    #[allow(clippy::useless_conversion)]
    let (blocks, size) = (u64::from(stats.f_bavail), u64::from(stats.f_frsize));
    Some(blocks.saturating_mul(size))
}

#[cfg(not(unix))]
fn free_bytes(_: &std::path::Path) -> Option<u64> {
    None
}

/// A scratch directory for a unit test, under [`scratch_root`], removed
/// when dropped.
#[cfg(test)]
pub(crate) fn scratch_dir() -> tempfile::TempDir {
    tempfile::tempdir_in(scratch_root()).unwrap()
}
