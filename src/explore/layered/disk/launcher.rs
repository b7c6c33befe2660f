//! The launcher: a round's tasks run as processes of their own (a job
//! array on a cluster) through `--disk-launcher`, each reading its round
//! file and writing its result; the driver reads their results back.

use super::*;

/// Shell-quotes `arg`.
pub(super) fn shell_quote(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
    {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

/// This process's command line, quoted for the shell.
pub(super) fn own_command() -> String {
    let exe = std::env::current_exe()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| std::env::args().next().unwrap_or_default());
    std::iter::once(exe)
        .chain(std::env::args().skip(1))
        .map(|a| shell_quote(&a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs the tasks of `round` through the launcher, and reads their
/// results (the tasks extended the seen sets on disk: [`read_back`]).
pub(super) fn launch(
    dir: &Path,
    round: &Round,
    launcher: &str,
) -> Result<Vec<TaskOut>, CheckpointError> {
    let round_path = dir.join("round.json");
    for part in 0..PARTS {
        let _ = fs::remove_file(result_path(dir, part));
    }
    write_file_atomically(&round_path, |out| {
        serde_json::to_writer(&mut *out, round)?;
        Ok(())
    })?;
    // `{command}` runs a script holding this process's command line, so
    // that it has no quotes of its own to clash with the launcher's (as in
    // `sbatch --wrap "{command}"`, where the command line, launcher
    // included, would sit inside double quotes).
    let task_script = dir.join("task.sh");
    write_file_atomically(&task_script, |out| {
        writeln!(out, "exec {}", own_command())?;
        Ok(())
    })?;
    let command = format!("sh {}", shell_quote(&task_script.to_string_lossy()));
    let mut results: Vec<Option<TaskOut>> = vec![None; PARTS];
    for _attempt in 0..4 {
        let missing: Vec<String> = (0..PARTS)
            .filter(|&p| results[p].is_none())
            .map(|p| p.to_string())
            .collect();
        if missing.is_empty() {
            break;
        }
        let script = launcher
            .replace("{tasks}", &missing.join(","))
            .replace("{command}", &command);
        // A launcher that fails leaves results missing: they are launched
        // again below. What it prints (`sbatch`: "Submitted batch job N")
        // goes to standard error: standard output is the search's report.
        let _ = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env(ROUND_ENV, &round_path)
            .env_remove(PART_ENV)
            .stdout(std::io::stderr())
            .status();
        for (part, result) in results.iter_mut().enumerate() {
            if result.is_some() {
                continue;
            }
            let path = result_path(dir, part);
            if let Ok(text) = fs::read_to_string(&path)
                && let Ok(out) = serde_json::from_str::<TaskOut>(&text)
                && out.part == part
            {
                *result = Some(out);
            }
        }
    }
    let outs: Vec<TaskOut> = results
        .into_iter()
        .enumerate()
        .map(|(part, r)| {
            r.ok_or_else(|| damaged(&result_path(dir, part), "a task failed four times"))
        })
        .collect::<Result<_, _>>()?;
    Ok(outs)
}

/// Adds the new states of a launched `round`, from the seen runs its tasks
/// wrote, to the seen sets.
pub(super) fn read_back(
    dir: &Path,
    round: &Round,
    outs: &[TaskOut],
    seen: &mut [FpTable],
) -> Result<(), CheckpointError> {
    for (part, seen) in seen.iter_mut().enumerate() {
        if outs[part].new > 0 {
            let path = seen_path(dir, round.layer, part, round.step, round.step);
            let file = fs::File::open(&path).map_err(io_error(&path))?;
            let run = Run::read_from(&mut BufReader::new(file)).map_err(io_error(&path))?;
            for fp in run.to_vec() {
                seen.insert(fp);
            }
        }
    }
    Ok(())
}

impl<'a, P: PackedProblem> Layered<'a, P>
where
    P::State: Send,
    P::Move: Send,
{
    /// Runs the round task this process was started for, if it was (by a
    /// search's launcher: [`ROUND_ENV`] names the round's file in this
    /// search's directory), and returns `true`; `false` otherwise.
    pub(super) fn run_disk_task(
        &self,
        options: &DiskOptions,
        id: &str,
    ) -> Result<bool, CheckpointError> {
        let Ok(round_path) = std::env::var(ROUND_ENV) else {
            return Ok(false);
        };
        let round_path = PathBuf::from(round_path);
        if round_path.parent() != Some(options.dir.as_path()) {
            return Ok(false);
        }
        let text = fs::read_to_string(&round_path).map_err(io_error(&round_path))?;
        let round: Round =
            serde_json::from_str(&text).map_err(|e| damaged(&round_path, e.to_string()))?;
        if round.id != id {
            return Err(CheckpointError::OtherSearch {
                path: options.dir.clone(),
                found: round.id,
            });
        }
        let part = std::env::var(PART_ENV)
            .or_else(|_| std::env::var("SLURM_ARRAY_TASK_ID"))
            .ok()
            .and_then(|p| p.trim().parse::<usize>().ok())
            .filter(|&p| p < PARTS)
            .ok_or_else(|| {
                damaged(
                    &round_path,
                    format!("a task needs its part (0 to {}) in {PART_ENV}", PARTS - 1),
                )
            })?;
        let keep_leaves = self.on_leaf.is_some();
        let mut seen = load_seen(
            &options.dir,
            round.layer,
            part,
            round.old_before,
            round.step,
        )?;
        // A task on its own: its inputs in chunks of up to a quarter of the
        // budget, and its frontier, which it expands right away, in memory.
        let (out, frontier, _) = dedup_task(
            &options.dir,
            None,
            &round,
            part,
            &mut seen,
            None,
            self.disk_budget() / 4,
            self.problem,
            &RoundGuard::never(),
        )?;
        // Only this part's seen set is at hand.
        let mut known = vec![None; PARTS];
        known[part] = Some(&seen);
        let out = expand_task(
            self.problem,
            &options.dir,
            None,
            &round,
            out,
            frontier,
            &known,
            keep_leaves,
            &|| false,
        )?;
        let path = result_path(&options.dir, part);
        write_file_atomically(&path, |w| {
            serde_json::to_writer(&mut *w, &out)?;
            Ok(())
        })?;
        Ok(true)
    }
}
