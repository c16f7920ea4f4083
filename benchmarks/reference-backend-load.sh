#!/usr/bin/env bash
# Load on the reference backend: calls created, answered and ended per second, with every push
# going to the mocks over TLS, and p50/p99 latency of each endpoint.
#
# Starts 'ringcheck mocks' and 'ringcheck serve-reference' (release build, file database unless
# --memory), registers user-b's iPhone (APNs sandbox) and Android tablet (FCM), then W workers
# (Python http.client, keep-alive, loopback only) each run create (user-a) -> answer (user-b's
# iPhone) -> end (user-a, localHangup) until N calls are done or the time limit passes. Each call
# makes 3 pushes: two invitations and the tablet's call.ended stop signal.
#
# Usage: benchmarks/reference-backend-load.sh [-n CALLS] [-w WORKERS] [-t SECONDS] [--memory]
# Needs: swift, /usr/bin/python3, curl.
set -euo pipefail
cd "$(dirname "$0")/.."

calls=2000 workers=8 limit=60 memory=0
while [ $# -gt 0 ]; do
    case "$1" in
        -n) calls=$2; shift 2 ;;
        -w) workers=$2; shift 2 ;;
        -t) limit=$2; shift 2 ;;
        --memory) memory=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for tool in swift /usr/bin/python3 curl; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 2; }
done

. benchmarks/lib.sh
bin=$(ringcheck_binary release)
start_mocks_in_workdir

db_args=(--db "$work/reference.db")
[ "$memory" = 1 ] && db_args=()
start_reference "${db_args[@]}"

/usr/bin/python3 - "$base" "$RINGCHECK_CONTROL_URL" "$RINGCHECK_APNS_BUNDLE_ID" "$calls" "$workers" "$limit" \
    "$([ "$memory" = 1 ] && echo memory || echo "file (WAL, synchronous=FULL)")" <<'PY'
import json, sys, threading, time, urllib.parse, urllib.request, uuid
sys.path.insert(0, "benchmarks")
from callx_client import call, connector

base, control, bundle, total, workers, limit, db = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), sys.argv[7]
connect = connector(base)

setup = connect()
for path, body in [
    ("/v1/installations/b-phone/push-tokens/apnsVoip", {"token": uuid.uuid4().hex * 2, "appId": bundle, "apnsEnvironment": "sandbox"}),
    ("/v1/installations/b-tablet/push-tokens/fcm", {"token": "fcm-bench:" + uuid.uuid4().hex, "appId": bundle}),
]:
    status, payload, _ = call(setup, "PUT", path, "user-b", body)
    assert status == 200, (status, payload)

def health():
    with urllib.request.urlopen(control + "/v1/health") as r:
        return json.load(r)["captures"]

captures_before = health()
lock = threading.Lock()
latency = {"create": [], "answer": [], "end": []}
errors = []
started_calls = [0]
done = [0]
deadline = time.monotonic() + limit

def worker():
    conn = connect()
    mine = {"create": [], "answer": [], "end": []}
    while time.monotonic() < deadline:
        with lock:
            if started_calls[0] >= total:
                break
            started_calls[0] += 1
        call_id = str(uuid.uuid4())
        steps = [
            ("create", "/v1/calls", "user-a", {"callId": call_id, "calleeUserId": "user-b", "operationId": "c-" + call_id}),
            ("answer", "/v1/calls/%s/answer" % call_id, "user-b", {"operationId": "a-" + call_id, "installationId": "b-phone"}),
            ("end", "/v1/calls/%s/end" % call_id, "user-a", {"operationId": "e-" + call_id, "reason": "localHangup"}),
        ]
        ok = True
        for name, path, user, body in steps:
            try:
                status, payload, ms = call(conn, "POST", path, user, body)
            except Exception as error:  # a dropped connection: count it and reconnect
                errors.append("%s: %s" % (name, error))
                conn = connect()
                ok = False
                break
            mine[name].append(ms)
            if status != 200:
                errors.append("%s: HTTP %d %s" % (name, status, payload[:200]))
                ok = False
                break
        if ok:
            with lock:
                done[0] += 1
    with lock:
        for name in mine:
            latency[name] += mine[name]

t0 = time.perf_counter()
threads = [threading.Thread(target=worker) for _ in range(workers)]
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.perf_counter() - t0

# Every call makes up to 3 pushes: two invitations and the tablet's call.ended stop signal. An
# invitation still queued when the answer commits is cancelled, as the spec wants (never ring a call
# that is already answered), so fewer than 3 per call is correct under load.
idle_since, last = time.monotonic(), -1
while time.monotonic() - idle_since < 1.0 and time.monotonic() < deadline + 15:
    time.sleep(0.2)
    now_count = health()
    if now_count != last:
        idle_since, last = time.monotonic(), now_count
with urllib.request.urlopen(control + "/v1/captures") as r:
    captures = json.load(r)["captures"][captures_before:]
kinds = {}
for c in captures:
    if c["mock"] == "oauth":
        key = "oauth exchange"
    else:
        body = c.get("json") or {}
        callx = body.get("callx")
        if callx is None:
            try: callx = json.loads(body["message"]["data"]["callx"])
            except Exception: callx = {}
        key = "%s %s" % (c["mock"], callx.get("type", "?"))
    outcome = c["outcome"] if isinstance(c["outcome"], str) else "rejected"
    kinds.setdefault(key, {}).setdefault(outcome, 0)
    kinds[key][outcome] += 1
rejected = sum(n for k in kinds.values() for o, n in k.items() if o != "accepted")

def pct(values, p):
    if not values: return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100.0 * (len(values) - 1))))]

print("database: %s; workers: %d; calls completed: %d in %.2f s" % (db, workers, done[0], elapsed))
print("calls/s (create+answer+end): %.1f   requests/s: %.1f" % (done[0] / elapsed, sum(len(v) for v in latency.values()) / elapsed))
print("pushes captured: %d (at most 3 per call: invitations not yet sent when the answer lands are cancelled), rejected by the mocks: %d" % (sum(sum(k.values()) for n, k in kinds.items() if n != "oauth exchange"), rejected))
for name in sorted(kinds):
    print("  %-22s %s" % (name, ", ".join("%s %d" % item for item in sorted(kinds[name].items()))))
for name in ("create", "answer", "end"):
    values = latency[name]
    print("%-7s n=%-6d p50 %7.2f ms   p99 %7.2f ms" % (name, len(values), pct(values, 50), pct(values, 99)))
if errors:
    print("errors: %d (first: %s)" % (len(errors), errors[0]))
    sys.exit(1)
PY
