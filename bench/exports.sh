#!/usr/bin/env bash
# bench/exports.sh: N simulated hosts each exporting one resource to one collector, on a real etcd.
#
#   bench/exports.sh [N...] [--output text|json] [--keep]
#
# For each N (default 1000), one JVM (io.muster.bench.fleet.Exports) starts etcd on a free loopback port (data
# in the work directory), a real agent `lb` whose manifest collects every `file` tagged `pool` into its pool
# directory, and N simulated exporters, each with a lease of its own and one export (a backend file) written as an
# agent's World writes it. Measured on the collector's disk: from writing the N exports to all N files there
# (`converged`), and from changing one export to its file's new content (`change`).
#
# Exit codes: 0 targets met (or not measured: no N=1000), 1 a target missed, 2 the bench failed, 64 usage.
set -euo pipefail
export LC_ALL=C

bench="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
root="$(dirname "$bench")"
me=exports.sh
keep=0
. "$bench/lib.sh"

sizes=()
output=text
while [ $# -gt 0 ]; do
  case "$1" in
    --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
    --output=*) output="${1#--output=}"; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) usage ;;
    *[!0-9]*|'') echo "exports.sh: unknown argument '$1'" >&2; usage ;;
    *) sizes+=("$1"); shift ;;
  esac
done
case "$output" in text|json) ;; *) echo "exports.sh: --output is text or json" >&2; exit 64 ;; esac
[ ${#sizes[@]} -gt 0 ] || sizes=(1000)
for n in "${sizes[@]}"; do [ "$n" -ge 2 ] || { echo "exports.sh: N must be at least 2" >&2; exit 64; }; done

TARGET_N=1000
TARGET_CONVERGED_MS=5000   # the collector has all 1000 within 5 s
TARGET_CHANGE_MS=1000      # one export's change arrives within 1 s

command -v jq >/dev/null || { echo "exports.sh: needs jq (apt-get install jq)" >&2; exit 2; }
[ -z "${ETCD_BIN:-}" ] || PATH="$(dirname "$ETCD_BIN"):$PATH"
command -v etcd >/dev/null || { echo "exports.sh: needs etcd (apt-get install etcd-server, or set ETCD_BIN)" >&2; exit 2; }

stamp="$bench/target/classes/io/muster/bench/fleet/Exports.class"
prepare_harness "$stamp"   # and cli/target/muster.jar, which the harness runs on
run_harness io.muster.bench.fleet.Exports

check_target "$all" exporters $TARGET_N converged_ms_1000 .converged_ms $TARGET_CONVERGED_MS "N=$TARGET_N exports written to all collected on disk"
check_target "$all" exporters $TARGET_N change_ms_1000 .change_ms $TARGET_CHANGE_MS "one export changed to its file rewritten"

if [ "$output" = json ]; then
  printf '{"bench":"exports","schema":1,"host":%s,"elapsed_s":%s,"results":%s,"targets":%s,"pass":%s}\n' \
    "$(json_host "$load_start" "$load_end")" "$elapsed" "$(jq -c . <<<"$all")" "$(json_targets)" \
    "$(targets_failed && echo false || echo true)"
else
  echo "muster bench: exports — $(nproc) cores, work dir on $work_fs, ${elapsed}s, load average $load_start -> $load_end"
  echo
  jq -r '.[] | [.exporters, .written_ms, .converged_ms, .change_ms] | @tsv' <<<"$all" |
    awk -F'\t' 'BEGIN { printf "%9s %11s %13s %10s\n", "exporters", "written ms", "converged ms", "change ms" }
      { printf "%9d %11.0f %13.0f %10.0f\n", $1, $2, $3, $4 }'
  echo
  print_targets
fi
targets_failed && exit 1
exit 0
