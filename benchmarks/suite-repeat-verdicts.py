"""The verdicts of benchmarks/suite-repeat.sh: one line per run, and whether every run gave the same one.

  suite-repeat-verdicts.py run DIR I               prints run I's line (DIR/runI/report.json, DIR/runI.status)
  suite-repeat-verdicts.py summary DIR N EXPECT    compares runs 1..N; EXPECT is pass, defect or any

A verdict is the exit code, the requirements that failed (ID and level) and the scenarios that did not
pass (ID and status, not-applicable ones included: a pass allows them, but a scenario that is not
applicable in one run only is a different verdict). summary exits 0 when every run gave the same verdict and that
verdict is the one EXPECT asks for: pass = exit 0 with no scenario failed, errored, timed out or flaky;
defect = some requirement failed, exit 1 (exit 0 when every failed one is a SHOULD: a warning); any = whatever
it is.
"""

import json
import os
import sys


def verdict(directory, i):
    """(exit code, failed requirements, non-pass scenarios, seconds, load) of run i; None parts if no report."""
    status, start, end, load = open(f"{directory}/run{i}.status").read().split()
    path = f"{directory}/run{i}/report.json"
    if not os.path.exists(path):
        return int(status), None, None, float(end) - float(start), load
    report = json.load(open(path))
    failed = sorted(f"{r['id']}({r['level']})" for r in report["requirements"] if r["verdict"] == "fail")
    inconclusive = sorted(f"{r['id']}(inconclusive)" for r in report["requirements"] if r["verdict"] == "inconclusive")
    scenarios = sorted(f"{s['id']}:{s['status']}" for s in report["scenarios"] if s["status"] != "pass")
    scenarios += sorted(f"{s['id']}:notRun" for s in report.get("notRun", []))
    if report.get("aborted"):
        scenarios.append(f"aborted:{report['aborted']}")
    return int(status), tuple(failed + inconclusive), tuple(scenarios), float(end) - float(start), load


def run_line(directory, i):
    status, requirements, scenarios, seconds, load = verdict(directory, i)
    if requirements is None:
        console = open(f"{directory}/run{i}.out").read().strip().splitlines()
        print(f"run {i}: exit {status} in {seconds:.1f} s (load {load}), no report.json: {' | '.join(console[-3:])}")
        return
    bad = [s for s in scenarios if not s.endswith(":notApplicable")]
    print(
        f"run {i}: exit {status} in {seconds:.1f} s (load {load}); "
        f"not passed: {' '.join(bad) or 'none'}; failed requirements: {' '.join(requirements) or 'none'}"
    )


def summary(directory, runs, expect):
    verdicts = {}
    seconds = []
    for i in range(1, runs + 1):
        status, requirements, scenarios, took, _ = verdict(directory, i)
        verdicts.setdefault((status, requirements, scenarios), []).append(i)
        seconds.append(took)
    seconds.sort()
    median = seconds[len(seconds) // 2]
    print(f"time per run: median {median:.1f} s, min {seconds[0]:.1f} s, max {seconds[-1]:.1f} s")
    # The most common verdict in full, each other one as what it adds (+) and lacks (-) against it.
    ordered = sorted(verdicts.items(), key=lambda v: (-len(v[1]), v[1][0]))
    common = ordered[0][0]
    for (status, requirements, scenarios), which in ordered:
        print(f"verdict in {len(which)} of {runs} runs ({', '.join(map(str, which))}): exit {status}")
        for name, these, theirs in (
            ("failed requirements", requirements, common[1]),
            ("scenarios not passed", scenarios, common[2]),
        ):
            if these is None:
                print(f"  {name}: (no report.json)")
            elif (status, requirements, scenarios) == common or theirs is None:
                print(f"  {name}: {' '.join(these) or 'none'}")
            else:
                diff = [f"+{x}" for x in these if x not in theirs] + [f"-{x}" for x in theirs if x not in these]
                print(f"  {name}, against the first verdict: {' '.join(diff) or 'the same'}")
    if len(verdicts) != 1:
        charged = {(status, requirements) for status, requirements, _ in verdicts}
        print(
            f"NOT HELD: {len(verdicts)} different verdicts in {runs} runs ("
            + ("the exit code and failed requirements were the same, the scenarios not passed were not)"
               if len(charged) == 1 else f"{len(charged)} different exit codes or sets of failed requirements)"))
        return 1
    ((status, requirements, scenarios),) = verdicts
    if expect == "pass" and (status != 0 or any(not s.endswith(":notApplicable") for s in scenarios)):
        print(f"NOT HELD: every run gave the same verdict, but not a pass (exit {status})")
        return 1
    if expect == "defect":
        # A defect that breaks only SHOULD requirements is a warning in a lenient run: exit 0, still caught.
        should_only = requirements and all(r.endswith("(SHOULD)") for r in requirements)
        want = 0 if should_only else 1
        if not requirements or status != want:
            print(f"NOT HELD: every run gave the same verdict, but the defect was not caught (exit {status}, want {want})")
            return 1
    print(f"HELD: the same verdict in all {runs} runs")
    return 0


if __name__ == "__main__":
    command, directory = sys.argv[1], sys.argv[2]
    if command == "run":
        run_line(directory, int(sys.argv[3]))
    else:
        sys.exit(summary(directory, int(sys.argv[3]), sys.argv[4]))
