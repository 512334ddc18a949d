#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Usage: scripts/vm/ktap.py [--slowest N] VMDIR SUITE...
#
# The VM suites' results as KTAP version 1 (Documentation/dev-tools/
# ktap.rst), the format KUnit prints, so that kernel tooling reads them:
# kunit.py parse FILE counts them as it counts KUnit's. One subtest per
# suite, one test line per PASS/FAIL/SKIP line of VMDIR/SUITE/results.txt
# (a test named as its suite gets "_test" added: kunit.py would take it
# for the suite's own line), each after a diagnostic line with its time in
# the guest and the processes it started (the console's "vmtest: NAME took
# N s" and "vmtest: NAME started N processes"). What vmtest.sh counted beyond those lines (a
# suite that did not finish, a kernel warning on its console) is one more
# "not ok" test, and a suite not booted (vmtest-skip, vmtest-once) one
# skipped test, so that the totals are VMDIR/SUITE.counts'.
# --slowest N prints instead the N suites of most guest seconds, with
# their tests, seconds per test and processes started (under the debug
# kernel a process start is most of a test's time: docs/develop/testing.md,
# CI's time).
import os
import re
import sys

RESULT = re.compile(r"^(PASS|FAIL|SKIP) (\S+)(?: (.*))?$")
TOOK = re.compile(r"^vmtest: (\S+) took (\d+) s$")
STARTED = re.compile(r"^vmtest: (\S+) started (\d+) processes$")


def read_lines(path):
    try:
        with open(path, errors="replace") as f:
            return [line.rstrip("\r\n") for line in f]
    except FileNotFoundError:
        return []


def suite_results(vmdir, suite):
    """(tests, extra_failures): tests as (result, name, note, seconds,
    processes)."""
    took = {}
    started = {}
    for line in read_lines(os.path.join(vmdir, suite, "console.log")):
        line = line.replace("\r", "")
        for rx, d in ((TOOK, took), (STARTED, started)):
            m = rx.match(line)
            if m:
                d.setdefault(m.group(1), []).append(int(m.group(2)))
    tests = []
    for line in read_lines(os.path.join(vmdir, suite, "results.txt")):
        m = RESULT.match(line)
        if m:
            times = took.get(m.group(2)) or [None]
            procs = started.get(m.group(2)) or [None]
            tests.append((m.group(1), m.group(2), m.group(3) or "",
                          times.pop(0), procs.pop(0)))
    counts = read_lines(os.path.join(vmdir, suite + ".counts"))
    nfail = sum(1 for t in tests if t[0] == "FAIL")
    nskip = sum(1 for t in tests if t[0] == "SKIP")
    try:
        _, failed, skipped = (int(x) for x in counts[0].split())
    except (IndexError, ValueError):
        failed, skipped = nfail + 1, nskip
    if failed > nfail:
        return tests, "fail", failed - nfail
    if skipped > nskip and not tests:
        return tests, "skip", skipped - nskip
    return tests, None, 0


def ktap(vmdir, suites):
    out = ["KTAP version 1", "1..%d" % len(suites)]
    for i, suite in enumerate(suites, 1):
        tests, kind, extra = suite_results(vmdir, suite)
        out += ["    KTAP version 1", "    # Subtest: " + suite,
                "    1..%d" % (len(tests) + (1 if extra else 0))]
        ok = True
        for j, (res, name, note, secs, procs) in enumerate(tests, 1):
            # kunit.py ends a subtest at a line of its own name
            if name == suite:
                name += "_test"
            if secs is not None:
                out.append("    # %s: took %d s%s" % (
                    name, secs,
                    "" if procs is None else ", %d processes" % procs))
            if res == "PASS":
                out.append("    ok %d %s" % (j, name))
            elif res == "SKIP":
                why = note.strip("() ")
                out.append("    ok %d %s # SKIP %s" % (j, name, why))
            else:
                ok = False
                out.append("    not ok %d %s" % (j, name))
        if kind == "fail":
            ok = False
            out.append("    # %d failure(s) outside the tests: the suite did"
                       " not finish or its kernel log shows a problem" % extra)
            out.append("    not ok %d %s_suite" % (len(tests) + 1, suite))
        elif kind == "skip":
            out.append("    ok 1 %s_suite # SKIP not booted" % suite)
        out.append("%s %d %s" % ("ok" if ok else "not ok", i, suite))
    return "\n".join(out) + "\n"


def slowest(vmdir, suites, n):
    rows = []
    for suite in suites:
        tests = suite_results(vmdir, suite)[0]
        secs = sum(t[3] or 0 for t in tests)
        procs = sum(t[4] or 0 for t in tests)
        ran = sum(1 for t in tests if t[0] != "SKIP")
        if ran:
            rows.append((secs, suite, ran, procs))
    rows.sort(reverse=True)
    lines = []
    for secs, suite, ran, procs in rows[:n]:
        lines.append("slowest suite %s: %d s in the guest, %d tests,"
                     " %.1f s a test, %d processes started" % (
                         suite, secs, ran, secs / ran, procs))
    return "\n".join(lines) + ("\n" if lines else "")


def main(argv):
    n = 0
    if argv[:1] == ["--slowest"]:
        if len(argv) < 2 or not argv[1].isdigit():
            sys.exit("usage: ktap.py [--slowest N] VMDIR SUITE...")
        n = int(argv[1])
        argv = argv[2:]
    if not argv or argv[0] in ("-h", "--help"):
        with open(__file__) as f:
            for line in f.read().splitlines()[2:]:
                if not line.startswith("#"):
                    break
                print(line[2:])
        return 0 if argv else 2
    vmdir, suites = argv[0], argv[1:]
    sys.stdout.write(slowest(vmdir, suites, n) if n else ktap(vmdir, suites))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
