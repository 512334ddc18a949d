#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Report `make bench-presets` (scripts/bench/vm/bench-presets.sh).

usage: presets-report.py RESULTS [-o OUTDIR]

RESULTS holds the guest's "BENCH PRESET k=K WORKLOAD predicted=P
measured=M ratio=R" lines and each preset's "BENCH PRESET k=K model ..."
lines. Prints one table: per preset, k, and for random read, random write
and sequential write the model's prediction (scaled by k), what the VM
reached, and their ratio (* outside 0.97-1.03); then the model's
unscaled figures per preset. With -o OUTDIR, writes OUTDIR/presets.dat and,
if gnuplot is there, OUTDIR/presets.png (reached / predicted per preset
and workload).
"""
import os
import sys

from reportlib import gnuplot, outdir_arg

WORKLOADS = ["randread", "randwrite", "seqwrite"]
MODEL_KEYS = ["read_lat_ns", "write_lat_ns", "randread_qd1_iops",
              "randread_sat_iops", "randwrite_qd1_iops",
              "randwrite_sat_iops", "seqread_mbps", "seqwrite_mbps",
              "steady_write_iops", "steady_waf_milli"]


def parse(path):
    runs, models, order = {}, {}, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) < 4 or w[0] != "BENCH" or w[1] == "config":
                continue
            preset, k = w[1], w[2].split("=", 1)[1]
            if preset not in order:
                order.append(preset)
            if w[3] == "model":
                it = iter(w[4:])
                models[(preset, k)] = dict(zip(it, it))
                continue
            kv = dict(x.split("=", 1) for x in w[4:] if "=" in x)
            runs[(preset, w[3])] = (k, float(kv.get("predicted", 0)),
                                    float(kv.get("measured", 0)))
    return order, runs, models


def main():
    args = sys.argv[1:]
    outdir = outdir_arg(args, __doc__)
    if outdir is False:
        return 2
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    order, runs, models = parse(args[0])
    if not runs:
        print("presets-report: no BENCH runs in " + args[0], file=sys.stderr)
        return 1
    print("Reached / predicted (IOPS; the model's predictions with every "
          "latency x k; * outside 0.97-1.03)")
    print("| preset | k | " + " | ".join(
        f"{w} predicted | reached | ratio" for w in WORKLOADS) + " |")
    print("|---|---|" + "---|---|---|" * len(WORKLOADS))
    outside = 0
    dat = []
    for p in order:
        cells, ratios, k = [], [], "?"
        for w in WORKLOADS:
            if (p, w) not in runs:
                cells += ["-", "-", "-"]
                ratios.append(0.0)
                continue
            k, pred, meas = runs[(p, w)]
            r = meas / pred if pred else 0.0
            mark = "" if 0.97 <= r <= 1.03 else " *"
            outside += bool(mark)
            cells += [f"{pred:.0f}", f"{meas:.0f}", f"{r:.3f}{mark}"]
            ratios.append(r)
        print(f"| {p} | {k} | " + " | ".join(cells) + " |")
        dat.append((p, ratios))
    print(f"\nratios outside 0.97-1.03: {outside}")
    print("\nThe model's figures at the profiles' own latencies (k = 1):")
    print("| preset | " + " | ".join(MODEL_KEYS) + " |")
    print("|---|" + "---|" * len(MODEL_KEYS))
    for p in order:
        m = models.get((p, "1"), {})
        print(f"| {p} | " + " | ".join(m.get(x, "-") for x in MODEL_KEYS)
              + " |")
    if outdir:
        plot(outdir, dat)
    return 0


def plot(outdir, dat):
    os.makedirs(outdir, exist_ok=True)
    path = os.path.join(outdir, "presets.dat")
    with open(path, "w", encoding="utf-8") as f:
        for p, ratios in dat:
            f.write(p + " " + " ".join(f"{r:.4f}" for r in ratios) + "\n")
    png = os.path.join(outdir, "presets.png")
    script = f"""
set terminal pngcairo size 1000,420 font ",10"
set output "{png}"
set title "reached / predicted, every latency x k (make bench-presets)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set yrange [0.8:1.1]
set xtics rotate by -30
set grid ytics
set key top right
set arrow 1 from graph 0, first 0.97 to graph 1, first 0.97 nohead dt 2
set arrow 2 from graph 0, first 1.03 to graph 1, first 1.03 nohead dt 2
plot "{path}" using 2:xtic(1) title "random read", \\
     "" using 3 title "random write", "" using 4 title "sequential write"
"""
    gnuplot(script, png, "presets-report")


if __name__ == "__main__":
    sys.exit(main())
