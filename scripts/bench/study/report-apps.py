#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The applications study's report (docs/studies.md, study-apps), from
# apps.csv of scripts/bench/study/apps.sh (a row per application and cache size):
#   apps.md        the Markdown table: per application and cache size
#                  (fraction of the footprint, pages), the throughput and
#                  latency on the device as ratios to DRAM, misses per
#                  operation, writebacks, the process's region and
#                  resident pages
#   apps-APP.png   per application: throughput ratio and misses per
#                  operation against the cache size
# and prints PASS/FAIL lines (a vmtest-host command's tests): the study's
# mechanism checks passed (checks.txt), every application has a row per
# cache size, each PNG is a PNG.
#
# DIR is the study's output directory (apps.sh -o), or a VM suite's
# directory whose files/ holds apps.csv and checks.txt (the "# vmtest-host:"
# lines of scripts/bench/vm/study-apps.sh and scripts/vm/suites/appstudy.sh);
# the report goes to DIR/report/.
#
# usage: scripts/bench/study/report-apps.py DIR
"""The applications study's report (see the header comment)."""

import os
import sys

from studylib import (field, gnuplot, has_gnuplot, is_png, num, read_rows,
                      report_mechanisms, report_start, same)

COLS = (0, 1, 2, 3, 4, 7, 10, 14, 15, 11, 12)


def main(argv):
    _, src, csv, out = report_start('report-apps', 'apps.csv', argv, __file__)
    report_mechanisms('report-apps', src, count=True)
    _, rows = read_rows(csv)
    apps = list(dict.fromkeys(field(r, 0) for r in rows))
    if not apps:
        print('FAIL report-apps: apps.csv has no rows')
        return 1
    n = {}
    for r in rows:
        n[field(r, 0)] = n.get(field(r, 0), 0) + 1
    counts = sorted({str(c) for c in n.values()})
    if len(counts) == 1 and int(counts[0]) >= 1:
        print('PASS report-apps: %d applications, %s cache sizes each' % (len(apps), counts[0]))
    else:
        print('FAIL report-apps: applications with different numbers of rows (%s)' %
              ''.join(c + ' ' for c in counts))

    dram = ', '.join('%s %.0f ops/s' % (a, num(field(next(r for r in rows if field(r, 0) == a), 5)))
                     for a in apps)
    md = ('| app | cache (x footprint) | cache pages | footprint pages | ops | throughput vs DRAM |'
          ' latency vs DRAM | misses/op | writebacks | region pages | resident |\n'
          '|---|---|---|---|---|---|---|---|---|---|---|\n' +
          ''.join('| ' + ' | '.join(field(r, i) for i in COLS) + ' |\n' for r in rows) +
          '\nThroughput and latency are ratios to the same application in DRAM in the same boot'
          ' (DRAM: %s).\n' % dram)
    with open(os.path.join(out, 'apps.md'), 'w', encoding='utf-8') as f:
        f.write(md)
    sys.stdout.write(md)

    if not has_gnuplot():
        return 0
    for a in ' '.join(apps).split():
        dat = os.path.join(out, 'apps-%s.dat' % a)
        png = os.path.join(out, 'apps-%s.png' % a)
        with open(dat, 'w', encoding='utf-8') as f:
            f.write(''.join('%s %s %s\n' % (field(r, 1), field(r, 7), field(r, 14))
                            for r in rows if same(field(r, 0), a)))
        gnuplot('''set terminal png size 640,400
set output "%(png)s"
set title "study-apps: %(a)s on the CXL device vs DRAM"
set xlabel "device cache (x the footprint)"
set ylabel "throughput / DRAM"
set y2label "misses per operation"
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set key top left
plot "%(dat)s" using 1:2 with linespoints title "throughput vs DRAM", \\
	'' using 1:3 axes x1y2 with linespoints title "misses / op"
''' % {'png': png, 'a': a, 'dat': dat})
        if is_png(png):
            print('PASS report-apps: apps-%s.png' % a)
        else:
            print('FAIL report-apps: apps-%s.png is not a PNG' % a)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
