#!/usr/bin/env bash
# Wall time of the whole Callx suite against the embedded reference backend, against its longest
# scenario (the ratio wall / longest: 1.0 is as fast as the suite can be; target <= 1.2) and against the
# sum of the scenarios' own times (how much running them concurrently saves), and the spread of the race
# steps (how far apart the racing requests left the client), median and maximum.
#
# Runs 'ringcheck run --format json' N times (default 3) and reads each report.json; race spreads
# come from the timeline note each race step writes ("race released K requests within X ms").
#
# With --target FILE the suite runs against that target file (its lifecycle starts the backend), so
# `--target examples/targets/reference-pools.yaml` against no option compares a target with account
# pools with the embedded run (issue 29's goal: at most 1.5x).
#
# Usage: benchmarks/suite-wall-time.sh [-n RUNS] [--debug] [--target FILE]
#   RINGCHECK_BIN=path  use this binary instead of building one.
# Needs: swift, /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."

. benchmarks/lib.sh
suite_run_options 3 "$0" "$@"
bin=$(ringcheck_binary "$config")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for i in $(seq 1 "$runs"); do
    start=$(date +%s.%N)
    status=0
    "$bin" run "${target_args[@]}" --format json --report-dir "$work/run$i" >/dev/null 2>"$work/run$i.err" || status=$?
    end=$(date +%s.%N)
    echo "$start $end $status" >"$work/run$i.time"
done

/usr/bin/python3 - "$work" "$runs" <<'PY'
import json, re, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
spreads, rows = [], []
for i in range(1, runs + 1):
    start, end, status = open(f"{work}/run{i}.time").read().split()
    wall = float(end) - float(start)
    r = json.load(open(f"{work}/run{i}/report.json"))
    durations = [s["durationMs"] / 1000 for s in r["scenarios"]]
    longest = max(r["scenarios"], key=lambda s: s["durationMs"])
    passed = sum(1 for s in r["scenarios"] if s["status"] == "pass")
    rows.append((wall, sum(durations), longest["durationMs"] / 1000, longest["id"], passed, len(durations), int(status)))
    for s in r["scenarios"]:
        if s["status"] != "pass":
            print(f"run {i}: {s['id']} {s['status']}", file=sys.stderr)
    for s in r["scenarios"]:
        if not (s["id"].startswith("arbitration.") or "race" in s.get("tags", [])):
            continue
        for t in s["timeline"]:
            m = re.match(r"race released (\d+) requests within ([0-9.]+) ms", t["summary"])
            if m:
                spreads.append((s["id"], float(m.group(2))))
print(f"{'run':>3} {'wall s':>7} {'sum of scenarios s':>19} {'longest s':>9}  {'passed':>7}  exit  longest scenario")
for i, (wall, total, longest, lid, passed, n, status) in enumerate(rows, 1):
    print(f"{i:>3} {wall:>7.2f} {total:>19.2f} {longest:>9.2f}  {passed:>3}/{n:<3}  {status:>4}  {lid}")
walls = [r[0] for r in rows]
sums = [r[1] for r in rows]
longests = [r[2] for r in rows]
print(f"wall (median): {statistics.median(walls):.2f} s; longest scenario (median): "
      f"{statistics.median(longests):.2f} s; wall / longest: "
      f"{statistics.median(w / l for w, l in zip(walls, longests)):.2f} (median of the runs' ratios)")
print(f"sum of scenario times (median): "
      f"{statistics.median(sums):.2f} s; concurrency saves {statistics.median(sums) / statistics.median(walls):.1f}x")
if spreads:
    values = sorted(v for _, v in spreads)
    print(f"race spread over {len(values)} races in arbitration/race scenarios: "
          f"median {statistics.median(values):.3f} ms, max {values[-1]:.3f} ms")
    for sid in sorted({s for s, _ in spreads}):
        v = sorted(x for s, x in spreads if s == sid)
        print(f"  {sid}: median {statistics.median(v):.3f} ms, max {v[-1]:.3f} ms ({len(v)} races)")
else:
    print("no race steps found")
PY
