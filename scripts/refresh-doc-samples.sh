#!/usr/bin/env bash
# Rewrites the sample outputs in docs/ from real runs of the built ringcheck, so that they show what a
# user sees today. Each sample is the fenced block right after a `<!-- sample: NAME -->` line:
#   first-run               docs/getting-started.md          `ringcheck run`
#   apns-expiration-console docs/exit-codes-and-reports.md   `ringcheck run --reference-defect apns-expiration-30`
# DocSamplesTests checks that the samples still match real runs (scenario counts, the failure block's lines).
#
# Usage: scripts/refresh-doc-samples.sh [--ringcheck PATH]   (default: .build/debug/ringcheck; build it first)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
ringcheck=.build/debug/ringcheck
while [ $# -gt 0 ]; do
    case "$1" in
        --ringcheck) ringcheck=$2; shift 2 ;;
        -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "refresh-doc-samples.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
case "$ringcheck" in /*) ;; *) ringcheck=$root/$ringcheck ;; esac
[ -x "$ringcheck" ] || { echo "refresh-doc-samples.sh: no ringcheck at $ringcheck (swift build first)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ringcheck-doc-samples.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Run in a folder of their own, so the reports go to ./reports as in the docs; without colours, as in a log.
status=0
(cd "$work" && NO_COLOR=1 "$ringcheck" run > first-run.txt 2>&1) || status=$?
[ "$status" -eq 0 ] || { echo "ringcheck run exited $status, not 0:" >&2; tail -20 "$work/first-run.txt" >&2; exit 1; }
status=0
(cd "$work" && NO_COLOR=1 "$ringcheck" run --reference-defect apns-expiration-30 > defect.txt 2>&1) || status=$?
[ "$status" -eq 1 ] || { echo "the apns-expiration-30 run exited $status, not 1:" >&2; tail -20 "$work/defect.txt" >&2; exit 1; }

python3 - "$work" <<'EOF'
import sys

work = sys.argv[1]

def first_run(lines):
    """The header, the first and last progress lines, and everything after the progress lines."""
    progress = [i for i, l in enumerate(lines) if l.startswith("[")]
    return [lines[0]] + [lines[i] for i in progress[:3]] + ["…"] + [lines[i] for i in progress[-2:]] + lines[progress[-1] + 1:]

def failure_blocks(lines):
    """From the first grouped failure to the end."""
    start = next(i for i, l in enumerate(lines) if l.startswith("── "))
    return lines[start:]

samples = {
    "first-run": ("docs/getting-started.md", first_run, "first-run.txt"),
    "apns-expiration-console": ("docs/exit-codes-and-reports.md", failure_blocks, "defect.txt"),
}
for name, (page, cut, output) in samples.items():
    lines = open(f"{work}/{output}", encoding="utf-8").read().rstrip("\n").split("\n")
    block = cut(lines)
    text = open(page, encoding="utf-8").read().split("\n")
    marker = text.index(f"<!-- sample: {name} -->")
    if text[marker + 1] != "```":
        sys.exit(f"{page}: the line after the {name} marker must open a fenced block")
    end = text.index("```", marker + 2)
    text[marker + 2:end] = block
    open(page, "w", encoding="utf-8").write("\n".join(text))
    print(f"{page}: {name} sample, {len(block)} lines")
EOF
