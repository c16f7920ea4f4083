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
# N times: -n RUNS, --debug, -h|--help (prints the script's leading comment). Sets `runs` and
# `config`; exits 2 on an unknown option.
suite_run_options() {
    runs=$1 config=release
    local script=$2
    shift 2
    while [ $# -gt 0 ]; do
        case "$1" in
            -n) runs=$2; shift 2 ;;
            --debug) config=debug; shift ;;
            -h|--help) sed -n '2,/^set -euo/p' "$script" | sed '$d'; exit 0 ;;
            *) echo "unknown option $1" >&2; exit 2 ;;
        esac
    done
}
