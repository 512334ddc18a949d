#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Report `make bench-precondition` (scripts/bench/vm/bench-precondition.sh).

usage: precondition-report.py RESULTS... [-o OUTDIR]

Each RESULTS holds the guest's "BENCH W ARM ROUND key=value ..." lines
(several files: several boots, their rounds pooled). Prints, per workload,
the median over all rounds of every metric for each arm and each instant
arm's ratio to the real one, marking a ratio outside 0.95-1.05. The
judged metrics are the state's (WAF, GC copies per host page) and the
model's own latency percentiles (m_r_*, m_w_*: from the trace); fio's
percentiles (r_*, w_*: the model's time plus the VM's) are shown and
counted apart. With -o OUTDIR, writes OUTDIR/precondition.dat and, if
gnuplot is there, OUTDIR/precondition.png (the judged ratios, one panel
per workload).
"""
import os
import statistics
import sys

from reportlib import gnuplot, outdir_arg

JUDGED = ["waf", "copy_rate", "m_r_p50", "m_r_p90", "m_r_p99", "m_w_p50",
          "m_w_p90", "m_w_p99"]
HOST = ["r_p50", "r_p90", "r_p99", "w_p50", "w_p90", "w_p99"]
ARMS = ["real", "instant", "die"]
WORKLOADS = ["seq", "random", "hotcold"]


def parse(paths):
    runs = {}
    config = []
    for path in paths:
        parse_one(path, runs, config)
    return "; ".join(config), runs


def parse_one(path, runs, config):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) < 2 or w[0] != "BENCH":
                continue
            if w[1] == "config":
                config.append(" ".join(w[2:]))
                continue
            if len(w) < 5:
                continue
            kv = dict(x.split("=", 1) for x in w[4:] if "=" in x)
            runs.setdefault((w[1], w[2]), []).append(
                {k: float(v) for k, v in kv.items()})


def med(rows, key):
    vals = [r[key] for r in rows if key in r]
    return statistics.median(vals) if vals else float("nan")


def spread(rows, key):
    vals = [r[key] for r in rows if key in r]
    if len(vals) < 2 or statistics.median(vals) == 0:
        return 0.0
    return (max(vals) - min(vals)) / statistics.median(vals)


def main():
    args = sys.argv[1:]
    outdir = outdir_arg(args, __doc__)
    if outdir is False:
        return 2
    if not args:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    config, runs = parse(args)
    if not runs:
        print("precondition-report: no BENCH lines in " + " ".join(args),
              file=sys.stderr)
        return 1
    print("config: " + config)
    outside = {"judged": 0, "host": 0}
    dat = []
    for w in WORKLOADS:
        real = runs.get((w, "real"), [])
        if not real:
            continue
        print(f"\n{w} ({len(real)} rounds; medians; ratio to real, "
              "* outside 0.95-1.05; spread = (max - min) / median of the "
              "real arm's rounds)")
        print("| metric | real | spread | " +
              " | ".join(f"{a} | {a}/real" for a in ARMS[1:]) + " |")
        print("|---|---|---|" + "---|---|" * (len(ARMS) - 1))
        for m in JUDGED + HOST:
            kind = "judged" if m in JUDGED else "host"
            base = med(real, m)
            cells = [f"{base:.4g}", f"{spread(real, m) * 100:.1f} %"]
            ratios = []
            for a in ARMS[1:]:
                rows = runs.get((w, a), [])
                v = med(rows, m)
                if base:
                    r = v / base
                else:
                    # 0 against 0 (no GC copy after a sequential fill)
                    r = 1.0 if v == 0 else float("inf")
                mark = "" if 0.95 <= r <= 1.05 else " *"
                if mark and rows:
                    outside[kind] += 1
                cells += [f"{v:.4g}", f"{r:.3f}{mark}"]
                ratios.append(r)
            print(f"| {m} | " + " | ".join(cells) + " |")
            if kind == "judged":
                dat.append((w, m, ratios))
    print("\nratios outside 0.95-1.05: " + str(outside["judged"]) +
          " of the judged (state, model latency), " + str(outside["host"]) +
          " of fio's (the model's time plus the VM's)")
    if outdir:
        plot(outdir, dat)
    return 0


def plot(outdir, dat):
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "precondition.dat")
    with open(path, "w", encoding="utf-8") as f:
        for w in WORKLOADS:
            f.write(f"# {w}\n")
            for (ww, m, ratios) in dat:
                if ww == w:
                    f.write(m + " " + " ".join(f"{r:.4f}" for r in ratios)
                            + "\n")
            f.write("\n\n")
    png = os.path.join(outdir, "precondition.png")
    script = f"""
set terminal pngcairo size 1200,420 font ",10"
set output "{png}"
set multiplot layout 1,3 title "instant / real preconditioning: the measured run's state figures and model latencies (medians)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0.8:1.2]
set xtics rotate by -45
set grid ytics
set key top left
set arrow 1 from graph 0, first 0.95 to graph 1, first 0.95 nohead dt 2
set arrow 2 from graph 0, first 1.05 to graph 1, first 1.05 nohead dt 2
"""
    for i, w in enumerate(WORKLOADS):
        script += f"""
set title "{w}"
plot "{path}" index {i} using 2:xtic(1) title "instant (replay=full)", \\
     "" index {i} using 3 title "die (replay=die)"
"""
    script += "unset multiplot\n"
    gnuplot(script, png, "precondition-report")


if __name__ == "__main__":
    sys.exit(main())
