# SPDX-License-Identifier: GPL-2.0
"""What the studies' host-side reports share (report-*.py, compare.py).

The reports read the studies' CSVs as the awk programs before them did:
a line is split at every comma (no quoting), a field that is not a
number counts as its numeric prefix (0 if none), numbers print the way
awk prints them. The outputs stay byte for byte what those programs
made, so that reports of old and new runs compare.
"""

import os
import re
import shutil
import sys

# The trace tools' library (scripts/trace/tracelib.py) reads numbers and
# help texts the same way.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'trace'))
from tracelib import fmt, gnuplot, has_number, header_help, num  # noqa: E402,F401 pylint: disable=wrong-import-position

_NUMBER = re.compile(r'\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*')


def is_number(s):
    """Whether the whole field is a number (awk compares it as one)."""
    return _NUMBER.fullmatch(s) is not None


def same(a, b):
    """awk's == between two fields: numbers as numbers, else strings."""
    if is_number(a) and is_number(b):
        return num(a) == num(b)
    return a == b


def read_rows(path):
    """The lines of a CSV file as lists of fields: (header, rows)."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    rows = [line.split(',') for line in lines]
    return (rows[0] if rows else []), rows[1:]


def columns(header):
    """Column name -> index (the last one of a name, as awk's loop)."""
    return {name: i for i, name in enumerate(header)}


def field(row, i):
    """Field i of a row ('' past its end, as awk's $i)."""
    return row[i] if i is not None and i < len(row) else ''


def is_png(path):
    """A non-empty file with the PNG signature."""
    try:
        with open(path, 'rb') as f:
            return f.read(8) == b'\x89PNG\r\n\x1a\n'
    except OSError:
        return False


def awk_sorted(values):
    """values in the order `sort -g` gives them (numbers by value, what
    is no number first, ties by their text)."""
    def key(s):
        return (1, num(s), s) if has_number(s) else (0, 0.0, s)
    return sorted(values, key=key)


def median(values):
    """The median of the fields values ('-' if none): the middle one as
    written, or the mean of the two middle ones."""
    v = awk_sorted(values)
    if not v:
        return '-'
    if len(v) % 2:
        return v[len(v) // 2]
    return fmt((num(v[len(v) // 2 - 1]) + num(v[len(v) // 2])) / 2)


def has_gnuplot():
    return shutil.which('gnuplot') is not None


def report_start(name, csvname, argv, script):
    """A study report's prologue: -h/--help prints its help (exit 0),
    no DIR is bad usage (exit 2). Returns (DIR, SRC, CSV, OUT): SRC is DIR,
    or DIR/files where DIR has no csvname (a VM suite's directory), CSV
    SRC/csvname, OUT DIR/report (made). FAIL name and exit 1 if there is
    no CSV."""
    sys.stdout.reconfigure(line_buffering=True)
    arg = argv[0] if argv else ''
    if arg in ('-h', '--help'):
        print(header_help(script))
        sys.exit(0)
    if not arg:
        print(header_help(script), file=sys.stderr)
        sys.exit(2)
    src = arg
    if not os.path.isfile(os.path.join(src, csvname)):
        src = os.path.join(arg, 'files')
    csv = os.path.join(src, csvname)
    out = os.path.join(arg, 'report')
    if not os.path.isfile(csv):
        print('FAIL %s: no %s' % (name, csv))
        sys.exit(1)
    os.makedirs(out, exist_ok=True)
    return arg, src, csv, out


def report_mechanisms(name, src, count=False):
    """PASS name if src/checks.txt, the study's mechanism checks, has
    PASS lines and no FAIL line (count: saying how many passed), else
    FAIL with the failures' count."""
    try:
        with open(os.path.join(src, 'checks.txt'), encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
    except OSError:
        print('FAIL %s: the mechanism checks ( failed)' % name)
        return
    npass = sum(1 for line in lines if line.startswith('PASS'))
    nfail = sum(1 for line in lines if line.startswith('FAIL'))
    if npass and not nfail:
        print('PASS %s: the mechanism checks%s' % (name, ' (%d passed)' % npass if count else ''))
    else:
        print('FAIL %s: the mechanism checks (%d failed)' % (name, nfail))
