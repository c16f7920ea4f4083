#!/usr/bin/env bash
# The reference backend's sustained calls/s with its durable store (SQLite file, WAL,
# synchronous=FULL) against its in-memory store (SQLite ':memory:', the reference backend's only
# in-memory option: nothing is written to disk, no fsync) under the same 'ringcheck load', and the
# backend's memory over time (RSS sampled once a second: it should stay flat, not grow per call).
#
# Each round starts 'ringcheck load --target' with a generated target file whose lifecycle starts
# 'ringcheck serve-reference' as a child process (with --db, or without it), so the CPU and memory
# figures are the backend's own, not the driver's or the mocks'. Every call is checked as in any
# load run (invariants and history); a round with violations is reported and fails the script.
#
# Usage: benchmarks/load-durable-vs-memory.sh [-c CONCURRENCY | -r RATE] [-t SECONDS] [--debug]
#   -c N   calls kept in flight (default 32): closed loop; calls/s is what backend and driver sustain
#          together, each call's own waits included (200 ms of talk, the 3 s ring of expiring calls)
#   -r N   calls started per second instead (open loop)
#   -t S   how long each round starts calls (default 20)
# Needs: swift, /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."

load_args=(--concurrency 32) seconds=20 config=release
while [ $# -gt 0 ]; do
    case "$1" in
        -c) load_args=(--concurrency "$2"); shift 2 ;;
        -r) load_args=(--rate "$2"); shift 2 ;;
        -t) seconds=$2; shift 2 ;;
        --debug) config=debug; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
command -v /usr/bin/python3 >/dev/null || { echo "missing /usr/bin/python3" >&2; exit 2; }

. benchmarks/lib.sh
bin=$(ringcheck_binary "$config")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

target_file() { # NAME DB_ARGS...: writes $work/NAME.yaml
    local name=$1
    shift
    local db=""
    for a in "$@"; do db="$db, \"$a\""; done
    cat >"$work/$name.yaml" <<YAML
baseURL: http://127.0.0.1:\${RINGCHECK_BACKEND_PORT}
capabilities: [sandbox, {shortRing: ringSeconds}, idempotency]
users:
  a: {userId: user-a, auth: {bearer: token-user-a}}
  b: {userId: user-b, auth: {bearer: token-user-b}}
  c: {userId: user-c, auth: {bearer: token-user-c}}
lifecycle:
  start: ["\${RINGCHECK_EXECUTABLE}", serve-reference, --port, "\${RINGCHECK_BACKEND_PORT}"$db, --ring-seconds, "60", --event-retention, "100000", --quiet]
  ready: {url: "http://127.0.0.1:\${RINGCHECK_BACKEND_PORT}/v1/calls/none"}
YAML
}
target_file durable --db '${RINGCHECK_BACKEND_STATE_DIR}/backend.sqlite'
target_file memory

status=0
for store in durable memory; do
    echo "== $store: ringcheck load ${load_args[*]} --duration $seconds" >&2
    code=0
    "$bin" load --target "$work/$store.yaml" "${load_args[@]}" --duration "$seconds" \
        --report-dir "$work/$store" >"$work/$store.out" 2>&1 || code=$?
    if [ "$code" != 0 ]; then
        echo "ringcheck load exited $code for the $store store:" >&2
        tail -20 "$work/$store.out" >&2
        status=1
    fi
done

/usr/bin/python3 - "$work/durable/load-report.json" "$work/memory/load-report.json" <<'PY'
import json, sys

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return None

rows = [("durable (SQLite file, WAL, synchronous=FULL)", load(sys.argv[1])),
        ("in memory (SQLite :memory:)", load(sys.argv[2]))]

def growth(samples, calls):
    # RSS growth per 1,000 calls after the first 20% of the run (the warm-up fills caches and pools).
    if len(samples) < 4 or calls == 0:
        return None
    start = samples[len(samples) // 5]
    end = samples[-1]
    span = end["atSeconds"] - samples[0]["atSeconds"]
    share = (end["atSeconds"] - start["atSeconds"]) / span if span > 0 else 0
    return (end["rssKiB"] - start["rssKiB"]) / max(calls * share, 1) * 1000

for name, r in rows:
    if r is None:
        print("%s: no report" % name)
        continue
    res = r.get("resources") or {}
    eps = {e["name"]: e for e in r["endpoints"]}
    print("%s: %s" % (name, r["verdict"]))
    print("  calls: %d finished in %.1f s: %.1f calls/s sustained (%s)" % (
        r["callsFinished"], r["callSeconds"], r["callsPerSecond"], r["plan"]))
    for ep in ("create", "answer", "end"):
        if ep in eps:
            e = eps[ep]
            print("  %-7s p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms" % (ep, e["p50Ms"], e["p99Ms"], e["maxMs"]))
    if res:
        print("  backend CPU: %.1f s (%.0f%% of a core); RSS %.1f -> %.1f MiB (peak %.1f)" % (
            res["cpuSeconds"], res["cpuPercent"], res["rssStartKiB"] / 1024, res["rssEndKiB"] / 1024,
            res["rssPeakKiB"] / 1024))
        samples = res["samples"]
        step = max(1, len(samples) // 8)
        print("  RSS over time (s: MiB): " + ", ".join(
            "%.0f: %.1f" % (s["atSeconds"], s["rssKiB"] / 1024) for s in samples[::step]))
        g = growth(samples, r["callsFinished"])
        if g is not None:
            print("  RSS growth after warm-up: %+.0f KiB per 1,000 calls" % g)
    if r["historyViolations"] or r["invariantViolations"]:
        print("  violations: %d in the history, %d invariants (see load-report.json)" % (
            len(r["historyViolations"]), len(r["invariantViolations"])))
if all(r for _, r in rows):
    d, m = rows[0][1]["callsPerSecond"], rows[1][1]["callsPerSecond"]
    if m > 0:
        print("durable / in memory: %.2f of the in-memory calls/s" % (d / m))
PY
exit $status
