#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Does a rerun reproduce a study's table? OLD and NEW are a study's
# aggregated CSVs (report-*: a key column, then NAME_mean and NAME_sd
# for each figure). A figure of a variant is reproduced when NEW's mean
# lies within OLD's mean +- 2 sd (the spread OLD reports), or within
# -r PCT percent of OLD's mean if that is wider (a counter that varied by
# a few pages over three runs has an sd far below what a rerun moves it;
# a figure whose sd is 0 must match within 1 % unless -r says more).
# Prints, per figure, how many variants reproduced it and the ones that
# did not. A figure that is not a column of both files fails.
#
# usage: scripts/bench/study/compare.py [-k KEYCOLS] [-f FIGURES] [-r PCT] OLD.csv NEW.csv
#   -k KEYCOLS  how many leading columns name a variant (default 1)
#   -f FIGURES  comma-separated figure names (default: every NAME_mean)
#   -r PCT      the least tolerance, percent of OLD's mean (default 0)
# Exit status: 0 if every figure of every variant reproduced, 1 if not,
# 2 on bad usage.
"""Compare two aggregated study tables (see the header comment)."""

import getopt
import os
import re
import sys

from studylib import columns, num, read_rows

USAGE = """usage: scripts/bench/study/compare.py [-k KEYCOLS] [-f FIGURES] [-r PCT] OLD.csv NEW.csv
  -k KEYCOLS  how many leading columns name a variant (default 1)
  -f FIGURES  comma-separated figure names (default: every NAME_mean)
  -r PCT      the least tolerance, percent of OLD's mean (default 0)
Exit status: 0 if every figure of every variant reproduced, 1 if not,
2 on bad usage."""


def compare(old, new, keys=1, figures='', pct=0.0, out=sys.stdout):
    """Write the comparison of OLD and NEW to out; 0 if all reproduced."""
    keys = max(keys, 1)
    oldh, oldrows = read_rows(old)
    newh, newrows = read_rows(new)
    oi, ni = columns(oldh), columns(newh)
    if figures:
        figs = figures.split(',')
    else:
        figs = [c[:-5] for c in oldh if c.endswith('_mean')]

    def key(row):
        return ','.join(row[:keys] + [''] * (keys - len(row)))

    def value(row, idx, name):
        i = idx.get(name)
        return num(row[i]) if i is not None and i < len(row) else 0.0

    order, m, sd = [], {}, {}
    for row in oldrows:
        k = key(row)
        order.append(k)
        for f in figs:
            m[k, f] = value(row, oi, f + '_mean')
            sd[k, f] = value(row, oi, f + '_sd')
    seen, nm = set(), {}
    for row in newrows:
        k = key(row)
        seen.add(k)
        for f in figs:
            nm[k, f] = value(row, ni, f + '_mean')
    bad = 0
    for f in figs:
        if f + '_mean' not in oi or f + '_mean' not in ni:
            out.write('%s: not in both files\n' % f)
            bad = 1
            continue
        ok = n = 0
        text = ''
        for k in order:
            if k not in seen:
                continue
            n += 1
            d = abs(nm[k, f] - m[k, f])
            rel = abs(m[k, f] * pct / 100)
            tol = 2 * sd[k, f]
            if tol == 0 and pct == 0:
                tol = abs(m[k, f] * 0.01)
            if rel > tol:
                tol = rel
            if d <= tol:
                ok += 1
            else:
                text += '  %s: %g -> %g (+- %g)\n' % (k, m[k, f], nm[k, f], tol)
        out.write('%s: %d of %d reproduced\n%s' % (f, ok, n, text))
        if ok < n:
            bad = 1
    for k in order:
        if k not in seen:
            out.write('%s: not in the new run\n' % k)
            bad = 1
    return bad


def bad_usage(msg):
    print('compare.py: ' + msg, file=sys.stderr)
    print(USAGE, file=sys.stderr)
    sys.exit(2)


def main(argv):
    try:
        opts, args = getopt.getopt(argv, 'k:f:r:h')
    except getopt.GetoptError as e:
        bad_usage('bad option -%s' % e.opt)
    keys, figures, pct = '1', '', '0'
    for o, a in opts:
        if o == '-k':
            keys = a
        elif o == '-f':
            figures = a
        elif o == '-r':
            pct = a
        else:
            print(USAGE)
            return 0
    if len(args) != 2 or not all(os.path.isfile(a) for a in args):
        bad_usage('need two CSV files')
    if not re.fullmatch(r'[0-9]+', keys) or keys == '0':
        print("compare.py: -k: not a column count: '%s'" % keys, file=sys.stderr)
        return 2
    if not re.fullmatch(r'[0-9.]+', pct):
        print("compare.py: -r: not a percentage: '%s'" % pct, file=sys.stderr)
        return 2
    return compare(args[0], args[1], int(keys), figures, num(pct))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
