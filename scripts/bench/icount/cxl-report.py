#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Kernel instructions per CXL miss and per devdax fault (make bench-icount-cxl).

usage: scripts/bench/icount/cxl-report.py [--ko VFLASH.KO] [--map KALLSYMS]
                                          [--top N] DIR

DIR is the bench-icount-cxl suite's log directory: icount.out (the
icount.so plugin's snapshots, per translation block address at kernel
addresses: its instructions and executions, at each marker), results.txt
(the guest's "ICOUNT" lines: the phases, each with its number of faults;
before each vflash phase, vflash's section addresses and its module
range) and files/kallsyms.txt (the guest's text symbols: Debian's
System.map is a stub; the guest boots with nokaslr). Each phase is one
mmap_lat --first-touch --mark run: two markers around its timed loop, so
phase k is the difference of snapshots 2k+1 and 2k.

Counted: every guest instruction at kernel addresses (vmlinux text and
every module), on either vCPU, between the markers: the faulting
threads' faults, the evictor thread, and whatever else the kernel ran
meanwhile (timer ticks, the idle loop). Attributed to vmlinux's and
devdax's functions with KALLSYMS (default DIR/files/kallsyms.txt), to
vflash.ko's with VFLASH.KO's symbol table (default ./vflash.ko) at the
reported section addresses. Two parts are set apart from the work: the
spin of a TLB-flush IPI's sender waiting for the other CPU
(smp_call_function_many_cond(), whose count grows with how long the
other vCPU takes, i.e. with the host's load) and vflash's GC worker (its
own timer). Prints "BENCH icount-cxl" lines: per phase and round the
instructions of work per fault (of which vflash.ko, other modules, and
the work on vCPU 0, where the guest pins a one-thread phase's faulting
thread, vflash's evictor on vCPU 1), all of them, the IPI wait and the
GC worker; the median round's (by work); the ratios the issue asks
about, of work per fault (vflash zero-time miss / devdax first touch;
two threads / one; one thread on its own vCPU, what its timed p50 sees)
and of all instructions; and
the functions that take the most of the median round's zero-time miss
and devdax fault (all instructions). PASS/FAIL lines for vmtest: every
phase seen with a count above zero.
"""
import argparse
import bisect
import os
import statistics
import sys

# vflash.ko's functions at their run-time bases: report.py's reading of
# the module (this directory).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import functions as ko_functions  # noqa: E402


# The sender of a TLB-flush IPI spins in smp_call_function_many_cond()
# (csd_lock_wait()) until the other CPUs have run the flush: instructions
# that grow with how long that takes (in TCG, with the host's load), not
# work. Reported apart.
WAITING = ("smp_call_function_many_cond",)

# vflash's GC worker (backend_flash/gc.c) runs on its own timer, not per
# fault: its share grows with the phase's length. Reported apart.
GC_WORKER = ("worker_fn", "vflash_flash_maintain")

# The plugin's per-vCPU execution columns (icount.c's NR_VCPUS).
NR_VCPUS = 8

# The guest script pins a one-thread phase's faulting thread to this vCPU
# (and vflash's evictor to another): what ran there is the fault's own
# path, and the TLB-flush IPIs it took from the evictor.
FAULT_VCPU = 0


def map_functions(path):
    """(start, name) of the text symbols of a System.map or kallsyms."""
    syms = []
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if len(f) >= 3 and f[1] in "tTwW":
                syms.append((int(f[0], 16), " ".join(f[2:])))
    syms.sort()
    return syms


def snapshots(path):
    snaps, cur = [], None
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if not f:
                continue
            if f[0] == "mark":
                cur = {}
            elif f[0] == "end":
                snaps.append(cur)
            else:
                e = cur.setdefault(int(f[0], 16), [0, 0, [0] * NR_VCPUS])
                # Several translations of one address: add their runs.
                e[0] = int(f[1])
                e[1] += int(f[2])
                for v, n in enumerate(f[3:3 + NR_VCPUS]):
                    e[2][v] += int(n)
    return snaps


class Symbolizer:
    def __init__(self, vmlinux, modules, ko):
        self.vm = vmlinux
        self.vm_addr = [a for a, _ in vmlinux]
        self.modules = modules      # [(base, end, name)]
        self.ko = sorted(ko)
        self.ko_addr = [a for a, _, _ in self.ko]

    def where(self, addr):
        """(owner, function): owner vmlinux, vflash or a module's name."""
        i = bisect.bisect_right(self.ko_addr, addr) - 1
        if i >= 0 and addr < self.ko[i][1]:
            return "vflash", self.ko[i][2]
        for base, end, name in self.modules:
            if base <= addr < end:
                return name, "[" + name + "]"
        i = bisect.bisect_right(self.vm_addr, addr) - 1
        fn = self.vm[i][1] if i >= 0 else "?"
        if addr >= 0xffffffffc0000000:
            return "modules", fn if fn.endswith("]") else "[module ?]"
        return "vmlinux", fn


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ko")
    ap.add_argument("--map")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("dir")
    a = ap.parse_args()

    phases, modules = [], []
    bases, vrange = {}, None
    with open(os.path.join(a.dir, "results.txt")) as fh:
        for line in fh:
            f = line.split()
            if len(f) < 2 or f[0] != "ICOUNT":
                continue
            if f[1] == "section" and len(f) >= 4:
                bases[f[2]] = int(f[3], 16)
            elif f[1] == "vflash" and len(f) >= 4:
                vrange = (int(f[2], 16), int(f[2], 16) + int(f[3]))
            elif f[1] == "phase":
                phases.append((f[2], int(f[3]), dict(bases), vrange))
                bases, vrange = {}, None
            elif f[1] == "module" and len(f) >= 5:
                base, size = int(f[3], 16), int(f[4])
                if base and size:
                    modules.append((base, base + size, f[2]))
    ko = a.ko or "vflash.ko"
    if not a.map:
        a.map = os.path.join(a.dir, "files", "kallsyms.txt")
        if not os.path.exists(a.map):
            a.map = None
    vmlinux = map_functions(a.map) if a.map else []
    snaps = snapshots(os.path.join(a.dir, "icount.out"))
    if not phases or len(snaps) < 2 * len(phases):
        print("FAIL icount-cxl-phases (%d phases, %d snapshots)"
              % (len(phases), len(snaps)))
        return 1

    per = {}        # name -> [(total, vflash, modules, {func: insns}, faults)]
    for k, (name, faults, sec, vr) in enumerate(phases):
        mods = modules + ([(vr[0], vr[1], "vflash")] if vr else [])
        sym = Symbolizer(vmlinux, mods, ko_functions(ko, sec) if sec else [])
        s0, s1 = snaps[2 * k], snaps[2 * k + 1]
        tot = {"vmlinux": 0, "vflash": 0, "modules": 0}
        funcs = {}
        on_fault_cpu = 0    # work on FAULT_VCPU
        for addr, (insns, execs, vexecs) in s1.items():
            old = s0.get(addr, [0, 0, [0] * NR_VCPUS])
            d = execs - old[1]
            if d <= 0:
                continue
            owner, fn = sym.where(addr)
            key = "modules" if owner not in tot else owner
            tot[key] += insns * d
            funcs[fn] = funcs.get(fn, 0) + insns * d
            if fn not in WAITING and fn not in GC_WORKER:
                on_fault_cpu += insns * (vexecs[FAULT_VCPU] -
                                         old[2][FAULT_VCPU])
        total = sum(tot.values())
        wait = sum(funcs.get(fn, 0) for fn in WAITING)
        gc = sum(funcs.get(fn, 0) for fn in GC_WORKER)
        work = total - wait - gc
        per.setdefault(name, []).append(
            (work / faults, (tot["vflash"] - gc) / faults,
             tot["modules"] / faults, funcs, faults, total / faults,
             wait / faults, gc / faults, on_fault_cpu / faults))
        print("BENCH icount-cxl %s round %d: %.0f instructions of work per "
              "fault (vflash.ko %.0f, other modules %.0f; on vCPU %d %.0f); "
              "all %.0f, of which IPI wait %.0f, GC worker %.0f; %d faults"
              % (name, len(per[name]), work / faults,
                 (tot["vflash"] - gc) / faults, tot["modules"] / faults,
                 FAULT_VCPU, on_fault_cpu / faults,
                 total / faults, wait / faults, gc / faults, faults))

    med = {}
    for name, rounds in per.items():
        r = sorted(rounds, key=lambda x: x[0])[(len(rounds) - 1) // 2]
        med[name] = r
        print("BENCH icount-cxl %s median: %.0f of work per fault (vflash.ko "
              "%.0f, other modules %.0f; all %.0f, IPI wait %.0f, GC worker "
              "%.0f) rounds: %s"
              % (name, r[0], r[1], r[2], r[5], r[6], r[7],
                 " ".join("%.0f" % x[0] for x in rounds)))
        if name.endswith("-1t"):
            fc = sorted(x[8] for x in rounds)[(len(rounds) - 1) // 2]
            med[name + "@cpu"] = (fc,)
            print("BENCH icount-cxl %s median on the faulting thread's vCPU "
                  "%d: %.0f of work per fault, rounds: %s"
                  % (name, FAULT_VCPU, fc,
                     " ".join("%.0f" % x[8] for x in rounds)))

    def ratio(label, a_, b_):
        if a_ in med and b_ in med and med[b_][0]:
            print("BENCH icount-cxl ratio %s=%.3f (%.0f / %.0f)"
                  % (label, med[a_][0] / med[b_][0], med[a_][0], med[b_][0]))
    ratio("miss_vs_devdax_1t", "vflash-zero-1t", "devdax-1t")
    ratio("miss_vs_devdax_2t", "vflash-zero-2t", "devdax-2t")
    ratio("miss_2t_vs_1t", "vflash-zero-2t", "vflash-zero-1t")
    ratio("devdax_2t_vs_1t", "devdax-2t", "devdax-1t")
    ratio("noevict_vs_devdax_1t", "vflash-zero-noevict-1t", "devdax-1t")
    # What the timed p50 (bench-cxl) sees: the faulting thread's own vCPU
    # (its faults and the IPIs it takes), not the evictor's on the other.
    ratio("miss_vs_devdax_1t_faulting_vcpu", "vflash-zero-1t@cpu",
          "devdax-1t@cpu")
    ratio("noevict_vs_devdax_1t_faulting_vcpu", "vflash-zero-noevict-1t@cpu",
          "devdax-1t@cpu")
    for a_, b_ in (("vflash-zero-1t", "devdax-1t"),
                   ("vflash-zero-2t", "vflash-zero-1t")):
        if a_ in med and b_ in med and med[b_][5]:
            print("BENCH icount-cxl all-instructions %s / %s=%.3f "
                  "(%.0f / %.0f, IPI wait and GC worker included)"
                  % (a_, b_, med[a_][5] / med[b_][5], med[a_][5],
                     med[b_][5]))

    for name in ("vflash-zero-1t", "vflash-zero-2t", "vflash-zero-noevict-1t",
                 "devdax-1t"):
        if name not in med:
            continue
        funcs, faults = med[name][3], med[name][4]
        print("BENCH icount-cxl top %s (per fault):" % name)
        for fn, n in sorted(funcs.items(), key=lambda x: -x[1])[:a.top]:
            print("BENCH icount-cxl   %8.1f %s" % (n / faults, fn))

    ok = True
    for name in ("devdax-1t", "devdax-2t", "vflash-zero-1t", "vflash-zero-2t"):
        if name not in med or med[name][0] <= 0:
            ok = False
            print("FAIL icount-cxl-%s (no count)" % name)
    if ok:
        print("PASS icount-cxl-counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
