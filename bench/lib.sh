# Sourced by the bench scripts: what they share, as functions. The script sets $me (its name, for
# messages), $bench (this directory), $root (the repository) and $keep (1: keep the work directory).

usage() { # the script's header comment, without its first line
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 64
}
log() { echo "$me: $*" >&2; }
die() { echo "$me: FAIL: $*" >&2; keep=1; exit 2; }

# The JDK for the floors and helpers, the one the launcher picks (scripts/jdk.sh). Sets $java.
. "$root/scripts/jdk.sh"
use_jdk() {
  select_jdk || { echo "$me: needs a JDK 22 or newer (see above)" >&2; exit 2; }
  java="$JAVA_HOME/bin/java"
}

# The work directory: on tmpfs when there is one, so that the numbers are CPU and system-call costs.
# Sets $work and $work_fs; remove_work_dir (from the script's EXIT trap) keeps it with --keep or a failure.
make_work_dir() {
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    work="$(mktemp -d /dev/shm/muster-bench.XXXXXX)"
  else
    work="$(mktemp -d "${TMPDIR:-/tmp}/muster-bench.XXXXXX")"
  fi
  work_fs="$(stat -f -c %T "$work" 2>/dev/null || echo unknown)"
}
remove_work_dir() {
  if [ -n "${work:-}" ] && [ -d "$work" ]; then
    if [ "$keep" = 1 ]; then log "work directory kept: $work"; else rm -rf "$work"; fi
  fi
}

# Whether this module needs a build: STAMP (its jar, or a class) is missing or older than a source.
bench_stale() { # STAMP
  [ -z "$1" ] || [ ! -f "$1" ] || [ -n "$(find "$bench/src" "$bench/pom.xml" "$root/pom.xml" -newer "$1" -print -quit 2>/dev/null)" ]
}
# Builds it. The caller then touches its stamp: maven leaves an up-to-date file alone, and the stamp must
# still say "built after the sources".
build_bench() {
  log "building the bench module..."
  maven_quiet_opts
  if ! (cd "$root" && ./mvnw -B -q -DskipTests -pl bench -am package) >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    die "bench module build failed"
  fi
}

# What a harness running on cli/target/muster.jar needs: the JDK, the work directory (removed on exit), the
# harness class STAMP built when a source is newer, and muster warmed up (the launcher builds the jar when stale).
prepare_harness() { # STAMP
  use_jdk
  trap remove_work_dir EXIT
  make_work_dir
  if bench_stale "$1"; then
    build_bench
    [ -f "$1" ] || die "no $1 after the build"
    touch "$1"
  fi
  mkdir -p "$work/muster-state"
  warm_up_muster --prefix "$work/muster-state"
}

# Runs the harness CLASS once for each N of $sizes, with the JVM flags the launcher gives long-running commands
# (serial GC, full JIT) and the arguments N, its work directory, ARGS; its stdout is one JSON object. Sets $all
# (the array of them), $elapsed, $load_start and $load_end.
run_harness() { # CLASS ARGS...
  local class="$1" started n result results=()
  shift
  started=$SECONDS
  load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
  for n in "${sizes[@]}"; do
    log "N=$n"
    mkdir -p "$work/n$n"
    if ! result="$("$java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -XX:+UseSerialGC \
        -cp "$bench/target/classes:$root/cli/target/muster.jar" "$class" \
        "$n" "$work/n$n" "$@" 2> >(tee "$work/n$n/harness.err" >&2))"; then
      die "N=$n: the harness failed (its output: $work/n$n/harness.err)"
    fi
    results+=("$result")
  done
  load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
  elapsed=$((SECONDS - started))
  all="$(printf '%s\n' "${results[@]}" | jq -s .)"
}

# The launcher builds cli/target/muster.jar when it is stale, and on the first run after a build its start-up
# cache (from a training apply of its own): the warm-up, an apply --noop of a small file manifest, has both
# done before anything is timed. Sets $muster_version.
warm_up_muster() { # extra apply options (where state goes)
  printf 'resources:\n  - file:\n      - %s/warmup: {ensure: directory, mode: "0755"}\n      - defaults: {mode: "0644"}\n      - %s/warmup/f1: {content: "x\\n"}\n' \
    "$work" "$work" >"$work/warmup.yaml"
  if ! "$root/muster" apply --noop "$@" "$work/warmup.yaml" >"$work/warmup.out" 2>"$work/warmup.err"; then
    cat "$work/warmup.out" "$work/warmup.err" >&2
    die "muster warm-up (build) failed"
  fi
  muster_version="$("$root/muster" --version 2>/dev/null | head -n1 || true)"
}

# Targets: add_target NAME VALUE LIMIT pass|fail|skip TEXT; then $failed, and the lines or the JSON array.
target_names=() target_values=() target_limits=() target_status=() target_text=()
add_target() { target_names+=("$1"); target_values+=("$2"); target_limits+=("$3"); target_status+=("$4"); target_text+=("$5"); }
# A target on the harness results RESULTS (a JSON array): the one whose SIZE_KEY is N must have JQ_PATH below LIMIT.
check_target() { # RESULTS SIZE_KEY N NAME JQ_PATH LIMIT TEXT
  local v
  v="$(jq -r --argjson n "$3" ".[] | select(.$2 == \$n) | $5" <<<"$1")"
  if [ -z "$v" ]; then add_target "$4" "" "$6" skip "$7: not measured (no N=$3)"; return; fi
  if awk -v v="$v" -v l="$6" 'BEGIN { exit !(v < l) }'; then
    add_target "$4" "$v" "$6" pass "$7 = $v ms (target < $6 ms)"
  else
    add_target "$4" "$v" "$6" fail "$7 = $v ms (target < $6 ms)"
  fi
}
targets_failed() { local s; for s in "${target_status[@]}"; do [ "$s" != fail ] || return 0; done; return 1; }
print_targets() {
  local i
  for i in "${!target_names[@]}"; do
    case "${target_status[$i]}" in pass) echo "PASS ${target_text[$i]}" ;; fail) echo "FAIL ${target_text[$i]}" ;; *) echo "SKIP ${target_text[$i]}" ;; esac
  done
}
json_targets() {
  local i sep=""
  printf '['
  for i in "${!target_names[@]}"; do
    printf '%s{"name":"%s","value":%s,"limit":%s,"status":"%s"}' "$sep" "${target_names[$i]}" \
      "$(jnum "${target_values[$i]}")" "${target_limits[$i]}" "${target_status[$i]}"
    sep=","
  done
  printf ']'
}

# JSON values: a string, and a number or null when empty.
jstr() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; s=${s//$'\n'/\\n}; printf '"%s"' "$s"; }
jnum() { if [ -n "${1:-}" ]; then printf '%s' "$1"; else printf 'null'; fi; }
json_host() { # load_start load_end
  printf '{"cores":%s,"kernel":%s,"work_fs":%s,"load_start":%s,"load_end":%s}' \
    "$(nproc)" "$(jstr "$(uname -r)")" "$(jstr "$work_fs")" "$(jstr "$1")" "$(jstr "$2")"
}
