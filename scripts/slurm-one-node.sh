#!/usr/bin/env bash
# Runs the rounds of a search on disk as real Slurm job arrays, on this
# machine alone (one node, Debian's slurm-wlm), and checks that they count
# what the search in memory counts. See docs/engine.md, "On many machines".
#
#   scripts/slurm-one-node.sh [SPIDER] [WORKDIR]
#
# SPIDER: the spider binary (default: target/release/spider, built if
# missing). WORKDIR: where the proof's directory, the tasks' logs and the
# two reports go (default: a new temporary directory). Needs root (it
# installs slurm-wlm and munge with apt-get, writes /etc/slurm/slurm.conf
# and starts munged, slurmctld and slurmd when they are not running).
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

if [ "$(id -u)" != 0 ]; then
  echo "slurm-one-node: needs root (apt-get, /etc/slurm)" >&2
  exit 2
fi
if ! command -v sbatch >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

host=$(hostname -s)
cpus=$(nproc)
if [ ! -f /etc/slurm/slurm.conf ]; then
  mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  cat > /etc/slurm/slurm.conf <<EOF
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
fi
if ! pgrep -x munged >/dev/null; then
  [ -f /etc/munge/munge.key ] || mungekey -c
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge && chown munge:munge /run/munge
  runuser -u munge -- /usr/sbin/munged
fi
pgrep -x slurmctld >/dev/null || (slurmctld -D >/dev/null 2>&1 &)
sleep 2
pgrep -x slurmd >/dev/null || (slurmd -D >/dev/null 2>&1 &)
for _ in $(seq 30); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo

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
