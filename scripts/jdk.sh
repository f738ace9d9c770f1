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

# select_jdk remembered in FILE (the launcher's, under cli/target), and JDK_MAJOR set: reading release files under
# /usr/lib/jvm costs every run a few processes. The choice holds while JAVA_HOME is what it was, nothing was installed
# beside the chosen JDK or removed (its parent directory's time stamp) and the JDK was not updated in place (its own
# directory's: a package manager renames its new files into it).
select_jdk_cached() { # FILE
  local file=$1 given=${JAVA_HOME:-} was="" chosen="" major=""
  if [ -f "$file" ] && { read -r was && read -r chosen && read -r major; } <"$file" && [ "$was" = "$given" ] && [ -n "$major" ] \
       && [ -x "$chosen/bin/java" ] && [ "$file" -nt "$chosen" ] && [ "$file" -nt "${chosen%/*}" ] \
       && { [ -z "$given" ] || { [ "$file" -nt "$given" ] && [ "$file" -nt "${given%/*}" ]; }; }; then
    export JAVA_HOME="$chosen"
    JDK_MAJOR=$major
    return 0
  fi
  select_jdk || return 1
  JDK_MAJOR=$(jdk_major "$JAVA_HOME")
  if [ -d "${file%/*}" ]; then
    printf '%s\n%s\n%s\n' "$given" "$JAVA_HOME" "$JDK_MAJOR" >"$file.$$" && mv -f "$file.$$" "$file" || rm -f "$file.$$"
  fi
}

# Maven on JDK 24+ warns about jansi and guava internals on every run; those warnings are not ours.
maven_quiet_opts() {
  local major
  major=$(jdk_major "$JAVA_HOME")
  if [ -n "$major" ] && [ "$major" -ge 24 ]; then
    export MAVEN_OPTS="${MAVEN_OPTS:-} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow"
  fi
}
