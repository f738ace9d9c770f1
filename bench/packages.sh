#!/usr/bin/env bash
# bench/packages.sh: 50 Debian packages from a local apt repository (scripts/local-apt-repo), converged by
# muster (the package kind: one dpkg-query, one apt-get transaction) and by Puppet (`package` resources).
#
#   bench/packages.sh [--runs K] [--output text|json] [--keep]
#
# For each tool, in the same run: `first` installs the 50 packages (none installed before), `idempotent`
# runs the same manifest again K times (default 5; the median is reported), then the packages are purged
# for the next tool. After every run the packages are checked (all 50 installed, version 1.0). muster's
# first install must be one apt transaction (counted in /var/log/apt/history.log). Reported per tool and
# phase: the median wall time; for muster also the package check's own time (the group's duration in its
# JSON report, without the JVM's start), and the ratio Puppet / muster.
#
# Target: muster's idempotent check of the 50 packages under 0.5 s (the group's duration).
# Needs root and Debian's dpkg-dev; installs puppet with apt-get when it is missing (skipped if that fails).
# Exit codes: 0 target met, 1 target missed, 2 a tool failed or did not converge, 64 usage. See bench/README.md.
set -euo pipefail
export LC_ALL=C

bench="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
root="$(dirname "$bench")"
me=packages.sh
keep=0
. "$bench/lib.sh"

runs=5
output=text
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; runs="$2"; shift 2 ;;
    --runs=*) runs="${1#--runs=}"; shift ;;
    --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
    --output=*) output="${1#--output=}"; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) usage ;;
    *) echo "$me: unknown argument '$1'" >&2; usage ;;
  esac
done
case "$runs" in ''|*[!0-9]*|0) echo "$me: --runs is a positive number" >&2; exit 64 ;; esac
case "$output" in text|json) ;; *) echo "$me: --output is text or json" >&2; exit 64 ;; esac
[ "$(id -u)" -eq 0 ] || { echo "$me: needs root (it installs packages)" >&2; exit 64; }

N=50
TARGET_MS=500
command -v dpkg-scanpackages >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 dpkg-dev >/dev/null
if ! command -v puppet >/dev/null; then
  log "installing puppet (apt-get install puppet)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 puppet >/dev/null 2>&1 || log "puppet could not be installed: skipped"
fi
tools=(muster)
command -v puppet >/dev/null && tools+=(puppet)

# Not lib.sh's /dev/shm/muster-bench.*: the run takes minutes (Puppet), and other benches' clean-ups match that name.
work="$(mktemp -d /var/tmp/muster-packages.XXXXXX)"
chmod 755 "$work" # apt reads the repository as its sandbox user
repo="$work/repo"
prefix="mb$(head -c3 /dev/urandom | od -An -tx1 | tr -d ' \n')-"
names=()
for i in $(seq -w 1 $N); do names+=("${prefix}p$i"); done
cleanup() {
  "$root/scripts/local-apt-repo" down "$repo" >/dev/null 2>&1 || log "could not clean up the repository: scripts/local-apt-repo down $repo"
  local left # by prefix too: what down purges is listed in the work directory, which may be gone
  left="$(dpkg-query -W -f='${binary:Package} ${db:Status-Abbrev}\n' "${prefix}*" 2>/dev/null | awk '$2 !~ /^.n/ { print $1 }')" || true
  # shellcheck disable=SC2086 # one name a word
  [ -z "$left" ] || DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq -o DPkg::Lock::Timeout=300 $left >/dev/null || log "could not purge $left"
  remove_work_dir
}
trap cleanup EXIT
mkdir -p "$work/muster-state"
warm_up_muster --prefix "$work/muster-state" # the launcher builds its jar when it is stale: not in a measured run
specs=()
for name in "${names[@]}"; do specs+=("$name=1.0"); done
log "publishing $N packages in $repo"
"$root/scripts/local-apt-repo" up "$repo" "${specs[@]}"

{ echo "resources:"; echo "  - package:"; for name in "${names[@]}"; do echo "      - $name: {}"; done; } >"$work/site.yaml"
{ for name in "${names[@]}"; do echo "package { '$name': ensure => installed }"; done; } >"$work/site.pp"
p="$work/puppet-home"
mkdir -p "$p"/{etc,code,var/state,log,run,pub}
puppet_dirs=(--confdir "$p/etc" --codedir "$p/code" --vardir "$p/var" --logdir "$p/log" --rundir "$p/run" --publicdir "$p/pub")

installed_ok() {
  [ "$(dpkg-query -W -f='${db:Status-Abbrev}${Version}\n' "${names[@]}" 2>/dev/null | grep -c '^ii 1.0$')" -eq $N ]
}
transactions() { grep -c "^Commandline: .*${prefix}p" /var/log/apt/history.log 2>/dev/null || true; }
now_ms() { date +%s%3N; }

declare -A med=() check_ms=()
run_tool() { # tool phase -> one run; prints its wall ms; muster's check ms in $work/check_ms
  local tool=$1 start end rc=0
  case "$tool" in
    muster) start=$(now_ms); "$root/muster" apply --prefix "$work/muster-state" --output json "$work/site.yaml" >"$work/out.json" 2>"$work/err" || rc=$?; end=$(now_ms)
      grep -o '"duration_ms" *: *[0-9]*' "$work/out.json" | tail -n1 | grep -o '[0-9]*$' >"$work/check_ms" || echo "" >"$work/check_ms" ;;
    puppet) start=$(now_ms); puppet apply "${puppet_dirs[@]}" --detailed-exitcodes --color=false "$work/site.pp" >"$work/out.json" 2>"$work/err" || rc=$?; end=$(now_ms)
      [ "$rc" -ne 2 ] || rc=0 ;; # --detailed-exitcodes: 2 = changes made
  esac
  [ "$rc" -eq 0 ] || { cat "$work/err" "$work/out.json" >&2; die "$tool exited with $rc"; }
  installed_ok || die "$tool did not install the $N packages"
  echo $((end - start))
}
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : int((a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }

for tool in "${tools[@]}"; do
  before=$(transactions)
  log "$tool: first install of $N packages"
  med[$tool|first]=$(run_tool "$tool")
  [ "$tool" != muster ] || check_ms[first]=$(cat "$work/check_ms")
  [ "$tool" != muster ] || [ "$(( $(transactions) - before ))" -eq 1 ] || die "muster used $(( $(transactions) - before )) apt transactions, not 1"
  samples=() checks=()
  for _ in $(seq "$runs"); do
    samples+=("$(run_tool "$tool")")
    [ "$tool" != muster ] || checks+=("$(cat "$work/check_ms")")
  done
  med[$tool|idempotent]=$(median "${samples[@]}")
  [ "$tool" != muster ] || check_ms[idempotent]=$(median "${checks[@]}")
  log "$tool: first ${med[$tool|first]} ms, idempotent median ${med[$tool|idempotent]} ms of ${samples[*]}$([ "$tool" != muster ] || echo "; the check: first ${check_ms[first]} ms, idempotent ${check_ms[idempotent]} ms")"
  "$root/scripts/local-apt-repo" clean "$repo"
done

ratio() { [ -n "${2:-}" ] && [ "${2:-0}" -gt 0 ] && awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }' || true; }
met=1
[ "${check_ms[idempotent]}" -lt $TARGET_MS ] || met=0
if [ "$output" = json ]; then
  printf '{"packages":%d,"runs":%d,"muster":{"first_ms":%s,"idempotent_ms":%s,"check_first_ms":%s,"check_idempotent_ms":%s}' \
    $N "$runs" "${med[muster|first]}" "${med[muster|idempotent]}" "${check_ms[first]}" "${check_ms[idempotent]}"
  if [ -n "${med[puppet|first]:-}" ]; then
    printf ',"puppet":{"first_ms":%s,"idempotent_ms":%s},"ratio_first":%s,"ratio_idempotent":%s' "${med[puppet|first]}" "${med[puppet|idempotent]}" \
      "$(ratio "${med[puppet|first]}" "${med[muster|first]}")" "$(ratio "${med[puppet|idempotent]}" "${med[muster|idempotent]}")"
  fi
  printf ',"target_check_idempotent_ms":%d,"target_met":%s}\n' $TARGET_MS "$([ $met = 1 ] && echo true || echo false)"
else
  echo "$N packages from a local apt repository, median of $runs idempotent runs (load $(cut -d' ' -f1-3 /proc/loadavg))"
  printf '%-10s %12s %16s %22s\n' phase muster "muster's check" puppet
  for phase in first idempotent; do
    printf '%-10s %9s ms %13s ms %13s ms %s\n' "$phase" "${med[muster|$phase]}" "${check_ms[$phase]}" "${med[puppet|$phase]:--}" \
      "$([ -n "${med[puppet|$phase]:-}" ] && echo "($(ratio "${med[puppet|$phase]}" "${med[muster|$phase]}")x muster)")"
  done
  echo "target: muster's idempotent check of $N packages under $TARGET_MS ms: ${check_ms[idempotent]} ms ($([ $met = 1 ] && echo met || echo MISSED))"
fi
[ $met = 1 ] || exit 1
