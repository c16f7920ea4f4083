#!/usr/bin/env bash
# Runs the whole Callx suite against the embedded reference backend N times in a row (default 20)
# and reports every run that did not pass all scenarios: the proof that the suite is not flaky.
# Exits 0 only when every run exited 0 with every scenario passing.
#
# Usage: benchmarks/suite-repeat.sh [-n RUNS] [--debug]
#   RINGCHECK_BIN=path  use this binary instead of building one.
# Needs: swift, /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."

. benchmarks/lib.sh
suite_run_options 20 "$0" "$@"
bin=$(ringcheck_binary "$config")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
for i in $(seq 1 "$runs"); do
    status=0
    "$bin" run --format json,console --report-dir "$work/run$i" >"$work/run$i.out" 2>&1 || status=$?
    ok=1
    summary=$(/usr/bin/python3 -c "
import json
r = json.load(open('$work/run$i/report.json'))
s = r['scenarios']
bad = [x['id'] + ':' + x['status'] for x in s if x['status'] != 'pass']
print(f\"{len(s) - len(bad)}/{len(s)} passed {' '.join(bad)}\")
raise SystemExit(1 if bad else 0)") || ok=0
    echo "run $i: exit $status, $summary $(grep -o 'in [0-9.]*s$' "$work/run$i.out" | tail -1)"
    if [ "$ok" = 0 ] || [ "$status" != 0 ]; then
        bad=$((bad + 1))
        grep -A12 '^── ' "$work/run$i.out" | head -60 || true
    fi
done
echo "$((runs - bad)) of $runs runs passed every scenario"
[ "$bad" = 0 ]
