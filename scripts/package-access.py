#!/usr/bin/env python3
"""Reads a swift build log; for every "'X' is inaccessible due to 'internal' protection level" error, adds
`package` at the declaration the compiler's note names (file:line), once per line. Prints what it changed.

Used to split the profiles out of the engine (docs/ARCHITECTURE.md, "Modules and their arrows"): build a
profile module, run this on the log, build again until the profile compiles. A new profile that needs more of
the engine does the same; review the result (a profile needs `package`, never `public`).

    swift build --target DialStack > /tmp/build.log 2>&1
    scripts/package-access.py /tmp/build.log Sources/Conformance
"""
import re, sys
log = open(sys.argv[1]).read().splitlines()
decls = set()
for i, line in enumerate(log):
    if "is inaccessible due to 'internal' protection level" in line or "initializer is inaccessible due to 'internal'" in line:
        for nxt in log[i + 1:i + 40]:
            m = re.match(r"^(/[^:]+\.swift):(\d+):\d+: note: .*declared here", nxt)
            if m:
                decls.add((m.group(1), int(m.group(2))))
                break
kw = re.compile(r"^(\s*)((?:@\w+(?:\([^)]*\))?\s+)*)((?:final |static |mutating |nonisolated |override |convenience |required |lazy |weak |indirect |class )*)(struct|class|enum|protocol|actor|typealias|func|var|let|init|subscript|case|extension)\b")
changed = 0
for path, n in sorted(decls):
    lines = open(path).read().split("\n")
    l = lines[n - 1]
    if re.search(r"\b(public|package|open)\b", l) or re.search(r"\b(private|fileprivate)\b", l):
        continue
    # A protocol's requirement takes the protocol's access: the note then names a requirement where the
    # caller meant an extension's overload (fix that one by hand).
    enclosing = next((x for x in reversed(lines[:n - 1]) if x and not x[0].isspace() and x[0] not in "/}@"), "")
    if l[:1].isspace() and re.search(r"\bprotocol\b", enclosing):
        print(f"{path}:{n}: not changed (a protocol requirement): {l.strip()[:80]}")
        continue
    m = kw.match(l)
    if not m:
        print(f"{path}:{n}: not changed: {l.strip()[:80]}")
        continue
    lines[n - 1] = l[:m.start(2)] + m.group(2) + "package " + l[m.start(3):]
    open(path, "w").write("\n".join(lines))
    changed += 1
print(f"{changed} declarations made package")

# Internal top-level types and functions of the engine the new module cannot see ("cannot find 'X' in scope"):
# their top-level declaration in the engine (argv[2]) gets `package`.
import subprocess
names = set(re.findall(r"error: cannot find (?:type )?'(\w+)' in scope", "\n".join(log)))
changed = 0
if len(sys.argv) > 2:
    for name in sorted(names):
        out = subprocess.run(["grep", "-rnE", rf"^((final |indirect )?(struct|class|enum|protocol|actor|typealias|func|let|var) {name}\b)", sys.argv[2], "--include=*.swift"], capture_output=True, text=True).stdout
        for hit in out.splitlines()[:1]:
            path, n, _ = hit.split(":", 2)
            lines = open(path).read().split("\n")
            lines[int(n) - 1] = "package " + lines[int(n) - 1]
            open(path, "w").write("\n".join(lines))
            changed += 1
print(f"{changed} top-level declarations made package")
