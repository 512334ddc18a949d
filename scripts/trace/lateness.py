#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The CDF of how late frontends completed requests against the model
# (vflash_request_complete late_ns = actual_ns - due_ns), one curve per
# frontend, lateness on a log axis. An early completion (late_ns < 0, a
# bug) is plotted at 1 ns and counted in the key.
#
# usage: scripts/trace/lateness.py TRACE OUTDIR
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report)
#   OUTDIR  gets lateness-FE.dat and trace-lateness-cdf.png
"""Completion lateness CDF per frontend (see the header comment)."""

import os
import sys

from tracelib import events, gnuplot, need_gnuplot, num, options, sort_fe_num


def cdf(fe, v):
    """lateness-FE.dat's text: "late_us fraction", at most about 2000
    points, after a first line "# KEY" (the key's text); v: the
    frontend's late_ns, sorted."""
    n = len(v)
    early = sum(1 for x in v if x < 0)

    def pct(p):
        r = int((n * p + 99.999) / 100)
        return v[(r if r >= 1 else 1) - 1] / 1000

    text = '# %s: %d requests, p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us%s\n' % (
        fe, n, pct(50), pct(99), pct(99.9), v[-1] / 1000, ', %d EARLY' % early if early else '')
    step = int(n / 2000) if n > 2000 else 1
    for i in range(1, n + 1):
        if i % step == 0 or i == 1 or i == n:
            x = v[i - 1]
            text += '%.3f %.6f\n' % ((x if x > 0 else 1) / 1000, i / n)
    return text


def main(argv):
    _, (trace, out) = options(__file__, argv, '', 2)
    os.makedirs(out, exist_ok=True)
    lines = sort_fe_num('%s %s' % (e.fe, e.s('late_ns')) for e in events(trace, 'request_complete'))
    if not lines:
        print('lateness: no vflash_request_complete events in %s' % trace, file=sys.stderr)
        return 1
    need_gnuplot('lateness')
    plots = []
    for fe in dict.fromkeys(line.split(' ')[0] for line in lines):
        v = [num(line.split(' ', 1)[1]) for line in lines if line.split(' ')[0] == fe]
        dat = os.path.join(out, 'lateness-%s.dat' % fe)
        text = cdf(fe, v)
        with open(dat, 'w', encoding='utf-8') as f:
            f.write(text)
        title = text.split('\n', 1)[0][2:]
        plots.append("'%s' using 1:2 with steps lw 2 title '%s'" % (dat, title))
    png = os.path.join(out, 'trace-lateness-cdf.png')
    rc = gnuplot('''set terminal pngcairo size 1000,600 font ',10'
set output '%s'
set title 'vflash: completion lateness against the model (late\\_ns = actual\\_ns - due\\_ns)'
set xlabel 'lateness (us, log scale)'
set ylabel 'cumulative fraction of requests'
set logscale x
set grid
set key below left Left reverse noenhanced
set bmargin 7
set yrange [0:1]
plot %s
''' % (png, ', '.join(plots)))
    if rc:
        return rc
    print('lateness: %s' % png)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
