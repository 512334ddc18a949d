#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Where read latency went, per percentile band: the reads of
# vflash_request_submit sorted by model_ns, cut into the bands p0-50,
# p50-90, p90-99, p99-99.9 and p99.9-100, and each band's mean of every
# part of the breakdown stacked (die wait behind host work, die wait
# behind GC/migration/erases (bg_wait_ns), array read, channel wait,
# channel transfer, host-link wait, host-link transfer, firmware). Left
# in us, right as shares of the band's mean. One PNG per frontend.
#
# usage: scripts/trace/breakdown.py [-o OP] TRACE OUTDIR
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report)
#   OUTDIR  gets breakdown-FE-OP.dat and trace-breakdown-FE-OP.png
#   -o OP   read (default), write, trim or flush
"""Where read latency went, per percentile band (see the header comment)."""

import os
import sys

from tracelib import events, fmt, gnuplot, need_gnuplot, num, options, sort_fe_num

BANDS = ['0', '50', '90', '99', '99.9', '100']
PARTS = ['die_wait_ns', 'bg_wait_ns', 'array_ns', 'chan_wait_ns', 'chan_ns', 'host_wait_ns',
         'host_ns', 'fw_ns']


def requests(trace, op):
    """Per request of op: "FE model fg_wait bg_wait array chan_wait chan
    host_wait host fw", sorted by frontend, then model_ns."""
    lines = []
    for e in events(trace, 'request_submit'):
        if e.op != op:
            continue
        parts = [e.s(p) for p in PARTS]
        parts[0] = fmt(e.n('die_wait_ns') - e.n('bg_wait_ns'))
        lines.append(' '.join([e.fe, e.s('model_ns')] + parts))
    return sort_fe_num(lines)


def bands(rows):
    """One line per band: "label n mean-of-each-part-in-us... total"
    (rows: the fields of one frontend's requests)."""
    n = len(rows)
    text = ''
    for k in range(5):
        lo = int(n * num(BANDS[k]) / 100)
        hi = n if k == 4 else int(n * num(BANDS[k + 1]) / 100)
        m = hi - lo
        text += 'p%s-%s %d' % (BANDS[k], BANDS[k + 1], m)
        for i in list(range(2, 10)) + [1]:
            s = 0.0
            for r in rows[lo:hi]:
                s += num(r[i]) if i < len(r) else 0.0
            text += ' %.3f' % (s / m / 1000 if m else 0)
        text += '\n'
    return text


def main(argv):
    opts, (trace, out) = options(__file__, argv, 'o:', 2)
    op = opts.get('-o', 'read')
    os.makedirs(out, exist_ok=True)
    lines = requests(trace, op)
    if not lines:
        print('breakdown: no %s submits in %s' % (op, trace), file=sys.stderr)
        return 1
    need_gnuplot('breakdown')
    for fe in dict.fromkeys(line.split(' ')[0] for line in lines):
        rows = [line.split(' ') for line in lines if line.split(' ')[0] == fe]
        dat = os.path.join(out, 'breakdown-%s-%s.dat' % (fe, op))
        text = bands(rows)
        with open(dat, 'w', encoding='utf-8') as f:
            f.write(text)
        total = sum(int(line.split()[1]) for line in text.split('\n') if line)
        png = os.path.join(out, 'trace-breakdown-%s-%s.png' % (fe, op))
        rc = gnuplot('''set terminal pngcairo size 1200,600 font ',10'
set output '%(png)s'
set multiplot layout 1,2 title "vflash %(fe)s: where %(op)s latency went, by percentile band of model_ns (%(n)d %(op)ss)" noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border rgb 'grey40'
set boxwidth 0.7
set key top left invert
set grid ytics
set xtics scale 0
set lmargin 10
set bmargin 4
colors = '#4477aa #ee6677 #228833 #ccbb44 #66ccee #aa3377 #bbbbbb #222255'
titles = "'die wait (host work)' 'die wait (GC, migration, erase)' 'array read' 'channel wait' 'channel transfer' 'host-link wait' 'host-link transfer' 'firmware'"
set ylabel 'mean latency in the band (us)'
set yrange [0:*]
plot for [i=3:10] '%(dat)s' using i:xtic(sprintf("%%s\\nn=%%d", strcol(1), $2)) lc rgb word(colors, i-2) title word(titles, i-2)
set ylabel 'share of the band''s mean (%%)'
set yrange [0:100]
set key off
plot for [i=3:10] '%(dat)s' using ($11 > 0 ? 100*column(i)/$11 : 0):xtic(strcol(1)) lc rgb word(colors, i-2) notitle
unset multiplot
''' % {'png': png, 'fe': fe, 'op': op, 'n': total, 'dat': dat})
        if rc:
            return rc
        print('breakdown: %s' % png)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
