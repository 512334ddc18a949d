#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The maintenance study's report (docs/studies.md): from the raw CSVs of
# scripts/bench/study/maintenance.sh, per variant the mean, standard deviation,
# minimum and maximum of every figure over the repetitions
# (maintenance.csv), the table shaped like the seed's plus the mechanism
# counters (maintenance.md), and the plots (gnuplot): read tail latency
# per variant with its spread (maintenance-tail.png), the model's own read
# tail, which the VM cannot distort (maintenance-model.png), and the read
# latency CDF of every variant (maintenance-cdf.png).
#
# DIR is the study's output directory, or a VM suite's directory whose
# files/ holds the CSVs (the "# vmtest-host:" line of scripts/bench/vm/
# study-maintenance.sh and of the suite "study"). The report goes to
# DIR/report/. Prints PASS/FAIL lines: the report was made; every run
# started from the same preconditioned state.
#
# usage: scripts/bench/study/report-maintenance.py DIR
"""The maintenance study's report (see the header comment)."""

import math
import os
import subprocess
import sys

from studylib import columns, field, fmt, gnuplot, header_help, num, read_rows

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = ['read_iops', 'read_p99_ms', 'read_p999_ms', 'read_p9999_ms', 'model_read_p99_ms',
         'model_read_p999_ms', 'gc_runs', 'gc_copied_pages', 'migrated_pages',
         'repromoted_pages', 'read_preempts', 'waf']
TAIL = ['read_p99_ms', 'read_p999_ms', 'read_p9999_ms', 'model_read_p99_ms', 'model_read_p999_ms']


def write(path, text):
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)


def aggregate(raw, seed):
    """maintenance.csv: variant, analogue, runs, then MEAN,SD,MIN,MAX of
    each figure column (the 7th on) of the raw CSV, in the order the
    variants first appear."""
    header, rows = read_rows(raw)
    figs = header[6:]
    order, n, acc = [], {}, {}
    for r in rows:
        v = field(r, 0)
        if v not in n:
            order.append(v)
            n[v] = 0
            acc[v] = [[0.0, 0.0, 0.0, 0.0] for _ in figs]
        n[v] += 1
        for i, a in enumerate(acc[v]):
            x = num(field(r, 6 + i))
            a[0] += x
            a[1] += x * x
            if n[v] == 1 or x < a[2]:
                a[2] = x
            if n[v] == 1 or x > a[3]:
                a[3] = x
    text = 'variant,seed_analogue,runs' + ''.join(
        ',%s_mean,%s_sd,%s_min,%s_max' % (c, c, c, c) for c in figs) + '\n'
    for v in order:
        text += '%s,%s,%d' % (v, seed.get(v, '-'), n[v])
        for s, ss, lo, hi in acc[v]:
            m = s / n[v]
            var = (ss - n[v] * m * m) / (n[v] - 1) if n[v] > 1 else 0
            text += ',%.6g,%.6g,%.6g,%.6g' % (m, math.sqrt(var) if var > 0 else 0, lo, hi)
        text += '\n'
    return text


def cdf(path):
    """cdf.dat: per variant (a block each, in name order, blocks two blank
    lines apart, the variant's name first) and percentile, the mean
    latency over the seeds and the fraction; and how many variants."""
    _, rows = read_rows(path)
    order, n, s = [], {}, {}
    for r in rows:
        k = (field(r, 0), field(r, 2))
        if k not in n:
            order.append(k)
            n[k] = 0
            s[k] = 0.0
        n[k] += 1
        s[k] += num(field(r, 3))
    points = sorted(((k[0], fmt(s[k] / n[k]), fmt(num(k[1]) / 100)) for k in order),
                    key=lambda p: p[0].encode('utf-8', 'surrogateescape'))
    text, last, nv = '', None, 0
    for v, lat, frac in points:
        if v != last:
            if text:
                text += '\n\n'
            text += v + '\n'
            last = v
            nv += 1
        text += '%s %s\n' % (lat, frac)
    return text, nv


def report(d):
    src = d if os.path.isfile(os.path.join(d, 'maintenance-raw.csv')) else os.path.join(d, 'files')
    raw = os.path.join(src, 'maintenance-raw.csv')
    cdfcsv = os.path.join(src, 'maintenance-cdf.csv')
    if not (os.path.isfile(raw) and os.path.isfile(cdfcsv)):
        print('FAIL report-maintenance (no maintenance-raw.csv and maintenance-cdf.csv in %s or %s/files)'
              % (d, d))
        return 1
    out = os.path.join(d, 'report')
    os.makedirs(out, exist_ok=True)

    # The seed analogue of each variant, from the study's own table.
    listing = subprocess.run([os.path.join(HERE, 'maintenance.sh'), '-l'], stdout=subprocess.PIPE,
                             text=True, check=False).stdout
    lines = listing.split('\n')
    if lines[-1] == '':
        lines.pop()
    analogues = ''.join('%s,%s\n' % (f[0], field(f, 5)) for f in (line.split('\t') for line in lines))
    write(os.path.join(out, 'analogues.csv'), analogues)
    seed = {}
    for line in analogues.split('\n')[:-1]:
        f = line.split(',')
        seed[f[0]] = field(f, 1)
    agg = os.path.join(out, 'maintenance.csv')
    write(agg, aggregate(raw, seed))

    aggh, aggrows = read_rows(agg)
    c = columns(aggh)

    def at(r, name, off=0):
        i = c.get(name + '_mean')
        return field(r, i + off) if i is not None else ''

    def cell(r, name, d):
        return ('%.*f ± %.*f') % (d, num(at(r, name)), d, num(at(r, name, 1)))

    md = ('| variant | seed | read IOPS | read p99 (ms) | p99.9 (ms) | p99.99 (ms) |'
          ' model p99 / p99.9 (ms) | GC runs | GC pages moved | migrated | repromoted |'
          ' read deferrals | WAF |\n'
          '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')
    for r in aggrows:
        md += '| %s | %s | %s | %s | %s | %s | %.2f / %.2f | %s | %s | %s | %s | %s | %s |\n' % (
            field(r, 0), field(r, 1), cell(r, 'read_iops', 0), cell(r, 'read_p99_ms', 2),
            cell(r, 'read_p999_ms', 2), cell(r, 'read_p9999_ms', 2),
            num(at(r, 'model_read_p99_ms')), num(at(r, 'model_read_p999_ms')),
            cell(r, 'gc_runs', 0), cell(r, 'gc_copied_pages', 0), cell(r, 'migrated_pages', 0),
            cell(r, 'repromoted_pages', 0), cell(r, 'read_preempts', 0), cell(r, 'waf', 2))

    # Whether every run started from the same preconditioned state.
    _, rawrows = read_rows(raw)
    states = sorted({' '.join(r[-5:]) for r in rawrows},
                    key=lambda s: s.encode('utf-8', 'surrogateescape'))
    nstates = sum(1 for s in states if s)
    md += '\n'
    if nstates == 1:
        md += ('Every run started from the same preconditioned state (programs, erases, cleanings,'
               ' free SLC and QLC blocks: %s).\n' % states[0])
    else:
        md += ('The preconditioned state differed between runs (%d states):\n    %s\n'
               % (nstates, '\n'.join(states)))
    with open(raw, encoding='utf-8', errors='surrogateescape') as f:
        nonempty = sum(1 for line in f if line.strip('\n'))
    md += ('%d runs; mean ± standard deviation over each variant\'s repetitions;'
           ' all figures in maintenance.csv.\n' % (nonempty - 1))
    write(os.path.join(out, 'maintenance.md'), md)

    # Plot data: variant, then mean and sd of the figures plotted.
    write(os.path.join(out, 'tail.dat'), ''.join(
        field(r, 0) + ''.join(' %s %s' % (at(r, n), at(r, n, 1)) for n in TAIL) + '\n'
        for r in aggrows))
    cdftext, nv = cdf(cdfcsv)
    write(os.path.join(out, 'cdf.dat'), cdftext)
    write(os.path.join(out, 'cdf.count'), '%d\n' % nv)

    if gnuplot(PLOTS.replace('$OUT', out).replace('$LAST', str(nv - 1))) != 0:
        print('FAIL report-maintenance (gnuplot failed)')
        return 1
    ok = True
    for f in ('maintenance.csv', 'maintenance.md', 'maintenance-tail.png', 'maintenance-model.png',
              'maintenance-cdf.png'):
        p = os.path.join(out, f)
        if not (os.path.isfile(p) and os.path.getsize(p) > 0):
            print('FAIL report-maintenance (%s is empty)' % f)
            ok = False
    if ok:
        print('PASS report-maintenance (%s)' % out)
    if nstates == 1:
        print('PASS precondition-identical')
    else:
        print('FAIL precondition-identical (%d different preconditioned states; see %s/maintenance.md)'
              % (nstates, out))
    return 0


PLOTS = '''set terminal pngcairo size 1400,700 noenhanced
set datafile separator " "
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set logscale y
set grid ytics
set xtics rotate by -40 font ",9"
set key top left
set ylabel "fio read latency (ms), mean and sd over the seeds"
set title "study-maintenance: read tail latency per variant (fio, in the VM)"
set output "$OUT/maintenance-tail.png"
plot "$OUT/tail.dat" using 2:3:xtic(1) title "p99", \\
	"" using 4:5 title "p99.9", \\
	"" using 6:7 title "p99.99"
set ylabel "the model's read latency (ms), mean and sd"
set title "study-maintenance: the model's own read tail (stats/read_latency_*), which the VM does not distort"
set output "$OUT/maintenance-model.png"
plot "$OUT/tail.dat" using 8:9:xtic(1) title "model p99", \\
	"" using 10:11 title "model p99.9"
unset style
set style data lines
set xtics norotate font ",10"
set logscale x
unset logscale y
# The fraction of reads on a "nines" scale: -log10(1 - p).
set yrange [0:4.2]
set ytics ("p0" 0, "p90" 1, "p99" 2, "p99.9" 3, "p99.99" 4)
set key outside right font ",9"
set xlabel "fio read latency (ms)"
set ylabel "fraction of reads at or below"
set title "study-maintenance: read latency CDF per variant (mean over the seeds at fio's percentiles)"
set output "$OUT/maintenance-cdf.png"
plot for [i = 0:$LAST] "$OUT/cdf.dat" \\
	index i using 1:(-log10(1 - $2)) with linespoints pt 7 ps 0.5 title columnheader(1)
'''


def main(argv):
    sys.stdout.reconfigure(line_buffering=True)
    arg = argv[0] if argv else ''
    if arg in ('-h', '--help'):
        print(header_help(__file__))
        return 0
    if not arg:
        print(header_help(__file__), file=sys.stderr)
        return 2
    return report(arg)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
