#!/usr/bin/env bash
# Is `ringcheck load` the bottleneck? The Callx reference backend as a child process (serve-reference, SQLite
# file, the users load-a0, load-a1, load-b0..load-b2) driven twice for T seconds at C calls in flight:
#   1. by `ringcheck load --reference-process --concurrency C --duration T` (every push checked, the history
#      judged, the mocks in ringcheck's process);
#   2. by a plain Python client (http.client, keep-alive, one thread per call in flight) playing the same call
#      mix as load's rotation (race, cancel, race, decline, answer-retry, expire, callee-hangup, race, cancel,
#      answer-retry; a retried create every 4th call; each call goes on once every callee device's invitation
#      reached the mocks, as load's does (up to 20 s); the same 200 ms talk, the same 3 s short ring and the
#      same closing read of the call) with no checks, against `ringcheck mocks` in a process of its own. One
#      thread tails the mocks' capture log (GET /v1/captures?since=) and ties each push to its call by the
#      callId it carries.
#   --no-ring-wait: the plain client answers without waiting for the invitations (the benchmark before
#      2026-12-08), which leaves out of its calls the backend's push latency that load's calls include.
# Prints each round's sustained calls/s and the CPU of each process, and load's calls/s over the plain
# client's (the issue's target: >= 0.9).
#
# Usage: benchmarks/load-vs-plain-client.sh [-c CONCURRENCY] [-t SECONDS] [--no-ring-wait]   (defaults: -c 32 -t 30)
# RINGCHECK_BIN=path uses that binary instead of building a release one.
# Needs: swift (unless RINGCHECK_BIN), /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."

concurrency=32 seconds=30 ring_wait=1
while [ $# -gt 0 ]; do
    case "$1" in
        -c) concurrency=$2; shift 2 ;;
        -t) seconds=$2; shift 2 ;;
        --no-ring-wait) ring_wait=0; shift ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
command -v /usr/bin/python3 >/dev/null || { echo "missing /usr/bin/python3" >&2; exit 2; }

. benchmarks/lib.sh
bin=$(ringcheck_binary release)
echo "binary: $bin; load average: $(cut -d' ' -f1-3 /proc/loadavg); $concurrency calls in flight for $seconds s"

# The plain round's mocks start first (idle during round 1), so that one trap stops them and removes the folder.
start_mocks_in_workdir
load_dir="$work/load"

# Round 1: ringcheck load. Its rusage (waited children included) minus the child's CPU from the report is
# ringcheck's own CPU.
/usr/bin/python3 - "$bin" "$load_dir" "$concurrency" "$seconds" <<'PY'
import json, os, subprocess, sys, time
binary, out, concurrency, seconds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
started = time.monotonic()
p = subprocess.Popen([binary, "load", "--reference-process", "--concurrency", concurrency, "--duration", seconds,
                      "--report-dir", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(p.pid, 0)
wall = time.monotonic() - started
report = json.load(open(out + "/load-report.json"))
child = report.get("resources") or {}
total_cpu = usage.ru_utime + usage.ru_stime
print("load: exit %d, verdict %s, %d calls finished, %d failed; %.1f calls/s sustained; wall %.1f s" % (
    os.waitstatus_to_exitcode(status), report["verdict"], report["callsFinished"], report["callsFailed"],
    report["callsPerSecond"], wall))
print("load: reference backend (child) CPU %.1f s (%.0f%% of a core); ringcheck load itself (driver, mocks, checks) "
      "CPU %.1f s" % (child.get("cpuSeconds", 0), child.get("cpuPercent", 0), total_cpu - child.get("cpuSeconds", 0)))
json.dump({"callsPerSecond": report["callsPerSecond"]}, open(out + "/summary.json", "w"))
PY

# Round 2: the plain client against mocks and the reference, each a process of its own.
users="$work/users.json"
/usr/bin/python3 -c '
import json, sys
names = ["load-a0", "load-a1", "load-b0", "load-b1", "load-b2"]
json.dump({"users": [{"userId": n, "displayName": n, "handle": "callx:" + n, "token": "token-" + n} for n in names]},
          open(sys.argv[1], "w"))' "$users"
start_reference --db "$work/reference.db" --ring-seconds 30 --event-retention 100000 --users "$users"
ref_pid=${pids[-1]}
mocks_pid=${pids[0]}

/usr/bin/python3 - "$base" "$RINGCHECK_APNS_BUNDLE_ID" "$concurrency" "$seconds" "$ref_pid" "$mocks_pid" \
    "$load_dir/summary.json" "$RINGCHECK_CONTROL_URL" "$ring_wait" <<'PY'
import json, os, re, resource, sys, threading, time, uuid
sys.path.insert(0, "benchmarks")
from callx_client import call, connector
base, bundle, concurrency, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
ref_pid, mocks_pid, load_summary = int(sys.argv[5]), int(sys.argv[6]), sys.argv[7]
control, ring_wait = sys.argv[8], sys.argv[9] == "1"
connect = connector(base, timeout=60)
tick = os.sysconf("SC_CLK_TCK")

def cpu(pid):
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / tick

def send(conn, method, path, user, body=None):
    return call(conn, method, path, user, body)[:2]

def op():
    return "ringcheck-load-" + uuid.uuid4().hex[:12]

# The devices load registers: each caller's VoIP installation; each callee's phone (APNs VoIP sandbox) and
# tablet (FCM), and an iPad (APNs VoIP production) for load-b0 and load-b2.
callers = ["load-a0", "load-a1"]
callees = ["load-b0", "load-b1", "load-b2"]
prefix = "plain-" + uuid.uuid4().hex[:6]
devices = []
setup = connect()
for i, user in enumerate(callers):
    status, payload = send(setup, "PUT", "/v1/installations/%s-a%d-caller/push-tokens/apnsVoip" % (prefix, i), user,
                           {"token": os.urandom(32).hex(), "appId": bundle, "apnsEnvironment": "sandbox"})
    assert status in (200, 201, 204), (status, payload)
for i, user in enumerate(callees):
    mine = [("%s-b%d-phone" % (prefix, i), "apnsVoip", "sandbox"), ("%s-b%d-tablet" % (prefix, i), "fcm", None)]
    if i % 2 == 0:
        mine.append(("%s-b%d-ipad" % (prefix, i), "apnsVoip", "production"))
    for installation, kind, environment in mine:
        body = {"token": os.urandom(32).hex() if kind == "apnsVoip" else "fcm-plain:" + uuid.uuid4().hex,
                "appId": bundle}
        if environment:
            body["apnsEnvironment"] = environment
        status, payload = send(setup, "PUT", "/v1/installations/%s/push-tokens/%s" % (installation, kind), user, body)
        assert status in (200, 201, 204), (status, payload)
    devices.append([m[0] for m in mine])

# The ring: each call waits, after its create, until every callee device's invitation reached the mocks (load
# waits the same way, up to its 20 s limit). One thread tails the capture log and ties each accepted push to its
# call by the callId it carries (in the APNs payload, or escaped in FCM's data.callx string); a push of a call
# nobody waits for (a stop signal, a late one) is skipped.
rings = {}  # callId -> [devices wanted, set of device tokens seen, threading.Event]
rings_lock = threading.Lock()
call_id_in_body = re.compile(r'callId\\?"\s*:\s*\\?"([0-9a-fA-F-]{36})')
tailing = [True]

def tail_captures():
    conn = connector(control, timeout=60)()
    since = json.loads(call(conn, "GET", "/v1/health", "-")[1])["lastSequence"]
    while tailing[0]:
        status, payload, _ = call(conn, "GET", "/v1/captures?since=%d&limit=10000&reveal=true" % since, "-")
        page = json.loads(payload)
        for c in page["captures"]:
            since = max(since, c["sequence"])
            if c["mock"] not in ("apns", "fcm") or c["outcome"] != "accepted":
                continue
            found = call_id_in_body.search(c.get("body") or "")
            device = c.get("deviceToken") or (c.get("fcmTarget") or {}).get("value")
            with rings_lock:
                ring = rings.get(found.group(1)) if found else None
                if ring and device:
                    ring[1].add(device)
                    if len(ring[1]) >= ring[0]:
                        ring[2].set()
        if not page.get("more"):
            time.sleep(0.02)

rotation = ["race", "cancel", "race", "decline", "answer-retry", "expire", "callee-hangup", "race", "cancel",
            "answer-retry"]
lock = threading.Lock()
next_index = [0]
finished = [0]
failed = []
stop_at = time.monotonic() + seconds

def play(conn, index):
    script = rotation[index % len(rotation)]
    caller, callee, phones = callers[index % 2], callees[index % 3], devices[index % 3]
    call_id = str(uuid.uuid4())
    create = {"callId": call_id, "calleeUserId": callee, "operationId": op()}
    if script == "expire":
        create["ringSeconds"] = 3
    ring = [len(phones), set(), threading.Event()]
    if ring_wait:
        with rings_lock:
            rings[call_id] = ring
    try:
        status, payload = send(conn, "POST", "/v1/calls", caller, create)
        if status >= 300:
            return "create HTTP %d" % status
        created = json.loads(payload or b"{}")
        if index % 4 == 0:
            send(conn, "POST", "/v1/calls", caller, create)
        waited = time.monotonic()
        if ring_wait and not ring[2].wait(20):
            rung_late[0] += 1
        with lock:
            ring_waits.append(time.monotonic() - waited)
    finally:
        with rings_lock:
            rings.pop(call_id, None)
    path = "/v1/calls/" + call_id

    def answer(device, body=None):
        body = body or {"operationId": op(), "installationId": device}
        return send(conn, "POST", path + "/answer", callee, body)[0] < 300, body

    def end(user, reason, device=None):
        body = {"operationId": op(), "reason": reason}
        if device:
            body["installationId"] = device
        send(conn, "POST", path + "/end", user, body)

    if script == "race":
        if any([answer(d)[0] for d in phones]):
            time.sleep(0.2)
            end(caller, "localHangup")
    elif script == "answer-retry":
        ok, body = answer(phones[0])
        answer(phones[0], body)
        if ok:
            time.sleep(0.2)
            end(caller, "localHangup")
    elif script == "callee-hangup":
        d = phones[index % len(phones)]
        if answer(d)[0]:
            time.sleep(0.2)
            end(callee, "localHangup", d)
    elif script == "cancel":
        end(caller, "callerCancelled")
    elif script == "decline":
        end(callee, "declined", phones[-1])
    elif script == "expire":
        expires = (created.get("call") or created).get("expiresAtMs") or (time.time() * 1000 + 3000)
        time.sleep(max(0, expires / 1000 - time.time()) + 0.3)
        while True:
            status, payload = send(conn, "GET", path, caller)
            body = json.loads(payload or b"{}")
            if (body.get("call") or body).get("state") == "ended" or time.monotonic() > stop_at + 20:
                break
            time.sleep(0.25)
    send(conn, "GET", path, caller)
    return None

def worker():
    conn = connect()
    while time.monotonic() < stop_at:
        with lock:
            index = next_index[0]
            next_index[0] += 1
        try:
            problem = play(conn, index)
        except Exception as error:
            problem = str(error)
            conn = connect()
        with lock:
            if problem:
                failed.append(problem)
            else:
                finished[0] += 1

rung_late = [0]
ring_waits = []
tailer = threading.Thread(target=tail_captures)
if ring_wait:
    tailer.start()
ref_before, mocks_before = cpu(ref_pid), cpu(mocks_pid)
started = time.monotonic()
threads = [threading.Thread(target=worker) for _ in range(concurrency)]
for t in threads: t.start()
for t in threads: t.join()
elapsed = time.monotonic() - started
tailing[0] = False
if ring_wait:
    tailer.join()
ref_cpu, mocks_cpu = cpu(ref_pid) - ref_before, cpu(mocks_pid) - mocks_before
me = resource.getrusage(resource.RUSAGE_SELF)
plain = finished[0] / elapsed
print("plain: %d calls finished, %d failed (%s); %.1f calls/s sustained; wall %.1f s; %s" % (
    finished[0], len(failed), failed[0] if failed else "-", plain, elapsed,
    "calls waited for their ring (%d not rung within 20 s)" % rung_late[0] if ring_wait else "no ring wait"))
if ring_wait and ring_waits:
    ring_waits.sort()
    print("plain: ring wait after the create (ms): p50 %.0f, p90 %.0f, max %.0f" % tuple(
        1000 * ring_waits[int(q * (len(ring_waits) - 1))] for q in (0.5, 0.9, 1)))
print("plain: reference backend CPU %.1f s (%.0f%% of a core); mocks CPU %.1f s; Python client CPU %.1f s" % (
    ref_cpu, 100 * ref_cpu / elapsed, mocks_cpu, me.ru_utime + me.ru_stime))
load = json.load(open(load_summary))["callsPerSecond"]
print("ratio (load calls/s / plain client calls/s): %.2f   (target >= 0.9)" % (load / plain if plain else 0))
print("load average at the end: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
PY
