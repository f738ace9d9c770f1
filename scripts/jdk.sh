# Sourced by ./muster, ./run-tests and bench scripts: selects a JDK >= 22 (muster calls libc through the foreign function API, final in 22) and exports JAVA_HOME.
# JAVA_HOME wins when it is new enough; otherwise the newest JDK under /usr/lib/jvm.

jdk_major() { # prints the major version of the JDK at $1, or nothing
  local release="$1/release" v
  [ -x "$1/bin/java" ] && [ -f "$release" ] || return 0
  v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
  echo "$v"
}

select_jdk() {
  local best="" best_major=0 candidate major
  if [ -n "${JAVA_HOME:-}" ]; then
    major=$(jdk_major "$JAVA_HOME")
    if [ -n "$major" ] && [ "$major" -ge 22 ]; then return 0; fi
  fi
  for candidate in /usr/lib/jvm/*; do
    [ -L "$candidate" ] && continue
    major=$(jdk_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 22 ] && [ "$major" -gt "$best_major" ]; then
      best="$candidate" best_major="$major"
    fi
  done
  if [ -z "$best" ]; then
    echo "muster: no JDK 22 or newer found (JAVA_HOME=${JAVA_HOME:-unset}, /usr/lib/jvm has: $(ls /usr/lib/jvm 2>/dev/null | tr '\n' ' '))." >&2
    echo "muster: install one, e.g. 'apt-get install temurin-25-jdk' or 'apt-get install openjdk-25-jdk', or set JAVA_HOME." >&2
    return 1
  fi
  export JAVA_HOME="$best"
}

# Maven on JDK 24+ warns about jansi and guava internals on every run; those warnings are not ours.
maven_quiet_opts() {
  local major
  major=$(jdk_major "$JAVA_HOME")
  if [ -n "$major" ] && [ "$major" -ge 24 ]; then
    export MAVEN_OPTS="${MAVEN_OPTS:-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
  fi
}
