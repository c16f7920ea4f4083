#!/usr/bin/env bash
# Runs a profile's whole suite N times in a row (default 20), against its embedded reference backend
# (or one of its reference defects, or a target file), optionally beside busy loops, and checks that
# every run gave the same verdict: the proof that the verdict does not depend on timing.
#
# A verdict is the run's exit code, the set of requirements that failed (with their level) and the set
# of scenarios that did not pass (with their status). Each run prints its exit code, wall time, the
# scenarios that failed or errored and the requirements that failed; the end says whether every run
# gave the same verdict and lists each distinct verdict with the runs that gave it. The verdict to hold:
#   - against the conforming reference: exit 0 with every scenario passing (or not applicable) in
#     every run;
#   - with --reference-defect NAME: exit 1 with the same failed requirements and scenarios every run (exit 0
#     with the same SHOULD warnings for a defect that breaks only SHOULD requirements);
#   - with --target FILE: the same verdict every run, whatever it is.
# Exits 0 only when that holds (for --profile all: for every profile), 1 when it does not, 2 on a
# usage error.
#
# Usage: benchmarks/suite-repeat.sh [-n RUNS] [--debug] [--profile NAME|all] [--busy N]
#                                   [--reference-defect NAME] [--target FILE] [--keep DIR]
#   --profile NAME|all       the profile to run (default callx); all runs each profile N times in turn.
#   --busy N                 start N busy loops (one 'while :; do :; done' shell each) for the whole
#                            script, stopped on exit and on Ctrl-C.
#   --reference-defect NAME  run the embedded reference with this defect (not with --profile all).
#   --keep DIR               keep every run's reports and console output in DIR/PROFILE/runI (to read
#                            the evidence of a run that differed); otherwise they go to a temporary
#                            folder removed on exit.
#   RINGCHECK_BIN=path       use this binary instead of building one.
# Needs: swift, /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."

. benchmarks/lib.sh
profile=callx busy=0 defect="" keep="" common=()
while [ $# -gt 0 ]; do
    case "$1" in
        --profile | --busy | --reference-defect | --keep)
            [ $# -ge 2 ] && [ -n "$2" ] || { echo "$1 needs a value" >&2; exit 2; }
            case "$1" in
                --profile) profile=$2 ;;
                --busy) busy=$2 ;;
                --reference-defect) defect=$2 ;;
                --keep) keep=$2 ;;
            esac
            shift 2 ;;
        *) common+=("$1"); shift ;;
    esac
done
suite_run_options 20 "$0" "${common[@]}"
[[ "$busy" =~ ^[0-9]+$ ]] || { echo "--busy needs a number of loops (got '$busy')" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "-n needs a positive number of runs (got '$runs')" >&2; exit 2; }
if [ -n "$defect" ] && [ ${#target_args[@]} -gt 0 ]; then
    echo "--reference-defect runs the embedded reference: it cannot go with --target" >&2
    exit 2
fi
if [ "$profile" = all ]; then
    [ -z "$defect" ] || { echo "--reference-defect names one profile's defect: give --profile NAME" >&2; exit 2; }
    profiles=(callx dialstack push-service onesignal)
else
    profiles=("$profile")
fi
bin=$(ringcheck_binary "$config")

work=$(mktemp -d)
stop_busy_loops_and_remove_work() {
    stop_busy_loops
    rm -rf "$work"
}
trap stop_busy_loops_and_remove_work EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
out=${keep:-$work}
start_busy_loops "$busy"
echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg); busy loops: $busy; binary: $bin"

defect_args=()
[ -z "$defect" ] || defect_args=(--reference-defect "$defect")
[ -n "$defect" ] && expect=defect || { [ ${#target_args[@]} -gt 0 ] && expect=any || expect=pass; }

held=0
for p in "${profiles[@]}"; do
    dir="$out/$p"
    mkdir -p "$dir"
    echo "== $p${defect:+ --reference-defect $defect}: $runs runs"
    for i in $(seq 1 "$runs"); do
        start=$(date +%s.%N)
        status=0
        "$bin" run --profile "$p" "${target_args[@]}" "${defect_args[@]}" --format json,console \
            --report-dir "$dir/run$i" >"$dir/run$i.out" 2>&1 || status=$?
        end=$(date +%s.%N)
        echo "$status $start $end $(cut -d' ' -f1 /proc/loadavg)" >"$dir/run$i.status"
        /usr/bin/python3 benchmarks/suite-repeat-verdicts.py run "$dir" "$i"
    done
    /usr/bin/python3 benchmarks/suite-repeat-verdicts.py summary "$dir" "$runs" "$expect" || held=1
done
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$held"
