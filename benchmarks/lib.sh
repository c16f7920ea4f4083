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
