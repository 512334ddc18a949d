#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per 4 KiB read and write in vflash.ko (make bench-icount).

usage: scripts/bench/icount/report.py [--ko VFLASH.KO] [--top N] DIR

DIR is the bench-icount suite's log directory: icount.out (the icount.so
plugin's snapshots: per translation block address, its instructions and
executions, at each marker) and results.txt (the guest's "ICOUNT" lines:
vflash's section addresses, the phases and their operation counts).
The module's functions come from VFLASH.KO's symbol table (default: the
module the suite booted, ./vflash.ko, or build/ko-LINE/vflash.ko for
build/vmtest-LINE/).

The dispatcher polls the submission queues between commands, so the
instructions a phase executes depend on how long the device waited. The
guest's first phase, "idle", has no I/O: per translation block, its
executions per dispatcher pass (executions of vfn_dispatch_once()'s first
block) are what an empty pass runs. A command's cost is, summed over the
blocks, their instructions times their executions in its phase less
the phase's passes times that rate (never below zero: the idle phase's
sleeping paths are not the spinning between commands), divided by the
commands: what the commands added to the polling. Prints "BENCH icount"
lines: per round (the guest runs idle, read, write three times), the
idle pass, then per operation the instructions per command, those of
them that are the command's work (every function but the dispatcher's
and the completion workers' loops and what they run per pass, and of
those loops the blocks run at most twice a command: its fetch, its
post; not the passes that spin waiting for a completion to fall due),
the phase's whole count and its passes per command;
the median over the rounds; the
functions that took the most of the median round's cost. Prints PASS/FAIL
lines for vmtest: every phase was seen and a command cost more than
nothing.
"""
import argparse
import bisect
import os
import re
import subprocess
import sys


def sections(ko):
    """Section index -> name, from readelf -SW."""
    out = subprocess.run(["readelf", "-SW", ko], capture_output=True,
                         text=True, check=True).stdout
    idx = {}
    for m in re.finditer(r"^\s*\[\s*(\d+)\]\s+(\S+)", out, re.M):
        idx[m.group(1)] = m.group(2)
    return idx


def functions(ko, bases):
    """Sorted (start, end, name) of the module's functions at run time."""
    names = sections(ko)
    out = subprocess.run(["readelf", "-sW", ko], capture_output=True,
                         text=True, check=True).stdout
    funcs = []
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or f[3] != "FUNC" or not f[6].isdigit():
            continue
        sec = names.get(f[6])
        if sec not in bases:
            continue
        start = bases[sec] + int(f[1], 16)
        funcs.append((start, start + max(int(f[2]), 1), f[7]))
    funcs.sort()
    return funcs


def snapshots(path):
    """The plugin's snapshots: a list of {vaddr: [instructions, executions]}."""
    snaps, cur = [], None
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if f[0] == "mark":
                cur = {}
            elif f[0] == "end":
                snaps.append(cur)
            else:
                c = cur.setdefault(int(f[0], 16), [0, 0])
                c[0] += int(f[1]) * int(f[2])
                c[1] += int(f[2])
    return snaps


PASS_FN = "vfn_dispatch_once"

# The loops that poll and drain: they run per pass, whether or not a
# command is there. Every other function runs only for a command. drain
# and raise_irqs are their names in builds before 2026-12-03 (8aecb66).
LOOPS = {"dispatch_fn", "vfn_dispatch_once", "worker_fn", "vfn_drain",
         "fetch", "vfn_sq_avail", "vfn_raise_irqs", "drain", "raise_irqs"}

# Run by the clock, not by commands: the background worker's periodic
# cleaning pass and the dispatcher's nap. How often they run in a phase
# follows its length in host time (the host's load), so none of it is the
# command's work.
TIMED = {"vflash_flash_maintain", "vfn_dispatch_sleep"}


def delta(before, after):
    """Per block address, [instructions, executions] between two snapshots."""
    d = {}
    for va, (c, e) in after.items():
        b = before.get(va, [0, 0])
        if e - b[1]:
            d[va] = [c - b[0], e - b[1]]
    return d


def name_of(va, funcs, starts):
    j = bisect.bisect_right(starts, va) - 1
    return funcs[j][2] if j >= 0 and va < funcs[j][1] else "?"


def default_ko(d):
    m = re.search(r"vmtest(-[0-9.]+)?/", os.path.abspath(d) + "/")
    if m and m.group(1):
        return os.path.join("build", "ko" + m.group(1), "vflash.ko")
    return "vflash.ko"


def added(d, idle, entry, ipasses, name):
    """Per function (name(address)), the instructions a phase's commands
    added to the polling: per block, its executions less the phase's
    passes times its executions per idle pass (never below 0), times its
    instructions per execution. d and idle are delta()s, entry the pass
    counter's address, ipasses its executions in idle."""
    passes = d.get(entry, [0, 0])[1]
    per = {}
    for va, (c, e) in d.items():
        left = max(0.0, e - passes * idle.get(va, [0, 0])[1] / ipasses)
        if left:
            fn = name(va)
            per[fn] = per.get(fn, 0) + c / e * left
    return per


def pass_entry(funcs):
    """The address whose executions count the dispatcher's passes:
    PASS_FN's, or in a build without it (8aecb66 polls inline in
    dispatch_fn) fetch()'s, run once per live SQ a pass: proportional to
    the passes, which is all the idle rates need. None if neither."""
    for fn in (PASS_FN, "fetch"):
        entry = next((f[0] for f in funcs if f[2] == fn), None)
        if entry is not None:
            return entry
    return None


def icount_lines(d):
    """The guest's ICOUNT lines in DIR/results.txt: ({section: address},
    [(phase, commands)])."""
    bases, phases = {}, []
    with open(os.path.join(d, "results.txt")) as fh:
        for line in fh:
            f = line.split()
            if len(f) >= 4 and f[:2] == ["ICOUNT", "section"]:
                bases[f[2]] = int(f[3], 16)
            elif len(f) == 4 and f[:2] == ["ICOUNT", "phase"]:
                phases.append((f[2], int(f[3])))
    return bases, phases


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("--ko")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("dir")
    a = ap.parse_args()
    ko = a.ko or default_ko(a.dir)
    bases, phases = icount_lines(a.dir)
    ok = True
    kinds = [p[0] for p in phases]
    if not bases or not kinds or kinds != ["idle", "read", "write"] * (len(kinds) // 3):
        print("FAIL icount: no section addresses, or not rounds of the phases idle, read, write in results.txt")
        return 1
    funcs = functions(ko, bases)
    starts = [f[0] for f in funcs]
    entry = pass_entry(funcs)
    snaps = snapshots(os.path.join(a.dir, "icount.out"))
    if entry is None or len(snaps) < 2 * len(phases):
        print(f"FAIL icount: {len(snaps)} snapshots, want {2 * len(phases)}; {PASS_FN} or fetch {'missing' if entry is None else 'found'}")
        return 1
    results = {"read": [], "write": []}
    for r in range(len(phases) // 3):
        k = 3 * r
        idle = delta(snaps[2 * k], snaps[2 * k + 1])
        ipasses = idle.get(entry, [0, 0])[1]
        if not ipasses:
            print(f"FAIL icount: no dispatcher pass in round {r + 1}'s idle phase")
            return 1
        print(f"BENCH icount round {r + 1} idle: {sum(c for c, _ in idle.values()) / ipasses:.0f}"
              f" instructions per idle dispatcher pass ({ipasses} passes)")
        for i in (k + 1, k + 2):
            op, n = phases[i]
            d = delta(snaps[2 * i], snaps[2 * i + 1])
            passes = d.get(entry, [0, 0])[1]
            total = sum(c for c, _ in d.values())
            per = added(d, idle, entry, ipasses,
                        lambda va: name_of(va, funcs, starts))
            cmd = sum(per.values()) / n
            exact = 0
            for va, (c, e) in d.items():
                # In a loop, a block run at most twice a command is the
                # command's (its fetch, its post); more often, waiting.
                fn = name_of(va, funcs, starts)
                if fn not in TIMED and (fn not in LOOPS or e <= 2 * n):
                    exact += c
            results[op].append((cmd, per, n, exact / n))
            print(f"BENCH icount round {r + 1} {op}: {cmd:.0f} instructions per 4 KiB {op} in vflash.ko,"
                  f" {exact / n:.0f} of them the command's work"
                  f" (the phase's all: {total / n:.0f} a command, {passes / n:.1f} dispatcher passes a command; {n} {op}s)")
    for op, rs in results.items():
        rs.sort(key=lambda x: x[0])
        cmd, per, n, _ = rs[len(rs) // 2]
        ex = sorted(x[3] for x in rs)
        print(f"BENCH icount {op}: {cmd:.0f} instructions per 4 KiB {op} in vflash.ko (median of"
              f" {len(rs)} rounds: {', '.join(f'{x[0]:.0f}' for x in rs)}); the command's work"
              f" {ex[len(ex) // 2]:.0f} ({', '.join(f'{x:.0f}' for x in ex)})")
        for name, v in sorted(per.items(), key=lambda kv: -kv[1])[:a.top]:
            print(f"BENCH icount {op}   {v / n:8.1f}  {name}")
        if cmd <= 0:
            print(f"FAIL icount-{op}: a command cost no more than its idle passes")
            ok = False
        else:
            print(f"PASS icount-{op}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
