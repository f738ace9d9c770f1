#!/usr/bin/env bash
# bench/fleet.sh: N simulated hosts against a real etcd and a real coordinator: how long a deploy takes to
# reach them all, what it writes to etcd, and what it costs in memory.
#
#   bench/fleet.sh [N...] [--compile-threads K] [--output text|json] [--keep]
#
# For each N (default 100 1000), one JVM runs N agents (io.muster.bench.fleet.Fleet: each its own host
# name, lease, facts, graph watch, status and target directory; one shared etcd client) against an etcd
# started on free loopback ports (data on /dev/shm) and a `muster coordinator` process. Two deploys go
# through `muster deploy`: the first (2 roles, 2 directories and 4 files per host), then a one-line change
# (one file's content on every host). Each is timed from the start of `muster deploy` to each host's status
# saying converged on it with nothing failed, and the files are verified. Then a rollout: a third deploy with
# `--canary 1 --batch 10%`, timed to its rollout done and every host converged; and a fourth whose canary (h0001)
# fails a resource when it runs, timed from the canary's failed status to the rollout stalled (each as a watch sees
# its write arrive), with how many hosts it reached (1: the others kept deploy 3). Floors in the same run: N agents
# starting with no graph (to all statuses written), and etcd taking N status writes at once from one client.
#
# Exit codes: 0 targets met (or not measured: no N=1000), 1 a target missed, 2 the bench failed or a host
# did not converge, 64 usage. See bench/README.md.
set -euo pipefail
export LC_ALL=C

bench="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
root="$(dirname "$bench")"
me=fleet.sh
keep=0
. "$bench/lib.sh"

sizes=()
output=text
compile_threads=0   # the coordinator's default
while [ $# -gt 0 ]; do
  case "$1" in
    --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
    --output=*) output="${1#--output=}"; shift ;;
    --compile-threads) [ $# -ge 2 ] || usage; compile_threads="$2"; shift 2 ;;
    --compile-threads=*) compile_threads="${1#--compile-threads=}"; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) usage ;;
    *[!0-9]*|'') echo "fleet.sh: unknown argument '$1'" >&2; usage ;;
    *) sizes+=("$1"); shift ;;
  esac
done
case "$output" in text|json) ;; *) echo "fleet.sh: --output is text or json" >&2; exit 64 ;; esac
case "$compile_threads" in ''|*[!0-9]*) echo "fleet.sh: --compile-threads is a number" >&2; exit 64 ;; esac
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000)
for n in "${sizes[@]}"; do [ "$n" -ge 1 ] || { echo "fleet.sh: N must be at least 1" >&2; exit 64; }; done

TARGET_N=1000
TARGET_FIRST_MS=10000   # 1000 hosts converged within 10 s of the deploy
TARGET_CHANGE_MS=2000   # a one-line change on all 1000 within 2 s
TARGET_HALT_MS=2000     # a failing canary's report to the rollout halted, 1000 hosts

# --- what it needs -------------------------------------------------------------------------------------------
command -v jq >/dev/null || { echo "fleet.sh: needs jq (apt-get install jq)" >&2; exit 2; }
# the harness starts etcd as `muster coordinator --dev` does: the etcd on PATH
[ -z "${ETCD_BIN:-}" ] || PATH="$(dirname "$ETCD_BIN"):$PATH"
command -v etcd >/dev/null || { echo "fleet.sh: needs etcd (apt-get install etcd-server, or set ETCD_BIN)" >&2; exit 2; }
# each agent's live run watches its files through an inotify instance of its own, as it would alone on its host
max_n=0; for n in "${sizes[@]}"; do [ "$n" -le "$max_n" ] || max_n=$n; done
instances="$(cat /proc/sys/fs/inotify/max_user_instances 2>/dev/null || echo 0)"
if [ "$instances" -lt $((max_n + 64)) ]; then
  echo "fleet.sh: $max_n agents in one process need $max_n inotify instances; fs.inotify.max_user_instances is $instances" >&2
  echo "  raise it: sysctl -w fs.inotify.max_user_instances=$(( (max_n + 64 + 1023) / 1024 * 1024 ))" >&2
  exit 2
fi

stamp="$bench/target/classes/io/muster/bench/fleet/Fleet.class"
prepare_harness "$stamp"   # and cli/target/muster.jar, which the harness runs on

# --- runs ------------------------------------------------------------------------------------------------------
run_harness io.muster.bench.fleet.Fleet "$root/muster" "$compile_threads"

# --- targets -------------------------------------------------------------------------------------------------
check_target "$all" hosts $TARGET_N first_converged_ms_1000 .first.converged_ms $TARGET_FIRST_MS "first deploy, N=$TARGET_N, command start to all converged"
check_target "$all" hosts $TARGET_N change_converged_ms_1000 .change.converged_ms $TARGET_CHANGE_MS "one-line change, N=$TARGET_N, command start to all converged"
check_target "$all" hosts $TARGET_N halt_ms_1000 .halt.halt_ms $TARGET_HALT_MS "rollout, N=$TARGET_N, failing canary's report to the halt"

# --- output ----------------------------------------------------------------------------------------------------
if [ "$output" = json ]; then
  printf '{"bench":"fleet","schema":1,"host":%s,"elapsed_s":%s,"quiet_s":1,"results":%s,"targets":%s,"pass":%s}\n' \
    "$(json_host "$load_start" "$load_end")" "$elapsed" "$(jq -c . <<<"$all")" "$(json_targets)" \
    "$(targets_failed && echo false || echo true)"
else
  echo "muster bench: fleet — $(nproc) cores, work dir on $work_fs, ${elapsed}s, load average $load_start -> $load_end"
  echo
  echo "ms from the start of muster deploy:"
  jq -r '.[] as $r | ("first", "change") as $d | $r[$d] as $x |
    [$d, $r.hosts, $x.command_ms, $x.published_ms, $x.pointers_ms, $x.running_ms, $x.converged_ms,
     ($x.running_ms - $x.published_ms), (($x.running_ms - $x.published_ms) / $r.status_puts_floor_ms),
     $x.coordinator_cpu_s, $x.agents_cpu_s, $x.etcd_cpu_s] | @tsv' <<<"$all" |
    awk -F'\t' 'BEGIN { printf "%-7s %5s %8s %10s %9s %8s %10s %9s %8s   %s\n", "deploy", "N", "command", "published", "pointers", "running", "converged", "fan-out", "x floor", "CPU s: coordinator agents etcd" }
      { printf "%-7s %5d %8.0f %10.0f %9.0f %8.0f %10.0f %9.0f %8.1f   %6.1f %6.1f %6.1f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
  echo
  echo "rollouts (canary 1, batch 10%), ms from the start of muster deploy:"
  jq -r '.[] | [.hosts, .rollout.waves, .rollout.done_ms, .rollout.converged_ms, .halt.canary_failed_ms, .halt.stalled_ms, .halt.halt_ms,
     .halt.hosts_reached] | @tsv' <<<"$all" |
    awk -F'\t' 'BEGIN { printf "%5s %6s %10s %10s %15s %9s %14s %8s\n", "N", "waves", "done", "converged", "canary failed", "stalled", "failed->halt", "reached" }
      { printf "%5d %6d %10.0f %10.0f %15.0f %9.0f %14.0f %8d\n", $1, $2, $3, $4, $5, $6, $7, $8 }'
  echo
  echo "floors, compile, etcd and memory:"
  jq -r '.[] | [.hosts, .agents_start_ms, .status_puts_floor_ms, .compile_median_ms, .compile_max_ms,
     (.first.keys_after - .first.keys_before), .first.written.all.puts, .first.written.all.bytes / 1024,
     (.change.keys_after - .change.keys_before), .change.written.all.puts, .change.written.all.bytes / 1024,
     .agents_peak_rss_mb, .agents_threads, .coordinator_peak_rss_mb] | @tsv' <<<"$all" |
    awk -F'\t' 'BEGIN { printf "%5s %11s %11s %13s %27s %27s %11s %8s %11s\n", "N", "agents up", "N statuses", "compile/host",
                       "first: +keys puts KB", "change: +keys puts KB", "agents RSS", "threads", "coord RSS"
                        printf "%5s %11s %11s %13s %27s %27s %11s %8s %11s\n", "", "ms", "ms", "median/max", "", "", "MB", "", "MB" }
      { printf "%5d %11.0f %11.0f %6.1f/%-6.1f %9d %7d %9.0f %9d %7d %9.0f %11.0f %8d %11.0f\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 }'
  echo
  print_targets
fi
targets_failed && exit 1
exit 0
