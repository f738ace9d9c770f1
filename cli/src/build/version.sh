#!/bin/sh
# version.sh VERSION FILE: writes FILE, the properties "muster --version" prints: VERSION and the git commit of this
# checkout, "-dirty" when tracked files have changes, "unknown" outside a checkout or without git. Run by cli/pom.xml.
set -eu
version=$1 file=$2
cd "$(dirname "$0")"
commit=$(git rev-parse --short=7 HEAD 2>/dev/null) || commit=unknown
if [ "$commit" != unknown ] && ! git diff --quiet HEAD -- 2>/dev/null; then
  commit=$commit-dirty
fi
mkdir -p "$(dirname "$file")"
printf '# written by cli/src/build/version.sh\nversion=%s\ncommit=%s\n' "$version" "$commit" > "$file"
