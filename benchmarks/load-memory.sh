#!/usr/bin/env bash
# ringcheck's own memory during a long 'ringcheck load': RSS (VmRSS of /proc/PID/status) sampled
# twice a second while it drives N calls (default 10,000) against the embedded reference backend run
# as a child process (--reference-process, so the figure is the driver's, the mocks' and the history
# check's, not the backend's database). Prints the RSS at the end of the first minute (or of the first
# 10% of the calls, whichever comes first), the maximum and the last sample, and fails (exit 1) when
# the maximum is more than twice the first-minute value: the history check must keep its memory flat
# however long the run. The load run's own verdict is printed too (exit 0 expected).
#
# Usage: benchmarks/load-memory.sh [-n CALLS] [-r RATE] [--in-process] [--debug]
#   -n N           calls to start (default 10000)
#   -r N           calls started per second (default 20)
#   --in-process   the embedded reference in ringcheck's own process (its database's memory counted too)
# Needs: swift (or RINGCHECK_BIN).
set -euo pipefail
cd "$(dirname "$0")/.."

calls=10000 rate=20 config=release mode=--reference-process
while [ $# -gt 0 ]; do
    case "$1" in
        -n) calls=$2; shift 2 ;;
        -r) rate=$2; shift 2 ;;
        --in-process) mode=--reference-in-process; shift ;;
        --debug) config=debug; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

. benchmarks/lib.sh
bin=$(ringcheck_binary "$config")
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin" load --calls "$calls" --rate "$rate" --max-in-flight 400 $mode \
    --report-dir "$work/report" >"$work/out" 2>&1 &
pid=$!
first_window=60
tenth=$((calls / 10))
first="" max=0 last=0 t0=$(date +%s) next_print=30
while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
    if [ -n "$rss" ]; then
        last=$rss
        [ "$rss" -gt "$max" ] && max=$rss
        if [ -z "$first" ]; then
            # Calls started so far, at the rate asked (the progress line is not printed off a terminal).
            started=$(( ($(date +%s) - t0) * rate ))
            if [ $(($(date +%s) - t0)) -ge "$first_window" ] || [ "$started" -ge "$tenth" ]; then
                first=$rss
                echo "first minute / 10%: ${first} KiB RSS after $(($(date +%s) - t0)) s (about $started calls started)"
            fi
        fi
    fi
    elapsed=$(($(date +%s) - t0))
    if [ "$elapsed" -ge "$next_print" ]; then
        echo "  ${elapsed} s: RSS ${last} KiB (max ${max})"
        next_print=$((next_print + 30))
    fi
    sleep 0.5
done
status=0
wait "$pid" || status=$?
tail -n 30 "$work/out" | grep -v '^\s*$' | tail -n 12
echo "ringcheck load exit status: $status"
[ -n "$first" ] || first=$max
echo "RSS first minute ${first} KiB, max ${max} KiB, last ${last} KiB (max/first $(awk "BEGIN {printf \"%.2f\", $max / $first}"))"
if [ "$max" -gt $((2 * first)) ]; then
    echo "FAIL: the maximum RSS is more than twice the first minute's"
    exit 1
fi
echo "OK: RSS stayed within 2x of the first minute's"
