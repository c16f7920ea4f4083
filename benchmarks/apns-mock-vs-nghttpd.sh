#!/usr/bin/env bash
# Throughput of the APNs mock against nghttpd, the same request through h2load, in alternating rounds.
#
# The mock verifies the provider token (cached after the first check, as the real APNs does), validates
# every header and the payload, and records every push in the capture log; nghttpd only serves a file.
# Both get the same h2load settings, the same request, TLS, and as many loop threads (--loops).
# Each round measures both servers one right after the other, the mock first in odd rounds and
# nghttpd first in even ones, so a change in the machine's load between them does not always favour
# the same one. Prints each round's rates, the CPU time each server spent per request (user+system,
# from /proc; steadier than rates on a shared machine) and their ratios, then the medians, ending with
# "ratio: X" (median of the rounds' mock/nghttpd rate ratios). Target: ratio >= 0.8 (results so far,
# and where the mock spends its time: benchmarks/README.md).
# The first round fills the mock's capture log (100,000 captures); later rounds find it full and
# dropping its oldest captures, as a long-running mock does.
#
# Usage: benchmarks/apns-mock-vs-nghttpd.sh [-n REQUESTS] [-c CLIENTS] [-m STREAMS] [--loops N] [--rounds N]
# Needs: h2load and nghttpd (Debian nghttp2-client, nghttp2-server), /usr/bin/python3 with python3-jwt.
set -euo pipefail
cd "$(dirname "$0")/.."

requests=100000 clients=10 streams=10 loops=1 rounds=5
while [ $# -gt 0 ]; do
    case "$1" in
        -n) requests=$2; shift 2 ;;
        -c) clients=$2; shift 2 ;;
        -m) streams=$2; shift 2 ;;
        --loops) loops=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        -h|--help) sed -n '2,/^# Needs/p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for tool in h2load nghttpd /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool (apt-get install nghttp2-client nghttp2-server python3-jwt)" >&2; exit 2; }
done

work=$(mktemp -d)
pids=()
# Background jobs of a script ignore SIGINT, so stop them with SIGTERM.
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

. benchmarks/lib.sh
bin=$(ringcheck_binary release)

"$bin" mocks --quiet --threads "$loops" --env-file "$work/mocks.env" --state-dir "$work/state" &
pids+=($!)
mock_pid=$!
for _ in $(seq 100); do [ -s "$work/mocks.env" ] && break; sleep 0.1; done
# shellcheck disable=SC1091
. "$work/mocks.env"

token=$(/usr/bin/python3 -c 'import secrets; print(secrets.token_hex(32))')
jwt=$(/usr/bin/python3 - "$RINGCHECK_APNS_KEY_FILE" "$RINGCHECK_APNS_KEY_ID" "$RINGCHECK_APNS_TEAM_ID" <<'PY'
import sys, time, jwt
key = open(sys.argv[1]).read()
print(jwt.encode({"iss": sys.argv[3], "iat": int(time.time())}, key, algorithm="ES256", headers={"kid": sys.argv[2]}))
PY
)
now_ms=$(date +%s%3N)
cat > "$work/payload.json" <<JSON
{"aps":{},"callx":{"schemaVersion":1,"eventId":"evt-bench-1","type":"call.invited","callId":"85a4fd88-b5c3-4f79-a2cf-a7db9df06750","revision":"1","displayName":"Alex","handle":"callx:user-a","issuedAtMs":$now_ms,"expiresAtMs":$((now_ms + 30000))}}
JSON
headers=(-H "authorization: bearer $jwt" -H "apns-push-type: voip" -H "apns-topic: $RINGCHECK_APNS_VOIP_TOPIC"
    -H "apns-priority: 10" -H "apns-expiration: 0" -H "content-type: application/json")

# nghttpd answers the same path from a document root, over TLS with the mock's certificate.
mkdir -p "$work/docroot/3/device"
: > "$work/docroot/3/device/$token"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/ng.key" -out "$work/ng.pem" \
    -subj /CN=localhost -days 1 2>/dev/null
ngport=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
nghttpd -d "$work/docroot" -n "$loops" "$ngport" "$work/ng.key" "$work/ng.pem" >/dev/null 2>&1 &
pids+=($!)
nghttpd_pid=$!
sleep 0.5

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() { # url name pid → requests per second; writes the server's CPU µs per request to $work/name.cpu
    local before after
    before=$(cpu_ticks "$3")
    h2load -n "$requests" -c "$clients" -m "$streams" -d "$work/payload.json" "${headers[@]}" "$1" >"$work/h2load.out" 2>&1
    # Against the mock a few requests per connection are refused (REFUSED_STREAM): like APNs, it allows one
    # stream until the provider token is verified, and h2load opens -m streams before it reads SETTINGS.
    after=$(cpu_ticks "$3")
    /usr/bin/python3 -c "print('%.1f' % (($after - $before) * 1e6 / $(getconf CLK_TCK) / $requests))" >"$work/$2.cpu"
    grep -E "^requests:|^status codes:" "$work/h2load.out" | sed "s|^|  $2 |" >&2
    grep -E '^finished in' "$work/h2load.out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/'
}

echo "requests: $requests per round, clients: $clients, streams per client: $streams, loops: $loops, rounds: $rounds"
: >"$work/rounds"
for round in $(seq "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then
        mock_rate=$(run "$RINGCHECK_APNS_URL/3/device/$token" mock "$mock_pid")
        nghttpd_rate=$(run "https://127.0.0.1:$ngport/3/device/$token" nghttpd "$nghttpd_pid")
    else
        nghttpd_rate=$(run "https://127.0.0.1:$ngport/3/device/$token" nghttpd "$nghttpd_pid")
        mock_rate=$(run "$RINGCHECK_APNS_URL/3/device/$token" mock "$mock_pid")
    fi
    echo "$mock_rate $nghttpd_rate $(cat "$work/mock.cpu") $(cat "$work/nghttpd.cpu")" >>"$work/rounds"
    /usr/bin/python3 -c "import sys; m, n, mc, nc = map(float, sys.argv[1:]); \
print('round %d: apns mock %.0f req/s, nghttpd %.0f req/s, ratio %.2f; cpu per request: mock %.1f us, nghttpd %.1f us, ratio %.2f' \
% ($round, m, n, m / n, mc, nc, nc / mc))" $(tail -1 "$work/rounds")
done
captured=$(curl -s "$RINGCHECK_CONTROL_URL/v1/health" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["captures"])')

echo "captures in the mock's log: $captured"
/usr/bin/python3 - "$work/rounds" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
med = lambda xs: statistics.median(xs)
print("apns mock: %.0f req/s (median)" % med([r[0] for r in rows]))
print("nghttpd:   %.0f req/s (median)" % med([r[1] for r in rows]))
print("cpu per request: mock %.1f us, nghttpd %.1f us (medians); cpu ratio (nghttpd/mock): %.2f"
      % (med([r[2] for r in rows]), med([r[3] for r in rows]), med([r[3] / r[2] for r in rows])))
print("ratio: %.2f" % med([r[0] / r[1] for r in rows]))
PY
