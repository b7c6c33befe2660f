#!/usr/bin/env bash
# Runs the rounds of a search on disk as real Slurm job arrays, on this
# machine alone (one node, Debian's slurm-wlm), and checks that they count
# what the search in memory counts. See docs/engine.md, "On many machines".
#
#   scripts/slurm-one-node.sh [SPIDER] [WORKDIR]
#
# SPIDER: the spider binary (default: target/release/spider, built if
# missing). WORKDIR: where the proof's directory, the tasks' logs and the
# two reports go (default: a new temporary directory). Needs root, for
# scripts/slurm-local start (it installs slurm-wlm and munge with apt-get,
# writes /etc/slurm/slurm.conf and starts munged, slurmctld and slurmd).
# Exit 0 when the counts agree, 1 when they differ, 2 on a setup error.
set -euo pipefail
cd "$(dirname "$0")/.."

spider=${1:-target/release/spider}
work=${2:-$(mktemp -d)}
if [ ! -x "$spider" ]; then
  cargo build --release
fi
spider=$(realpath "$spider")
mkdir -p "$work/logs"
work=$(realpath "$work")

# The cluster of one node: scripts/slurm-local (installs, configures and
# starts it when it is not up; stop it with `scripts/slurm-local stop`).
scripts/slurm-local start || exit 2

# Stage 1 of the bundled game: 11,977,064 positions. Rounds whose tasks
# read at least a million records go to Slurm (13 here), the others run
# in the driver.
deal=deals/unwon-2017.yaml
echo "in memory..."
"$spider" graph "$deal" --stage 1 --count -j 1 --json > "$work/memory.json"
echo "through sbatch job arrays (each launch waits for the scheduler)..."
rm -rf "$work/proof"
start=$(date +%s)
"$spider" graph "$deal" --stage 1 --count -j 1 --json --disk "$work/proof" \
  --disk-launch-from 1000000 \
  --disk-launcher "sbatch --wait --array={tasks} --output=$work/logs/%A-%a.out --wrap \"{command}\"" \
  > "$work/slurm.json"
echo "through Slurm: $(( $(date +%s) - start )) s"
python3 - "$work/memory.json" "$work/slurm.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ["positions", "moves", "layers", "stages", "reveals"]
same = all(a[k] == b[k] for k in keys) and all(
    a["engine"][k] == b["engine"][k] for k in ["duplicates", "max_depth"])
print(f"positions {a['positions']} in memory, {b['positions']} through Slurm:",
      "the same counts" if same else "COUNTS DIFFER")
sys.exit(0 if same else 1)
EOF
