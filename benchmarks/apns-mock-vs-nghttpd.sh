#!/usr/bin/env bash
# Throughput of the APNs mock against nghttpd on traffic shaped like a real backend's, through h2load,
# in alternating rounds.
#
# Traffic: every push goes to its own device token, as a backend's do (one URI per token, cycled in
# order by each h2load client: h2load -i), on -c connections; nghttpd serves an empty file at each
# path. With --identical every push is the same request to one device token instead (the synthetic
# traffic this benchmark used before 2026-12-06; kept to compare with its history, not as a target).
# The payload is the same for every push: h2load posts one file (-d) and cannot vary bodies, nor
# headers (apns-id, apns-expiration) per request, so the mock's header and body work on distinct
# payloads is not measured here.
#
# The mock verifies the provider token (cached after the first check, as the real APNs does), validates
# every header and the payload, and records every push in the capture log; nghttpd only serves a file.
# Both get the same h2load settings, the same requests, TLS, and as many loop threads (--loops).
# Each round measures both servers one right after the other, the mock first in odd rounds and
# nghttpd first in even ones, so a change in the machine's load between them does not always favour
# the same one. After each of its runs the mock's capture log is read back through the control API:
# the script fails unless the round recorded exactly one accepted push per 2xx answer h2load saw
# (no duplicate, none missing), and none rejected.
# Each run's failed and errored requests (h2load's "requests: … succeeded, N failed, N errored") are
# printed per server; a round with any is marked FAILED, and the script then exits 1 after the last round.
# Prints each round's rates, the CPU time each server spent per push (user+system, from /proc;
# steadier than rates on a shared machine) and their ratios, then the medians, ending with
# "ratio: X" (median of the rounds' mock/nghttpd rate ratios). Target: ratio >= 0.8 on the default
# (distinct tokens) traffic; results so far, and where the mock spends its time: benchmarks/README.md.
# The first round fills the mock's capture log (100,000 captures); later rounds find it full and
# dropping its oldest captures, as a long-running mock does (so -n is at most 100000: a round's
# captures must all be in the log to be counted).
#
# Usage: benchmarks/apns-mock-vs-nghttpd.sh [-n REQUESTS] [-c CLIENTS] [-m STREAMS] [--tokens N]
#            [--identical] [--loops N] [--rounds N]
#   -n 100000 requests per server per round; -c 10 connections; -m 1 stream per connection at a time
#   (the default since issue 25: with -m > 1 h2load opens its streams before it reads the server's SETTINGS,
#   and the mock, like APNs, allows one stream until a provider token is verified: the refused streams
#   count as failed; rounds before 2026-12-07 used -m 10);
#   --tokens 10000 distinct device tokens (each client sends each once with the defaults);
#   --loops 1 event-loop threads per server; --rounds 5.
#   RINGCHECK_BIN=PATH uses that ringcheck binary instead of building a release one.
# Needs: h2load and nghttpd (Debian nghttp2-client, nghttp2-server), /usr/bin/python3 with python3-jwt.
set -euo pipefail
cd "$(dirname "$0")/.."

requests=100000 clients=10 streams=1 loops=1 rounds=5 tokens=10000 identical=0
while [ $# -gt 0 ]; do
    case "$1" in
        -n) requests=$2; shift 2 ;;
        -c) clients=$2; shift 2 ;;
        -m) streams=$2; shift 2 ;;
        --tokens) tokens=$2; shift 2 ;;
        --identical) identical=1; shift ;;
        --loops) loops=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        -h|--help) sed -n '2,/^# Needs/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ "$requests" -le 100000 ] || { echo "-n is at most 100000 (the capture log's capacity)" >&2; exit 2; }
for tool in h2load nghttpd curl openssl /usr/bin/python3; do
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

[ "$identical" -eq 1 ] && tokens=1
# Random 32-byte tokens, as APNs issues them (64 hex digits).
/usr/bin/python3 -c 'import secrets, sys
for _ in range(int(sys.argv[1])): print(secrets.token_hex(32))' "$tokens" >"$work/tokens"
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

# nghttpd answers the same paths from a document root, over TLS with a certificate of its own.
mkdir -p "$work/docroot/3/device"
(cd "$work/docroot/3/device" && xargs touch <"$work/tokens")
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/ng.key" -out "$work/ng.pem" \
    -subj /CN=localhost -days 1 2>/dev/null
ngport=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
nghttpd -d "$work/docroot" -n "$loops" "$ngport" "$work/ng.key" "$work/ng.pem" >/dev/null 2>&1 &
pids+=($!)
nghttpd_pid=$!
sleep 0.5
sed "s|^|$RINGCHECK_APNS_URL/3/device/|" "$work/tokens" >"$work/mock.uris"
sed "s|^|https://127.0.0.1:$ngport/3/device/|" "$work/tokens" >"$work/nghttpd.uris"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
last_sequence() { curl -s "$RINGCHECK_CONTROL_URL/v1/health" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["lastSequence"])'; }
run() { # name pid → requests per second; writes the server's CPU µs per request to $work/name.cpu
    local before after
    before=$(cpu_ticks "$2")
    h2load -n "$requests" -c "$clients" -m "$streams" -d "$work/payload.json" "${headers[@]}" -i "$work/$1.uris" \
        >"$work/h2load.out" 2>&1
    # Against the mock a few requests per connection may be refused (REFUSED_STREAM, -m minus 1 on a
    # connection): like APNs, it allows one stream until the provider token is verified, and h2load opens -m
    # streams before it reads SETTINGS and does not retry refused ones. They count as failed, so with -m > 1
    # a round can be FAILED without any fault of the mock's; -m 1 shows none.
    after=$(cpu_ticks "$2")
    /usr/bin/python3 -c "print('%.1f' % (($after - $before) * 1e6 / $(getconf CLK_TCK) / $requests))" >"$work/$1.cpu"
    grep -E "^requests:|^status codes:" "$work/h2load.out" | sed "s|^|  $1 |" >&2
    sed -nE 's/^requests: .* ([0-9]+) failed, ([0-9]+) errored.*/\1 \2/p' "$work/h2load.out" >"$work/$1.failed"
    [ -s "$work/$1.failed" ] || echo "h2load printed no request counts for $1" >"$work/$1.failed"
    sed -nE 's/^status codes: ([0-9]+) 2xx.*/\1/p' "$work/h2load.out" >"$work/$1.2xx"
    grep -E '^finished in' "$work/h2load.out" | sed -E 's/.* ([0-9.]+) req\/s.*/\1/'
}
# Reads back the captures recorded since sequence $1 and fails unless every one was accepted and
# there are exactly as many as h2load's 2xx answers: the mock verified and recorded every push once.
verify_captures() {
    /usr/bin/python3 - "$RINGCHECK_CONTROL_URL" "$1" "$(cat "$work/mock.2xx")" <<'PY'
import json, sys, urllib.request
base, since, ok2xx = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
health = json.load(urllib.request.urlopen(base + "/v1/health"))
recorded = health["lastSequence"] - since
accepted, after = 0, since
while True:
    page = json.load(urllib.request.urlopen(f"{base}/v1/captures?mock=apns&accepted=true&since={after}&limit=10000"))
    accepted += len(page["captures"])
    if page["captures"]: after = page["captures"][-1]["sequence"]
    if not page["more"]: break
rejected = recorded - accepted
print(f"  mock recorded {recorded} pushes: {accepted} accepted, {rejected} rejected; h2load saw {ok2xx} 2xx", file=sys.stderr)
if rejected or accepted != ok2xx:
    sys.exit("the mock did not accept and record exactly once every push h2load counted as delivered")
PY
}
mock_round() {
    local since
    since=$(last_sequence)
    mock_rate=$(run mock "$mock_pid")
    verify_captures "$since"
}

traffic="$tokens distinct device tokens"
[ "$identical" -eq 1 ] && traffic="identical requests (one device token)"
echo "traffic: $traffic; requests: $requests per round, clients: $clients, streams per client: $streams, loops: $loops, rounds: $rounds"
: >"$work/rounds"
failed_rounds=0
for round in $(seq "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then
        mock_round
        nghttpd_rate=$(run nghttpd "$nghttpd_pid")
    else
        nghttpd_rate=$(run nghttpd "$nghttpd_pid")
        mock_round
    fi
    echo "$mock_rate $nghttpd_rate $(cat "$work/mock.cpu") $(cat "$work/nghttpd.cpu")" >>"$work/rounds"
    /usr/bin/python3 -c "import sys; m, n, mc, nc = map(float, sys.argv[1:]); \
print('round %d: apns mock %.0f req/s, nghttpd %.0f req/s, ratio %.2f; cpu per request: mock %.1f us, nghttpd %.1f us, ratio %.2f' \
% ($round, m, n, m / n, mc, nc, nc / mc))" $(tail -1 "$work/rounds")
    # "failed errored" per server; anything else (no counts) is a failure too.
    read -r mock_failed mock_errored _ <"$work/mock.failed" || true
    read -r ng_failed ng_errored _ <"$work/nghttpd.failed" || true
    verdict=ok
    for n in "$mock_failed" "$mock_errored" "$ng_failed" "$ng_errored"; do
        [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -eq 0 ] || verdict=FAILED
    done
    [ "$verdict" = ok ] || failed_rounds=$((failed_rounds + 1))
    echo "round $round requests: apns mock $mock_failed failed, $mock_errored errored; nghttpd $ng_failed failed, $ng_errored errored: $verdict"
done

/usr/bin/python3 - "$work/rounds" "$traffic" <<'PY'
import statistics, sys
rows = [list(map(float, line.split())) for line in open(sys.argv[1]) if line.strip()]
med = lambda xs: statistics.median(xs)
print("traffic: %s" % sys.argv[2])
print("apns mock: %.0f req/s (median)" % med([r[0] for r in rows]))
print("nghttpd:   %.0f req/s (median)" % med([r[1] for r in rows]))
print("cpu per request: mock %.1f us, nghttpd %.1f us (medians); cpu ratio (nghttpd/mock): %.2f"
      % (med([r[2] for r in rows]), med([r[3] for r in rows]), med([r[3] / r[2] for r in rows])))
print("ratio: %.2f" % med([r[0] / r[1] for r in rows]))
PY
if [ "$failed_rounds" -gt 0 ]; then
    echo "FAILED: $failed_rounds of $rounds rounds had failed or errored requests" >&2
    exit 1
fi
