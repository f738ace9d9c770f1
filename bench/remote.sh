#!/usr/bin/env bash
# bench/remote.sh: agentless throughput. The same manifest of 100 files converged on H hosts over SSH by
# `muster remote` (cold cache, then warm cache) and by `ansible-playbook`, in the same run.
#
#   bench/remote.sh [H...] [--runs K] [--cconns C] [--output text|json] [--keep]
#
# Each "host" (default H = 1 4 16) is a real OpenSSH sshd on its own 127.0.0.1 port with its own host key and
# its own login (a user mbenchN made for the run and removed after it), so each has its own home: its own
# muster cache (~/.cache/muster) and its own ansible temp directory, as separate machines would. Every run
# starts with the hosts' 100 files deleted, so both tools create them: a directory and 100 files of 64 bytes,
# mode 0644, under /tmp/muster-bench-remote/<tool>/<host>/.
#
#   muster cold   the hosts' caches are emptied before the run: the jar and the Java runtime are uploaded
#   muster warm   the caches are kept from the previous run
#   ansible       ansible-playbook, forks = --cconns, pipelining on, no fact gathering (its best case),
#                 one `file` task for the directory and one `copy` task looping over the 100 files
#
# For each H: one untimed run of each tool (Ansible's only at the first H), then --runs (default 3) timed runs of each, interleaved; the
# median wall time of the whole command is reported, with hosts per minute and the ratio of muster's
# throughput to Ansible's. Targets: warm-cache muster >= 10x Ansible's hosts per minute (at the largest H),
# and a cold first contact under 15 s per host (the H=1 cold run).
#
# Needs root (it makes users), /usr/sbin/sshd (openssh-server), ansible-playbook (ansible-core), jq, and
# muster's jlink runtime (the launcher builds it). Exit codes: 0 targets met, 1 a target missed, 2 the bench
# failed, 64 usage. See bench/README.md.
set -euo pipefail
export LC_ALL=C

bench="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
root="$(dirname "$bench")"
me=remote.sh
keep=0
. "$bench/lib.sh"

sizes=()
runs=3
cconns=8
output=text
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) [ $# -ge 2 ] || usage; runs="$2"; shift 2 ;;
    --cconns) [ $# -ge 2 ] || usage; cconns="$2"; shift 2 ;;
    --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
    --output=*) output="${1#--output=}"; shift ;;
    --keep) keep=1; shift ;;
    -h|--help) usage ;;
    *[!0-9]*|'') echo "$me: unknown argument '$1'" >&2; usage ;;
    *) sizes+=("$1"); shift ;;
  esac
done
case "$output" in text|json) ;; *) echo "$me: --output is text or json" >&2; exit 64 ;; esac
case "$runs$cconns" in *[!0-9]*) echo "$me: --runs and --cconns are numbers" >&2; exit 64 ;; esac
[ "$runs" -ge 1 ] && [ "$cconns" -ge 1 ] || { echo "$me: --runs and --cconns are at least 1" >&2; exit 64; }
[ ${#sizes[@]} -gt 0 ] || sizes=(1 4 16)
max_h=0; for h in "${sizes[@]}"; do [ "$h" -ge 1 ] || { echo "$me: H is at least 1" >&2; exit 64; }; [ "$h" -le "$max_h" ] || max_h=$h; done

FILES=100
TARGET_RATIO=10          # warm muster's hosts per minute over Ansible's
TARGET_COLD_MS=15000     # a cold first contact, upload included, per host

# --- what it needs -------------------------------------------------------------------------------------------
[ "$(id -u)" -eq 0 ] || { echo "$me: needs root (it makes a user per host)" >&2; exit 2; }
[ -x /usr/sbin/sshd ] || { echo "$me: needs sshd (apt-get install openssh-server)" >&2; exit 2; }
command -v ansible-playbook >/dev/null || { echo "$me: needs ansible-playbook (apt-get install ansible-core)" >&2; exit 2; }
command -v jq >/dev/null || { echo "$me: needs jq (apt-get install jq)" >&2; exit 2; }
use_jdk

out=/tmp/muster-bench-remote
pids=()
users=()
# userdel refuses a user with processes left: the sessions the listening sshd forked (and Ansible's
# persistent connections) outlive it, so they are killed first.
remove_user() {
  pkill -KILL -u "$1" 2>/dev/null || true
  for _ in $(seq 1 50); do pgrep -u "$1" >/dev/null || break; sleep 0.1; done
  userdel -r "$1" >/dev/null 2>&1 || true
}
cleanup() {
  local pid u
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  for u in "${users[@]}"; do remove_user "$u"; done
  rm -rf "$out"
  remove_work_dir
}
trap cleanup EXIT
make_work_dir
chmod 0755 "$work"

# --- hosts: a login and an sshd each ----------------------------------------------------------------------------
mkdir -p /run/sshd "$out"
chmod 1777 "$out"
ssh-keygen -q -t ed25519 -N '' -f "$work/client" -C muster-bench
: >"$work/known_hosts"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
ports=()
log "starting $max_h sshd hosts..."
for i in $(seq 1 "$max_h"); do
  u="mbench$i"
  remove_user "$u"
  useradd -m -p '*' -s /bin/bash "$u"   # '*': no password, but not locked ('!'), which sshd refuses
  users+=("$u")
  install -d -m 0700 -o "$u" -g "$u" "/home/$u/.ssh"
  install -m 0600 -o "$u" -g "$u" "$work/client.pub" "/home/$u/.ssh/authorized_keys"
  ssh-keygen -q -t ed25519 -N '' -f "$work/host$i"
  port="$(free_port)"
  /usr/sbin/sshd -D -e -f /dev/null -p "$port" -o ListenAddress=127.0.0.1 -o HostKey="$work/host$i" \
    -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no -o MaxStartups=100 -o MaxSessions=100 \
    -o AllowTcpForwarding=yes -o "Subsystem=sftp internal-sftp" -o PidFile="$work/sshd$i.pid" \
    -o LogLevel=ERROR >"$work/sshd$i.log" 2>&1 &
  pids+=($!)
  ports+=("$port")
  echo "[127.0.0.1]:$port $(cut -d' ' -f1-2 "$work/host$i.pub")" >>"$work/known_hosts"
done
for i in $(seq 1 "$max_h"); do
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/${ports[$((i - 1))]}") 2>/dev/null && break
    kill -0 "${pids[$((i - 1))]}" 2>/dev/null || die "sshd $i did not start: $(cat "$work/sshd$i.log")"
    sleep 0.1   # polling a port that is not open yet: there is nothing to await
  done
done

# --- the manifest and the playbook ----------------------------------------------------------------------------
content="$(printf 'x%.0s' $(seq 1 63))"
{
  echo "resources:"
  echo "  - file:"
  echo "      - $out/muster/\${facts.host}: {ensure: directory, mode: \"0755\"}"
  echo "      - defaults: {mode: \"0644\", content: \"$content\\n\"}"
  for f in $(seq -w 1 $FILES); do echo "      - $out/muster/\${facts.host}/f$f: {}"; done
} >"$work/site.yaml"
{
  echo "- hosts: all"
  echo "  gather_facts: false"
  echo "  tasks:"
  echo "    - ansible.builtin.file: {path: \"$out/ansible/{{ inventory_hostname }}\", state: directory, mode: \"0755\"}"
  echo "    - ansible.builtin.copy:"
  echo "        dest: \"$out/ansible/{{ inventory_hostname }}/f{{ '%03d' | format(item) }}\""
  echo "        content: \"$content\\n\""
  echo "        mode: \"0644\""
  echo "      loop: \"{{ range(1, $((FILES + 1))) | list }}\""
} >"$work/site.playbook.yaml"
cat >"$work/ansible.cfg" <<EOF
[defaults]
host_key_checking = True
forks = $cconns
stdout_callback = default
display_skipped_hosts = False
[ssh_connection]
pipelining = True
ssh_args = -o ControlMaster=auto -o ControlPersist=60s -o UserKnownHostsFile=$work/known_hosts
EOF

inventory() { # H
  local i
  echo "[all]"
  for i in $(seq 1 "$1"); do echo "h$i ansible_host=127.0.0.1 ansible_port=${ports[$((i - 1))]} ansible_user=mbench$i ansible_ssh_private_key_file=$work/client"; done
}
dests() { # H
  local i
  for i in $(seq 1 "$1"); do printf 'h%s=mbench%s@127.0.0.1:%s\n' "$i" "$i" "${ports[$((i - 1))]}"; done
}

# --- runs ---------------------------------------------------------------------------------------------------------
warm_up_muster --prefix "$work/warmup-state"   # builds the jar when stale, and its CDS archive on a real apply
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
verify() { # TOOL H
  local i n
  for i in $(seq 1 "$2"); do
    n=0
    [ ! -d "$out/$1/h$i" ] || n="$(find "$out/$1/h$i" -maxdepth 1 -type f -name 'f*' | wc -l)"
    [ "$n" -eq $FILES ] || die "$1: host h$i has $n of $FILES files after a run that said it converged"
  done
}
run_tool() { # TOOL H -> prints ms
  local tool=$1 h=$2 start rc=0 log="$work/$1-h$2-$3.log"
  rm -rf "$out/${tool%-*}"
  install -d -m 1777 "$out/${tool%-*}"   # the hosts' logins each make their directory in it
  case "$tool" in
    muster-cold) for i in $(seq 1 "$h"); do rm -rf "/home/mbench$i/.cache/muster"; done ;;
  esac
  [ "$tool" != ansible ] || inventory "$h" >"$work/inventory-h$h"
  start=$(now_ms)
  case "$tool" in
    muster-*)
      # shellcheck disable=SC2046
      "$root/muster" remote -i "$work/client" --known-hosts "$work/known_hosts" --cconns "$cconns" \
        $(dests "$h") -- "$work/site.yaml" >"$log" 2>&1 || rc=$? ;;
    ansible)
      LC_ALL=C.UTF-8 ANSIBLE_CONFIG="$work/ansible.cfg" ansible-playbook -i "$work/inventory-h$h" "$work/site.playbook.yaml" >"$log" 2>&1 || rc=$? ;;
  esac
  local ms=$(( $(now_ms) - start ))
  [ "$rc" -eq 0 ] || die "$tool on $h hosts exited $rc (log: $log)"
  verify "${tool%-*}" "$h"
  echo "$ms"
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { m = (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%.0f", m }'; }

started=$SECONDS
load_start="$(cut -d' ' -f1-3 /proc/loadavg)"
declare -A samples
tools=(muster-cold muster-warm ansible)
for h in "${sizes[@]}"; do
  log "H=$h: untimed runs"
  # muster's untimed runs at every H (its private fleet, JIT and CDS); Ansible's only once (its Python caches)
  for t in "${tools[@]}"; do
    [ "$t" != ansible ] || [ "$h" = "${sizes[0]}" ] || continue
    run_tool "$t" "$h" warmup >/dev/null
  done
  for r in $(seq 1 "$runs"); do
    for t in "${tools[@]}"; do
      ms="$(run_tool "$t" "$h" "$r")"
      samples[$t,$h]+="$ms "
      log "H=$h run $r: $t ${ms} ms"
    done
  done
done
load_end="$(cut -d' ' -f1-3 /proc/loadavg)"
elapsed=$((SECONDS - started))

# --- results and targets ------------------------------------------------------------------------------------------
declare -A med hpm
for key in "${!samples[@]}"; do
  med[$key]="$(median <<<"${samples[$key]}")"
  h="${key#*,}"
  hpm[$key]="$(awk -v h="$h" -v ms="${med[$key]}" 'BEGIN { printf "%.1f", h * 60000 / ms }')"
done
ratio() { awk -v a="${hpm[$1,$3]}" -v b="${hpm[$2,$3]}" 'BEGIN { printf "%.2f", a / b }'; }
warm_ratio="$(ratio muster-warm ansible "$max_h")"
if awk -v r="$warm_ratio" -v l="$TARGET_RATIO" 'BEGIN { exit !(r >= l) }'; then s=pass; else s=fail; fi
add_target warm_ratio_vs_ansible "$warm_ratio" "$TARGET_RATIO" "$s" "warm muster / ansible hosts per minute at H=$max_h = ${warm_ratio}x (target >= ${TARGET_RATIO}x)"
if [ -n "${med[muster-cold,1]:-}" ]; then
  if [ "${med[muster-cold,1]}" -lt "$TARGET_COLD_MS" ]; then s=pass; else s=fail; fi
  add_target cold_first_contact_ms "${med[muster-cold,1]}" "$TARGET_COLD_MS" "$s" "cold first contact, one host = ${med[muster-cold,1]} ms (target < $TARGET_COLD_MS ms)"
else
  add_target cold_first_contact_ms "" "$TARGET_COLD_MS" skip "cold first contact: not measured (no H=1)"
fi

if [ "$output" = json ]; then
  rows=""
  for h in "${sizes[@]}"; do
    for t in "${tools[@]}"; do
      rows+="$(printf '{"hosts":%s,"tool":"%s","median_ms":%s,"samples_ms":[%s],"hosts_per_minute":%s}' "$h" "$t" \
        "${med[$t,$h]}" "$(echo ${samples[$t,$h]} | tr ' ' ',')" "${hpm[$t,$h]}"),"
    done
  done
  printf '{"bench":"remote","schema":1,"host":%s,"elapsed_s":%s,"files":%s,"cconns":%s,"runs":%s,"results":[%s],"targets":%s,"pass":%s}\n' \
    "$(json_host "$load_start" "$load_end")" "$elapsed" "$FILES" "$cconns" "$runs" "${rows%,}" "$(json_targets)" \
    "$(targets_failed && echo false || echo true)"
else
  echo "muster bench: remote — $(nproc) cores, $FILES files per host, --cconns/forks $cconns, $runs runs (median), ${elapsed}s, load average $load_start -> $load_end"
  echo
  printf '%5s  %-12s %10s %14s %12s\n' hosts tool "median ms" "hosts/minute" "x ansible"
  for h in "${sizes[@]}"; do
    for t in "${tools[@]}"; do
      printf '%5d  %-12s %10s %14s %12s\n' "$h" "$t" "${med[$t,$h]}" "${hpm[$t,$h]}" "$(ratio "$t" ansible "$h")"
    done
  done
  echo
  print_targets
fi
targets_failed && exit 1
exit 0
