#!/bin/sh
# Writes OUT/BuildCommit.swift naming the commit ringcheck is built from (the BuildInfo plugin runs this
# before every build). Usage: build-info.sh PACKAGE_DIR OUT_DIR
# The commit: `git rev-parse --short=12 HEAD` in PACKAGE_DIR, with "-dirty" when tracked files differ from
# it; outside a checkout $RINGCHECK_COMMIT; else "unknown". The file is rewritten only when its text changes.
set -u
package=$1
out=$2
mkdir -p "$out"
commit=$(git -C "$package" rev-parse --short=12 HEAD 2>/dev/null) || commit=""
if [ -n "$commit" ]; then
    git -C "$package" diff --quiet HEAD -- 2>/dev/null || commit="$commit-dirty"
else
    commit=${RINGCHECK_COMMIT:-unknown}
fi
# Only the characters a commit name has, so the Swift literal below stays a literal.
commit=$(printf '%s' "$commit" | tr -cd 'A-Za-z0-9._-')
text="/// The commit this binary was built from (scripts/build-info.sh).
let buildCommit = \"$commit\""
if [ ! -f "$out/BuildCommit.swift" ] || [ "$(cat "$out/BuildCommit.swift")" != "$text" ]; then
    printf '%s\n' "$text" > "$out/BuildCommit.swift"
fi
