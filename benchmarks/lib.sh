# Shared by the benchmark scripts (source it after 'cd' to the repository root).

# ringcheck_binary CONFIG: prints the path of ringcheck built in CONFIG (release or debug),
# building it first; RINGCHECK_BIN, when set, names a binary to use instead.
ringcheck_binary() {
    if [ -n "${RINGCHECK_BIN:-}" ]; then
        echo "$RINGCHECK_BIN"
        return
    fi
    echo "building ringcheck ($1)..." >&2
    swift build -c "$1" --product ringcheck >/dev/null
    echo "$(swift build -c "$1" --show-bin-path)/ringcheck"
}

# suite_run_options DEFAULT_RUNS "$0" ARGS...: the options of the scripts that run the whole suite
# N times: -n RUNS, --debug, --target FILE (run against that target file instead of the embedded
# reference), -h|--help (prints the script's leading comment). Sets `runs`, `config` and `target_args`
# (the run's `--target FILE`, or nothing); exits 2 on an unknown option.
suite_run_options() {
    runs=$1 config=release target_args=()
    local script=$2
    shift 2
    while [ $# -gt 0 ]; do
        case "$1" in
            -n) runs=$2; shift 2 ;;
            --debug) config=debug; shift ;;
            --target)
                [ $# -ge 2 ] && [ -f "$2" ] || { echo "--target needs a target file (got '${2:-}')" >&2; exit 2; }
                target_args=(--target "$2"); shift 2 ;;
            -h|--help) sed -n '2,/^set -euo/p' "$script" | sed '$d'; exit 0 ;;
            *) echo "unknown option $1" >&2; exit 2 ;;
        esac
    done
}

# start_mocks_in_workdir: makes `work` (a temporary folder, removed on exit with the processes in `pids`,
# which are interrupted), starts 'ringcheck mocks' from `bin` there and sources its settings (RINGCHECK_*).
start_mocks_in_workdir() {
    work=$(mktemp -d)
    pids=()
    trap 'for p in "${pids[@]}"; do kill -INT "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
    "$bin" mocks --quiet --env-file "$work/mocks.env" --state-dir "$work/state" &
    pids+=($!)
    for _ in $(seq 100); do [ -s "$work/mocks.env" ] && break; sleep 0.1; done
    # shellcheck disable=SC1091
    . "$work/mocks.env"
}

# start_reference ARGS...: starts 'ringcheck serve-reference --port 0 ARGS...' (log in $work/serve.log) and
# sets `base` to the URL it listens on; exits 1 with its log when it does not start.
start_reference() {
    "$bin" serve-reference --port 0 "$@" >"$work/serve.log" 2>&1 &
    pids+=($!)
    base=""
    for _ in $(seq 100); do
        base=$(grep -o 'listening on http://[^ ]*' "$work/serve.log" | sed 's/listening on //' || true)
        [ -n "$base" ] && break
        sleep 0.1
    done
    [ -n "$base" ] || { echo "serve-reference did not start:" >&2; cat "$work/serve.log" >&2; exit 1; }
}

busy_pids=()

# start_busy_loops N: starts N busy loops (a shell spinning 'while :; do :; done' each, the busy-machine
# rule's load), their process IDs in `busy_pids`. Call stop_busy_loops from the script's EXIT trap: a
# background job of a script ignores Ctrl-C, so nothing else stops them.
start_busy_loops() {
    busy_pids=()
    local i
    for ((i = 0; i < $1; i++)); do
        sh -c 'while :; do :; done' &
        busy_pids+=($!)
    done
}

# stop_busy_loops: stops the loops start_busy_loops started (each by its process ID) and waits for them.
stop_busy_loops() {
    local p
    for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${busy_pids[@]}"; do wait "$p" 2>/dev/null || true; done
    busy_pids=()
}
