#!/bin/sh
# deb.sh VERSION MAINTAINER TARGET: lays out TARGET/muster, the tree the package installs, from the shaded jar
# (cli/target/muster.jar), TARGET/runtime (runtime.sh), TARGET/docs (io.muster.deploy.Docs and asciidoctor) and
# src/deb, and builds TARGET/muster_VERSION_amd64.deb from it with dpkg-deb (no network, no root needed).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
version=$(printf '%s' "$1" | sed 's/-/~/g') # Debian sorts 0.1.0~SNAPSHOT before 0.1.0, as Maven does
maintainer=$2 target=$3
root=$target/muster

rm -rf "$root"
mkdir -p "$root"
cp -R "$here/src/deb/root/." "$root/"
mkdir -p "$root/usr/lib/muster" "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
  "$root/usr/share/man/man1" "$root/usr/share/doc/muster"
cp "$here/../cli/target/muster.jar" "$root/usr/lib/muster/muster.jar"
cp -R "$target/runtime" "$root/usr/lib/muster/runtime"
sed '1{/^#!/d}' "$target/docs/bash/muster" > "$root/usr/share/bash-completion/completions/muster" # sourced, not run
cp "$target/docs/zsh/_muster" "$root/usr/share/zsh/vendor-completions/_muster"
for page in "$target"/docs/man/*.1; do
  gzip -9n < "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"
done
cp "$here/src/deb/copyright" "$root/usr/share/doc/muster/copyright"
mkdir -p "$root/usr/share/lintian/overrides"
cp "$here/src/deb/lintian-overrides" "$root/usr/share/lintian/overrides/muster"
# a native package's changelog: one entry for this build
printf 'muster (%s) unstable; urgency=medium\n\n  * Built by Maven from %s.\n\n -- %s  %s\n' "$version" \
  "$(sed -n 's/^commit=//p' "$here/../cli/target/classes/io/muster/cli/version.properties")" "$maintainer" "$(date -R)" \
  | gzip -9n > "$root/usr/share/doc/muster/changelog.gz"

# dpkg's view: modes that do not depend on the builder's umask, then control files
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root/usr/bin/muster"
find "$root/usr/lib/muster/runtime" -type f \( -path '*/runtime/bin/*' -o -name jspawnhelper -o -name jexec \) -exec chmod 0755 {} +
mkdir -p "$root/DEBIAN"
cp "$here/src/deb/DEBIAN/conffiles" "$here/src/deb/DEBIAN/postinst" "$here/src/deb/DEBIAN/prerm" "$here/src/deb/DEBIAN/postrm" "$root/DEBIAN/"
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm" "$root/DEBIAN/postrm"
size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@MAINTAINER@|$maintainer|" -e "s|@INSTALLED_SIZE@|$size|" \
  "$here/src/deb/DEBIAN/control" > "$root/DEBIAN/control"
(cd "$root" && find . -path ./DEBIAN -prune -o -path ./etc -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z \
  | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/conffiles" "$root/DEBIAN/md5sums"

rm -f "$target"/muster_*.deb
# gzip -6: the jar and the runtime's modules are compressed already, so xz (dpkg-deb's default) made 46 MB instead of
# 50 but took 93 s instead of 4 here; zstd is as fast but needs dpkg 1.21.18 (Debian 12) to install
dpkg-deb --build --root-owner-group -Zgzip -z6 "$root" "$target/muster_${version}_amd64.deb" >/dev/null
