#!/bin/sh
# runtime.sh JDK OUT: links OUT, the Java runtime muster ships (the .deb, and the agentless mode's upload), from JDK's
# run-time image (jlink of JDK 24+ needs no jmods, JEP 493), and lists its files in OUT/muster-runtime.sha256.
# Run by deploy/pom.xml and by ./muster remote from a checkout.
set -eu
jdk=$1 out=$2

# jdeps --print-module-deps on the shaded jar names java.base, java.naming, java.net.http, java.security.jgss,
# jdk.httpserver, jdk.management and jdk.unsupported, which muster runs, and also java.desktop (java.beans), java.sql,
# java.scripting, java.compiler and jdk.jfr, only for code muster never calls (JEXL's script engine and bean
# introspection, Jackson's java.sql types, Vert.x's verticle compiler, Netty's JFR events): left out. Only at run time:
# java.logging (JUL bridged to logback) and java.management (Prometheus's JVM metrics). EC, Ed25519, X25519 and TLS
# (JSch, etcd) are in java.base since JDK 22. Checked with this runtime: apply, plan, validate, graph, run with
# --prometheus (JVM metrics served), coordinator --dev with etcd, agent, deploy --wait, status, and JSch to OpenSSH
# with ed25519 keys over curve25519 and ecdh-sha2-nistp256.
modules=java.base,java.logging,java.management,java.naming,java.net.http,java.security.jgss,jdk.httpserver,jdk.management,jdk.unsupported

# Linking takes 5 to 60 s on a busy machine: a runtime from this script and this JDK is kept
if [ "$out/muster-runtime.sha256" -nt "$0" ] && [ "$(grep '^JAVA_VERSION=' "$out/release" 2>/dev/null)" = "$(grep '^JAVA_VERSION=' "$jdk/release")" ]; then
  exit 0
fi
rm -rf "$out"
# --compress=zip-6: the module image takes 14 MB instead of 30, and muster apply starts as fast (median of 11 with
# the launchers' options: 0.44 s, 0.43 s uncompressed, 0.51 s on the full JDK; CPU 0.56, 0.55 and 0.54 s);
# --generate-cds-archive: the default class-data archive the JDK ships, under which the launchers add muster's own.
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=zip-6 --generate-cds-archive --output "$out" >/dev/null
# The archive for heaps of 32 GB and more (no compressed oops): muster's are far smaller; without it such a JVM just
# starts without class-data sharing.
rm -f "$out/lib/server/classes_nocoops.jsa"
# The JDK's native code keeps its symbol tables (5 MB); Debian's own JDK packages strip them too
if command -v strip >/dev/null; then
  find "$out" -type f \( -name '*.so' -o -path "$out/bin/*" -o -name jspawnhelper -o -name jexec \) -exec strip --strip-unneeded {} +
fi

cd "$out"
find -L . -type f ! -name muster-runtime.sha256 | sed 's|^\./||' | LC_ALL=C sort | xargs -d '\n' sha256sum > muster-runtime.sha256
