//! Checkpoints: the manifest, the layer files split into parts, written
//! atomically and read back on resume.

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::stats::{CheckpointError, LayerStats, LayeredStats};

/// What `manifest.json` holds.
#[derive(serde::Serialize, serde::Deserialize)]
pub(super) struct Manifest {
    /// The format.
    pub(super) version: u32,
    /// The search (`Layered::checkpoint`'s `id`).
    pub(super) id: String,
    /// Every finished layer, in order.
    pub(super) layers: Vec<LayerStats>,
    pub(super) max_depth: u32,
    /// The caller's note ([`Layered::checkpoint_note`]).
    #[serde(default)]
    pub(super) note: String,
}

/// 2: fingerprints are Spider's sum-of-piles keys
/// ([`crate::game::Position::sum_key`]); a manifest has a note. 3: each
/// layer file is split into [`PARTS`] parts by fingerprint. 4: Spider's
/// layer keys hold the pairs out of order ([`crate::game::layer_of`]).
pub(super) const MANIFEST_VERSION: u32 = 4;

pub(super) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> CheckpointError + '_ {
    move |error| CheckpointError::Io {
        path: path.to_path_buf(),
        error,
    }
}

pub(super) fn read_manifest(dir: &Path, id: &str) -> Result<Option<Manifest>, CheckpointError> {
    let path = dir.join("manifest.json");
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(&path)(e)),
    };
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| CheckpointError::Damaged {
        path: path.clone(),
        what: e.to_string(),
    })?;
    if manifest.version != MANIFEST_VERSION {
        return Err(CheckpointError::OtherSearch {
            path: dir.to_path_buf(),
            found: format!("format {} of another version of spider", manifest.version),
        });
    }
    if manifest.id != id {
        return Err(CheckpointError::OtherSearch {
            path: dir.to_path_buf(),
            found: manifest.id,
        });
    }
    Ok(Some(manifest))
}

/// Writes `bytes` to `path` through a temporary file, synced, then renamed.
pub(super) fn write_file_atomically(
    path: &Path,
    write: impl FnOnce(&mut BufWriter<fs::File>) -> std::io::Result<()>,
) -> Result<(), CheckpointError> {
    let tmp = path.with_extension("tmp");
    let result = (|| {
        let mut out = BufWriter::new(fs::File::create(&tmp)?);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    result.map_err(io_error(path))
}

pub(super) fn write_manifest(
    dir: &Path,
    id: &str,
    stats: &LayeredStats,
    note: String,
) -> Result<(), CheckpointError> {
    let manifest = Manifest {
        version: MANIFEST_VERSION,
        id: id.to_string(),
        layers: stats.layers.clone(),
        max_depth: stats.max_depth,
        note,
    };
    write_file_atomically(&dir.join("manifest.json"), |out| {
        serde_json::to_writer(&mut *out, &manifest)?;
        Ok(())
    })
}

/// Parts of a layer file: a record goes to the part given by the top
/// `PART_BITS` bits of its fingerprint, so part `p` of every layer file
/// holds only the states of fingerprint part `p` (the unit of work for
/// machines sharing one search, see `docs/engine.md`).
pub const PARTS: usize = 1 << PART_BITS;
pub(super) const PART_BITS: u32 = 4;

/// The part of the layer files a fingerprint belongs to.
pub fn part_of(fp: u128) -> usize {
    (fp >> (128 - PART_BITS)) as usize
}

/// Part `part` of the file of `layer`'s successors for later layers.
pub(super) fn spill_path(dir: &Path, layer: u64, part: usize) -> PathBuf {
    dir.join(format!("layer-{layer:016x}-part-{part:02x}.out"))
}

/// The files of the successors one layer sent to later layers, one per
/// part, written as they come and renamed into place when the layer is
/// finished.
pub(super) struct SpillWriter {
    pub(super) parts: Vec<(PathBuf, PathBuf, BufWriter<fs::File>)>,
}

impl SpillWriter {
    pub(super) fn create(dir: &Path, layer: u64) -> Result<SpillWriter, CheckpointError> {
        let mut parts = Vec::with_capacity(PARTS);
        for part in 0..PARTS {
            let path = spill_path(dir, layer, part);
            let tmp = path.with_extension("tmp");
            let file = fs::File::create(&tmp).map_err(io_error(&tmp))?;
            parts.push((path, tmp, BufWriter::with_capacity(1 << 16, file)));
        }
        Ok(SpillWriter { parts })
    }

    /// One record, in its part's file: target layer (8 bytes), fingerprint
    /// (16), length (4), the record.
    pub(super) fn write(
        &mut self,
        layer: u64,
        fp: u128,
        record: &[u8],
    ) -> Result<(), CheckpointError> {
        let (_, tmp, out) = &mut self.parts[part_of(fp)];
        let result = (|| {
            out.write_all(&layer.to_le_bytes())?;
            out.write_all(&fp.to_le_bytes())?;
            out.write_all(&(record.len() as u32).to_le_bytes())?;
            out.write_all(record)
        })();
        result.map_err(io_error(tmp))
    }

    /// Syncs every part and renames it into place (the manifest, written
    /// after, is what makes the layer count as finished).
    pub(super) fn finish(self) -> Result<(), CheckpointError> {
        for (path, tmp, out) in self.parts {
            let result = (|| {
                let file = out.into_inner().map_err(|e| e.into_error())?;
                file.sync_all()?;
                fs::rename(&tmp, &path)
            })();
            result.map_err(io_error(&tmp))?;
        }
        Ok(())
    }
}

/// Reads the files of `layer` (every part), calling `f` with each record.
pub(super) fn read_spill(
    dir: &Path,
    layer: u64,
    mut f: impl FnMut(u64, u128, &[u8]),
) -> Result<(), CheckpointError> {
    for part in 0..PARTS {
        read_spill_part(dir, layer, part, &mut f)?;
    }
    Ok(())
}

/// Reads part `part` of the file of `layer`, calling `f` with each record.
pub fn read_spill_part(
    dir: &Path,
    layer: u64,
    part: usize,
    mut f: impl FnMut(u64, u128, &[u8]),
) -> Result<(), CheckpointError> {
    let path = spill_path(dir, layer, part);
    let file = fs::File::open(&path).map_err(io_error(&path))?;
    let mut input = BufReader::with_capacity(1 << 16, file);
    let mut head = [0u8; 28];
    let mut record = Vec::new();
    loop {
        match input.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(io_error(&path)(e)),
        }
        let target = u64::from_le_bytes(head[..8].try_into().unwrap());
        let fp = u128::from_le_bytes(head[8..24].try_into().unwrap());
        let len = u32::from_le_bytes(head[24..].try_into().unwrap()) as usize;
        if len > 1 << 16 || target <= layer || part_of(fp) != part {
            return Err(CheckpointError::Damaged {
                path,
                what: "a record out of shape".into(),
            });
        }
        record.resize(len, 0);
        input.read_exact(&mut record).map_err(io_error(&path))?;
        f(target, fp, &record);
    }
}
