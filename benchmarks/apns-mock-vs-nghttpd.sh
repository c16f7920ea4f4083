#!/usr/bin/env bash
# Throughput of the APNs mock against nghttpd, the same request through h2load, one right after the other.
#
# The mock verifies the provider token (cached after the first check, as the real APNs does), validates
# every header and the payload, and records every push in the capture log; nghttpd only serves a file.
# Prints both rates, the CPU time each server spent per request (user+system, from /proc; steadier
# than rates on a shared machine) and "ratio: X" (mock over nghttpd). Target: ratio >= 0.8.
#
# Usage: benchmarks/apns-mock-vs-nghttpd.sh [-n REQUESTS] [-c CLIENTS] [-m STREAMS] [--loops N]
# Needs: h2load and nghttpd (Debian nghttp2-client, nghttp2-server), /usr/bin/python3 with python3-jwt.
set -euo pipefail
cd "$(dirname "$0")/.."

requests=100000 clients=10 streams=10 loops=1
while [ $# -gt 0 ]; do
    case "$1" in
        -n) requests=$2; shift 2 ;;
        -c) clients=$2; shift 2 ;;
        -m) streams=$2; shift 2 ;;
        --loops) loops=$2; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
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
headers=(-H "authorization: bearer $jwt" -H "apns-push-type: voip" -H "apns-topic: $RINGCHECK_APNS_TOPIC"
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

mock_rate=$(run "$RINGCHECK_APNS_URL/3/device/$token" mock "$mock_pid")
nghttpd_rate=$(run "https://127.0.0.1:$ngport/3/device/$token" nghttpd "$nghttpd_pid")
captured=$(curl -s "$RINGCHECK_CONTROL_URL/v1/health" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["captures"])')

echo "requests: $requests, clients: $clients, streams per client: $streams, loops: $loops"
echo "apns mock: $mock_rate req/s (captures recorded: $captured)"
echo "nghttpd:   $nghttpd_rate req/s"
echo "cpu per request: mock $(cat "$work/mock.cpu") us, nghttpd $(cat "$work/nghttpd.cpu") us"
/usr/bin/python3 -c "print('ratio: %.2f' % ($mock_rate / $nghttpd_rate))"
