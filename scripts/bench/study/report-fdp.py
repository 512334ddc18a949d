#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The FDP study's report (docs/studies.md, study-fdp), from fdp.csv of
# scripts/bench/study/fdp.sh (one row per mode and seed):
#   fdp.md    the Markdown table: per mode, the median over the seeds of
#             the device's write amplification, GC copies and erases, each
#             handle's write amplification (FDP) and the read percentiles;
#             then the FDP/no-FDP ratios
#   fdp-waf.png  write amplification per mode: the device's and, with FDP,
#             each tenant's handle
# and prints PASS/FAIL lines (a vmtest-host command's tests): the study's
# mechanism checks passed (checks.txt), both modes have every seed, the
# PNG is a PNG.
#
# DIR is the study's output directory (fdp.sh -o), or a VM suite's
# directory whose files/ holds fdp.csv and checks.txt (the "# vmtest-host:"
# line of scripts/bench/vm/study-fdp.sh); the report goes to DIR/report/.
#
# usage: scripts/bench/study/report-fdp.py DIR
"""The FDP study's report (see the header comment)."""

import os
import sys

from studylib import (field, gnuplot, has_gnuplot, is_number, is_png, median, num, read_rows,
                      report_mechanisms, report_start, same)


def main(argv):
    _, src, csv, out = report_start('report-fdp', 'fdp.csv', argv, __file__)
    report_mechanisms('report-fdp', src)
    header, rows = read_rows(csv)
    rows = [header] + rows
    with open(csv, encoding='utf-8', errors='surrogateescape') as f:
        lines = f.read().split('\n')
    nofdp = sum(1 for line in lines if line.startswith('nofdp,'))
    fdp = sum(1 for line in lines if line.startswith('fdp,'))
    if nofdp > 0 and nofdp == fdp:
        print('PASS report-fdp: %d seeds in each mode' % fdp)
    else:
        print('FAIL report-fdp: %d runs without FDP, %d with' % (nofdp, fdp))

    def med(mode, col):
        """The median of column col (1-based) over mode's rows."""
        vals = [field(r, col - 1) for r in rows
                if same(field(r, 0), mode) and field(r, col - 1) != '-']
        return median([(v.split() or [''])[0] for v in vals])

    def ratio(col, guard):
        """fdp's median over nofdp's; guard: '-' if nofdp's is 0 (or
        none); without guard, or where nofdp's is '-', a division by zero
        leaves the ratio empty."""
        a, b = med('fdp', col), med('nofdp', col)
        if guard and not (num(b) if is_number(b) else b):
            return '-'
        if num(b):
            return '%.3f' % (num(a) / num(b))
        print('report-fdp: division by zero in the column %d ratio' % col, file=sys.stderr)
        return ''

    md = ('| mode | WAF | GC copied pages | erases | hot WAF | warm WAF | cold WAF |'
          ' read p50 us | read p99 us | read p99.9 us |\n'
          '|---|---|---|---|---|---|---|---|---|---|\n')
    for m in ('nofdp', 'fdp'):
        md += '| %s | %s |\n' % (m, ' | '.join(med(m, c) for c in (5, 7, 8, 9, 10, 11, 12, 13, 14)))
    md += '\nFDP / no FDP (medians): WAF %s, GC copied pages %s, read p99 %s\n' % (
        ratio(5, False), ratio(7, True), ratio(13, False))
    with open(os.path.join(out, 'fdp.md'), 'w', encoding='utf-8') as f:
        f.write(md)
    sys.stdout.write(md)

    if not has_gnuplot():
        return 0
    dat = os.path.join(out, 'fdp-waf.dat')
    png = os.path.join(out, 'fdp-waf.png')
    with open(dat, 'w', encoding='utf-8') as f:
        f.write('device %s %s\nhot - %s\nwarm - %s\ncold - %s\n' % (
            med('nofdp', 5), med('fdp', 5), med('fdp', 9), med('fdp', 10), med('fdp', 11)))
    gnuplot('''set terminal png size 640,400
set output "%s"
set style data histograms
set style histogram clustered
set style fill solid 0.7
set datafile missing "-"
set ylabel "write amplification"
set yrange [0:*]
set title "study-fdp: three tenants, one namespace"
plot "%s" using 2:xtic(1) title "no FDP", '' using 3 title "FDP (per handle)"
''' % (png, dat))
    if is_png(png):
        print('PASS report-fdp: fdp-waf.png')
    else:
        print('FAIL report-fdp: fdp-waf.png is not a PNG')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
