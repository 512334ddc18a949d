#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per QD1 command in vflash.ko and in the rest of the kernel.

usage: scripts/bench/icount/kernel-report.py [--top N] DIR[:KO] [DIR[:KO]]

Reads what `make bench-icount-kernel` left in DIR (icount.out over every
kernel address, results.txt, files/kallsyms); KO is the vflash.ko that
run loaded (default: DIR's guess, as report.py). Per read and write: the
instructions a command added to the dispatcher's idle polling, as
report.py's first figure but over every kernel block, split into
vflash.ko's and the kernel's, the median round's, then its top
functions. Given two DIRs (a base build, then this one), the functions
whose counts differ most follow.
"""

import argparse
import bisect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

def run(arg):
    d, _, ko = arg.partition(":")
    ko = ko or report.default_ko(d)
    bases, phases = report.icount_lines(d)
    funcs = report.functions(ko, bases)
    syms = [(f[0], "vflash:" + f[2]) for f in funcs]
    with open(os.path.join(d, "files", "kallsyms")) as fh:
        for line in fh:
            f = line.split()
            if len(f) >= 3:
                syms.append((int(f[0], 16), f[2]))
    syms.sort()
    starts = [s[0] for s in syms]

    def name(va):
        i = bisect.bisect_right(starts, va) - 1
        return syms[i][1] if i >= 0 else "?"

    entry = report.pass_entry(funcs)
    snaps = report.snapshots(os.path.join(d, "icount.out"))
    if entry is None or len(snaps) < 2 * len(phases) or not phases:
        sys.exit(f"kernel-report: {d}: no pass function, or snapshots missing")
    out = {"read": [], "write": []}
    for r in range(len(phases) // 3):
        k = 3 * r
        idle = report.delta(snaps[2 * k], snaps[2 * k + 1])
        ipasses = idle.get(entry, [0, 0])[1]
        if not ipasses:
            sys.exit(f"kernel-report: {d}: no dispatcher pass in round {r + 1}'s idle phase")
        for i in (k + 1, k + 2):
            op, n = phases[i]
            dd = report.delta(snaps[2 * i], snaps[2 * i + 1])
            per = report.added(dd, idle, entry, ipasses, name)
            out[op].append({fn: v / n for fn, v in per.items()})
    return {op: sorted(rs, key=lambda p: sum(p.values()))[len(rs) // 2]
            for op, rs in out.items()}


def split(per):
    mod = sum(v for k, v in per.items() if k.startswith("vflash:"))
    return mod, sum(per.values()) - mod


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1])
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    res = [run(d) for d in a.dirs[:2]]
    for d, r in zip(a.dirs, res):
        for op, per in r.items():
            mod, kern = split(per)
            print(f"BENCH kicount {d.partition(':')[0]} {op}: {mod + kern:.0f} a command,"
                  f" {mod:.0f} in vflash.ko, {kern:.0f} in the rest of the kernel")
            for fn, v in sorted(per.items(), key=lambda kv: -kv[1])[:a.top]:
                print(f"BENCH kicount   {v:8.1f}  {fn}")
    if len(res) == 2:
        for op in ("read", "write"):
            b, h = res[0][op], res[1][op]
            print(f"BENCH kicount {op}: functions that differ most, first DIR -> second")
            for fn in sorted(set(b) | set(h), key=lambda k: -abs(h.get(k, 0) - b.get(k, 0)))[:a.top]:
                print(f"BENCH kicount   {b.get(fn, 0):8.1f} -> {h.get(fn, 0):8.1f}  {fn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
