//! The layered engine against the breadth-first explorer, resumed, compressed.

use super::*;

#[test]
fn varints_read_back_as_written_and_a_cut_one_is_refused() {
    for value in [
        0,
        1,
        127,
        128,
        300,
        16_383,
        16_384,
        u64::from(u32::MAX),
        u64::MAX,
    ] {
        let mut bytes = Vec::new();
        write_varint(value, &mut bytes);
        assert_eq!(
            bytes.len(),
            (64 - value.leading_zeros() as usize).div_ceil(7).max(1)
        );
        bytes.push(0x55);
        assert_eq!(read_varint(&bytes), Some((value, bytes.len() - 1)));
        assert_eq!(read_varint(&bytes[..bytes.len() - 2]), None);
    }
    // Past 64 bits.
    assert_eq!(
        read_varint(&[0xff; 9].iter().copied().chain([2]).collect::<Vec<_>>()),
        None
    );
}

/// Records of every length up to past [`RECORD_ROOM`], empty ones
/// among them, come back as written across many chunks, by index and
/// by offset; growing never costs more than a chunk of waste.
#[test]
fn an_arena_gives_back_every_record() {
    let mut arena = Arena::default();
    let mut written = Vec::new();
    let mut x = 12345u64;
    for i in 0..40_000usize {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let len = match i % 500 {
            0 => 0,
            1 => RECORD_ROOM + 1 + (x >> 60) as usize * 20,
            _ => 1 + (x >> 33) as usize % RECORD_ROOM,
        };
        let record: Vec<u8> = (0..len).map(|k| (x >> (k % 7 * 8)) as u8).collect();
        if i % 2 == 0 {
            arena.push(&record);
        } else {
            arena.push_with(|bytes| bytes.extend_from_slice(&record));
        }
        written.push(record);
    }
    assert!(arena.chunks.len() > 10, "{} chunks", arena.chunks.len());
    assert_eq!(arena.len(), written.len());
    for (i, record) in written.iter().enumerate() {
        let (offset, got) = arena.get_at(i);
        assert_eq!(got, &record[..], "{i}");
        assert_eq!(arena.slice(offset, record.len()), &record[..], "{i}");
    }
    let held: usize = written.iter().map(Vec::len).sum();
    let waste = arena.bytes() as usize - held - arena.ends.capacity() * 4;
    assert!(waste < CHUNK + arena.chunks.len() * RECORD_ROOM, "{waste}");
}

/// Compressed while it is written, as the next frontier and the
/// pending layers are, an arena gives back every record once thawed a
/// range at a time, in order, as the search reads a frontier; freed
/// behind, it lets its memory go.
#[test]
fn a_compressed_arena_gives_back_every_record() {
    let mut arena = Arena::default();
    let mut written = Vec::new();
    let mut x = 99u64;
    for i in 0..20_000usize {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Spider-like records: a shared head, then a few random bytes.
        let len = 20 + (x >> 58) as usize;
        let mut record: Vec<u8> = (0..len).map(|k| (k % 13) as u8).collect();
        record[(x >> 40) as usize % len] = (x >> 8) as u8;
        arena.push(&record);
        written.push(record);
        if i % 700 == 0 {
            arena.compact();
        }
    }
    let plain = arena.end() as u64;
    arena.compact();
    let chunks = arena.chunks.len();
    assert!(chunks > 50, "{chunks} chunks");
    assert!(arena.chunks[..chunks - 1].iter().all(Vec::is_empty));
    assert!(
        arena.bytes() * 3 < plain,
        "{} bytes held for {plain}",
        arena.bytes()
    );
    let mut from = 0;
    let mut step = 1;
    while from < written.len() {
        let to = (from + step).min(written.len());
        arena.thaw(from, to);
        for (i, record) in written.iter().enumerate().take(to).skip(from) {
            assert_eq!(arena.get(i), &record[..], "{i}");
        }
        arena.free_before(to);
        from = to;
        step = step * 3 % 1_000 + 1;
    }
    assert!(arena.bytes() as usize <= arena.ends.capacity() * 4 + CHUNK);
}

/// Counts, layer by layer, do not depend on keeping the waiting states
/// compressed, on one thread or two.
#[test]
#[ignore = "slow: runs with `cargo test -- --ignored` (CI runs it)"]
fn compressing_the_waiting_states_changes_no_count() {
    use crate::deal::{Rules, pysol};
    use crate::game::Game;
    use crate::solve::exhaustive::ExhaustiveProblem;
    let deal = pysol::deal(3, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = ExhaustiveProblem::new(&game);
    let run = |compress_above: u64, jobs: usize| {
        let outcome = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .limits(Limits {
                max_positions: Some(300_000),
                ..Limits::default()
            })
            .jobs(Some(jobs))
            .compress_above(compress_above)
            .run()
            .unwrap();
        let figures: Vec<_> = outcome
            .stats
            .layers
            .iter()
            .map(|l| (l.layer, l.positions, l.moves, l.dead, l.expanded))
            .collect();
        (
            outcome.stats.positions,
            figures,
            outcome.stats.peak_memory_bytes,
        )
    };
    let (positions, plain, plain_memory) = run(u64::MAX, 1);
    assert!(positions >= 300_000, "{positions}");
    assert!(plain.len() > 3, "{plain:?}");
    for jobs in [1, 2] {
        let (_, compressed, memory) = run(0, jobs);
        assert_eq!(compressed, plain, "{jobs} threads");
        assert!(memory < plain_memory, "{memory} against {plain_memory}");
    }
}

/// A search that keeps its waiting states compressed writes the same
/// checkpoints (they are written before a chunk is compressed) and,
/// stopped and resumed, counts what an uninterrupted plain one does.
#[test]
fn a_compressed_search_resumes_with_the_same_counts() {
    use crate::deal::{Rules, pysol};
    use crate::game::Game;
    use crate::solve::stage::{Scope, StageProblem};
    let deal = pysol::deal(14934, Rules::Standard).unwrap();
    let game = Game::new(&deal).unwrap();
    let problem = StageProblem::new(&game, Scope::Stage(2));
    let figures = |stats: &LayeredStats| -> Vec<_> {
        stats
            .layers
            .iter()
            .map(|l| (l.layer, l.positions, l.moves, l.entries))
            .collect()
    };
    let whole = Layered::new(&problem)
        .stop(Stop::Exhaust)
        .jobs(Some(1))
        .compress_above(u64::MAX)
        .run()
        .unwrap();
    assert_eq!(whole.stats.positions, 50_810);
    let dir = crate::scratch::scratch_dir();
    let mut runs = 0;
    let stats = loop {
        runs += 1;
        let outcome = Layered::new(&problem)
            .stop(Stop::Exhaust)
            .jobs(Some(2))
            .limits(Limits {
                max_positions: (runs < 3).then(|| whole.stats.positions * runs / 3),
                ..Limits::default()
            })
            .compress_above(0)
            .checkpoint(dir.path(), "compressed")
            .run()
            .unwrap();
        if outcome.end == End::Exhausted {
            break outcome.stats;
        }
        assert!(runs < 3);
    };
    assert!(stats.resumed_layers > 0);
    assert_eq!(figures(&stats), figures(&whole.stats));
}
