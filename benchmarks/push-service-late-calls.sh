#!/usr/bin/env bash
# Call pushes after their ring, under a backlog: the reference push service against calls sent faster than
# it can push them.
#
# Starts 'ringcheck mocks' (every APNs answer held 500 ms by a fault plan, so the service's 64 sends in
# flight push about 128 calls/s) and 'ringcheck serve-reference --profile push-service' (with --defect NAME
# when given), registers 40 iPhones (alert + VoIP token), then posts N incoming calls with 'timeout' S
# (default 3 s) at R calls/s, each to one iPhone with its own call id. When no push has arrived for 10 s it
# reads every capture, ties each VoIP push to its call by call_id and prints how many arrived after their
# call's ring (the POST's answer + timeout), and how many more than 5 s after (PUSHSVC-CALL-8's margin).
# Exits 1 when any did: a conforming service drops a call push still queued when the ring ended.
#
# Usage: benchmarks/push-service-late-calls.sh [-n 4000] [-r 300] [--ring 3] [--defect ignore-call-timeout]
# Needs: swift, /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."

calls=4000 rate=300 ring=3 defect=""
while [ $# -gt 0 ]; do
    case "$1" in
        -n) calls=$2; shift 2 ;;
        -r) rate=$2; shift 2 ;;
        --ring) ring=$2; shift 2 ;;
        --defect) defect=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
for tool in swift /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 2; }
done

. benchmarks/lib.sh
bin=$(ringcheck_binary release)
start_mocks_in_workdir

export RINGCHECK_PUSH_SERVICE_APP_ID RINGCHECK_PUSH_SERVICE_API_KEY
RINGCHECK_PUSH_SERVICE_APP_ID=$(/usr/bin/python3 -c 'import uuid; print(uuid.uuid4())')
RINGCHECK_PUSH_SERVICE_API_KEY=psk_$(/usr/bin/python3 -c 'import secrets; print(secrets.token_hex(16))')
defect_args=()
[ -n "$defect" ] && defect_args=(--defect "$defect")
start_reference --profile push-service "${defect_args[@]}"

/usr/bin/python3 - "$base" "$RINGCHECK_CONTROL_URL" "$calls" "$rate" "$ring" "${defect:-conforming}" <<'PY'
import concurrent.futures, json, os, sys, threading, time, urllib.error, urllib.request, uuid

base, control, calls, rate, ring, name = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
app, key = os.environ["RINGCHECK_PUSH_SERVICE_APP_ID"], os.environ["RINGCHECK_PUSH_SERVICE_API_KEY"]
margin_ms = 5000

def request(method, url, body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    r = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(r, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, None

request("POST", control + "/v1/faults", {"mock": "apns", "latencyMs": 500})
users = 40
for u in range(users):
    status, _ = request("POST", f"{base}/api/v1/apps/{app}/devices", {
        "external_id": f"u{u}", "platform": "ios", "token": os.urandom(32).hex(), "voipToken": os.urandom(32).hex()})
    assert status == 200, f"device registration answered {status}"

answered, lock = {}, threading.Lock()
def send(i):
    call_id = str(uuid.uuid4())
    status, _ = request("POST", base + "/notifications", {
        "app_id": app, "include_aliases": {"external_id": [f"u{i % users}"]},
        "call": {"action": "incoming", "id": call_id, "caller_name": "A", "handle": "1", "timeout": ring}},
        {"authorization": "Key " + key})
    with lock:
        answered[call_id] = (int(time.time() * 1000), status)

start = time.time()
with concurrent.futures.ThreadPoolExecutor(32) as pool:
    for i in range(calls):
        pool.submit(send, i)
        delay = start + (i + 1) / rate - time.time()
        if delay > 0:
            time.sleep(delay)
sending = time.time() - start

# The queue has drained when no push arrived for 10 s.
last, quiet = -1, 0
while quiet < 10:
    _, health = request("GET", control + "/v1/health")
    quiet, last = (quiet + 1, last) if health["captures"] == last else (0, health["captures"])
    time.sleep(1)
captures, since = [], 0
while True:
    _, page = request("GET", f"{control}/v1/captures?mock=apns&limit=10000&since={since}")
    captures += page["captures"]
    if not page.get("more"):
        break
    since = page["captures"][-1]["sequence"]

late = very_late = 0
worst = None
for c in captures:
    call_id = (c.get("json") or {}).get("call_id")
    if call_id not in answered:
        continue
    after = c["arrivalMs"] - (answered[call_id][0] + ring * 1000)
    late += after > 0
    very_late += after > margin_ms
    worst = after if worst is None else max(worst, after)
accepted = sum(1 for _, status in answered.values() if status == 200)
print(f"{name}: {accepted}/{calls} calls accepted in {sending:.1f} s ({calls / sending:.0f}/s), "
      f"{len(captures)} VoIP pushes captured, {calls - len(captures)} calls dropped unsent")
print(f"after their {ring} s ring: {late} pushes, {very_late} more than {margin_ms // 1000} s after; "
      f"latest {(worst or 0) / 1000:+.1f} s from its ring's end")
sys.exit(1 if very_late else 0)
PY
