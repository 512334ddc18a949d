#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Per-die occupancy over time from vflash_nand events: for each die (one
# row each) and each time bucket, the fraction of the bucket the die spent
# on host work, GC and migration (stacked areas; white is idle).
#
# usage: scripts/trace/timeline.py [-n BUCKETS] [-f FROM_MS] [-t TO_MS] TRACE OUTDIR
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report)
#   OUTDIR  gets die-timeline.dat and trace-die-timeline.png
#   -n N    time buckets (default 200)
#   -f, -t  only this window, in ms from the first operation
# Times are the dies' model times (start_ns, end_ns), not when the events
# were traced: work the model scheduled ahead shows where it runs.
"""Per-die occupancy over time (see the header comment)."""

import os
import sys

from tracelib import events, gnuplot, need_gnuplot, num, options


def timeline(trace, nb, frm, to):
    """die-timeline.dat's text: a summary line "# dies N ops N ms W from
    F", then one block per die 0..max (gnuplot's "index"), a line per
    bucket: "ms host gc migrate", fractions of the bucket. None if the
    trace has no NAND operation in the window."""
    ops = [(int(e.n('die')), e.n('start_ns'), e.n('end_ns'), e.work) for e in events(trace, 'nand')]
    if not ops:
        return None
    t0 = min(o[1] for o in ops)
    maxdie = max(0, max(o[0] for o in ops))
    lo = t0 + (num(frm) * 1e6 if frm != '' else 0)
    hi = max([t0] + [o[2] for o in ops])
    if to != '' and t0 + num(to) * 1e6 < hi:
        hi = t0 + num(to) * 1e6
    if hi <= lo:
        return None
    bw = (hi - lo) / nb
    busy = {}
    for die, s, e, work in ops:
        a = lo if s < lo else s
        z = hi if e > hi else e
        b = int((a - lo) / bw)
        while a < z and b < nb:
            bend = lo + (b + 1) * bw
            k = (die, b, work)
            busy[k] = busy.get(k, 0.0) + ((z if z < bend else bend) - a)
            a = bend
            b += 1
    text = '# dies %d ops %d ms %.3f from %.3f\n' % (maxdie + 1, len(ops), bw / 1e6, (lo - t0) / 1e6)
    for die in range(maxdie + 1):
        b = 0
        while b < nb:
            h = busy.get((die, b, 'host'), 0.0) / bw
            g = busy.get((die, b, 'gc'), 0.0) / bw
            m = busy.get((die, b, 'migrate'), 0.0) / bw
            # A host read that passed background work overlaps it in the
            # trace (read-priority): scale the bucket to 100%.
            if h + g + m > 1:
                f = h + g + m
                h /= f
                g /= f
                m /= f
            text += '%.4f %.4f %.4f %.4f\n' % ((lo - t0 + (b + 0.5) * bw) / 1e6, h, g, m)
            b += 1
        text += '\n\n'
    return text


def main(argv):
    opts, (trace, out) = options(__file__, argv, 'n:f:t:', 2)
    nb, frm, to = opts.get('-n', '200'), opts.get('-f', ''), opts.get('-t', '')
    os.makedirs(out, exist_ok=True)
    dat = os.path.join(out, 'die-timeline.dat')
    text = timeline(trace, num(nb), frm, to) if num(nb) > 0 else None
    with open(dat, 'w', encoding='utf-8') as f:
        f.write(text or '')
    if not text:
        print('timeline: no vflash_nand events in %s' % trace, file=sys.stderr)
        return 1
    need_gnuplot('timeline')
    head = text.split('\n', 1)[0].split()
    dies, ops, ms = head[2], head[4], head[6]
    height = min(160 + 26 * int(dies), 2400)
    png = os.path.join(out, 'trace-die-timeline.png')
    rc = gnuplot('''set terminal pngcairo size 1100,%(height)d font ',10'
set output '%(png)s'
set title sprintf("vflash: die occupancy, %%d NAND operations (each row a die; %%.3g ms buckets)", %(ops)s, %(ms)s) noenhanced
set xlabel 'time (ms from the first operation)'
set ylabel 'die'
set yrange [-0.2:%(dies)s]
set ytics 0,1,%(dies)s-1 offset 0,0.9 scale 0
set format y '%%g'
set grid xtics
set key above horizontal
set style fill solid 1.0 noborder
set tics out
plot for [i=0:%(dies)s-1] '%(dat)s' index i using 1:(i):(i+0.9*$2) with filledcurves lc rgb '#4477aa' title (i == 0 ? 'host' : ''), \\
     for [i=0:%(dies)s-1] '%(dat)s' index i using 1:(i+0.9*$2):(i+0.9*($2+$3)) with filledcurves lc rgb '#ee6677' title (i == 0 ? 'GC' : ''), \\
     for [i=0:%(dies)s-1] '%(dat)s' index i using 1:(i+0.9*($2+$3)):(i+0.9*($2+$3+$4)) with filledcurves lc rgb '#ccbb44' title (i == 0 ? 'migration' : '')
''' % {'height': height, 'png': png, 'ops': ops, 'ms': ms, 'dies': dies, 'dat': dat})
    if rc:
        return rc
    print('timeline: %s' % png)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
