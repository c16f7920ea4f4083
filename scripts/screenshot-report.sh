#!/bin/sh
# Screenshots ringcheck's HTML report in headless Chromium for three runs of the embedded Callx
# reference: a pass, a MUST failure (--reference-defect apns-expiration-30, which breaks CALLX-APNS-5 in
# most scenarios) and a SHOULD-only run (--reference-defect long-lived-media, a warning, exit 0).
# For each it writes OUT/NAME.png (the first screen at 1400x1000) and OUT/NAME-requirements.png (the
# requirements tables at 1400x1000), beside OUT/NAME/ with the run's reports.
#
# Usage: scripts/screenshot-report.sh [OUT_DIR]          (default: screenshots)
#   RINGCHECK=path/to/ringcheck  the binary to run (default: .build/debug/ringcheck, else ringcheck on PATH)
#   CHROMIUM=path/to/chromium    the browser (default: chromium on PATH; Debian: apt-get install -y chromium)
# Exits 0 when all six PNGs were written; 2 when Chromium or ringcheck is missing; 1 when a run or a
# screenshot failed (a run exiting other than expected counts as failed).
set -u
out=${1:-screenshots}
ringcheck=${RINGCHECK:-}
if [ -z "$ringcheck" ]; then
    if [ -x .build/debug/ringcheck ]; then ringcheck=.build/debug/ringcheck; else ringcheck=$(command -v ringcheck || true); fi
fi
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$chromium" ] || [ ! -x "$chromium" ]; then
    echo "screenshot-report.sh: no chromium found; install it with: apt-get install -y chromium (or set CHROMIUM)" >&2
    exit 2
fi
if [ -z "$ringcheck" ] || [ ! -x "$ringcheck" ]; then
    echo "screenshot-report.sh: no ringcheck binary; build it (swift build) or set RINGCHECK" >&2
    exit 2
fi
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
# Chromium keeps its profile here, not in $HOME, and it is removed at the end.
profile=$(mktemp -d "${TMPDIR:-/tmp}/ringcheck-chromium.XXXXXX") || exit 2
trap 'rm -rf "$profile"' EXIT INT TERM

status=0
# shoot NAME EXPECTED_EXIT RINGCHECK_ARGS...
shoot() {
    name=$1
    expected=$2
    shift 2
    rm -rf "${out:?}/$name"
    "$ringcheck" run "$@" --quiet --format html,json,markdown,junit --report-dir "$out/$name" >"$out/$name.log" 2>&1
    code=$?
    if [ "$code" -ne "$expected" ]; then
        echo "screenshot-report.sh: $name: ringcheck run $* exited $code, expected $expected (see $out/$name.log)" >&2
        status=1
    fi
    if [ ! -f "$out/$name/report.html" ]; then
        echo "screenshot-report.sh: $name: no report.html written" >&2
        status=1
        return
    fi
    # The first screen, then the requirements tables: the same page with its header and "What failed"
    # hidden (a copy in the temporary directory), since a headless screenshot shows the top of a page only.
    sed 's|</head>|<style>header,.what-failed{display:none}</style></head>|' "$out/$name/report.html" \
        >"$profile/$name-requirements.html"
    for view in first requirements; do
        page="$out/$name/report.html"
        png="$out/$name.png"
        if [ "$view" = requirements ]; then
            page="$profile/$name-requirements.html"
            png="$out/$name-requirements.png"
        fi
        rm -f "$png"
        # --no-sandbox: CI containers run as root, where Chromium's sandbox refuses to start.
        "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile/browser" \
            --window-size=1400,1000 --screenshot="$png" "file://$page" >>"$out/$name.log" 2>&1
        if [ ! -s "$png" ]; then
            echo "screenshot-report.sh: $name: chromium wrote no $png (see $out/$name.log)" >&2
            status=1
        else
            echo "$png"
        fi
    done
}

shoot pass 0
shoot must 1 --reference-defect apns-expiration-30
shoot should 0 --reference-defect long-lived-media
exit $status
