#!/usr/bin/env python3
"""Counts test cases from meson's testlog.json: Boost.Test modules report their own
cases ("N test cases out of M passed"), scripts print "N passed, M failed", any
other test counts as one. Prints "N passed, M failed[, K skipped]"."""
import json, re, sys

passed = failed = skipped = 0
path = sys.argv[1] if len(sys.argv) > 1 else "build/meson-logs/testlog.json"
try:
    lines = open(path).read().splitlines()
except OSError:
    lines = []
for line in lines:
    t = json.loads(line)
    out = t.get("stdout") or ""
    res = t.get("result", "")
    if res == "SKIP":
        skipped += 1
        continue
    boost = re.findall(r"(\d+) test cases? out of \d+ (passed|failed|skipped|aborted)", out)
    script = re.findall(r"^(\d+) passed, (\d+) failed", out, re.M)
    if boost:
        p = sum(int(n) for n, k in boost if k == "passed")
        f = sum(int(n) for n, k in boost if k in ("failed", "aborted"))
        s = sum(int(n) for n, k in boost if k == "skipped")
        if res not in ("OK", "EXPECTEDFAIL") and f == 0:
            f = 1  # crashed or timed out after its summary
        passed, failed, skipped = passed + p, failed + f, skipped + s
    elif script:
        p, f = map(int, script[-1])
        if res != "OK" and f == 0:
            f = 1
        passed, failed = passed + p, failed + f
    elif res in ("OK", "EXPECTEDFAIL"):  # EXPECTEDFAIL: a should_fail test (bad input rejected)
        passed += 1
    else:
        failed += 1
line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
