# SPDX-License-Identifier: GPL-2.0
"""What the studies' host-side reports share (report-cxl.py, compare.py).

The reports read the studies' CSVs as the awk programs before them did:
a line is split at every comma (no quoting), a field that is not a
number counts as its numeric prefix (0 if none), numbers print the way
awk prints them. The outputs stay byte for byte what those programs
made, so that reports of old and new runs compare.
"""

import math
import re

_PREFIX = re.compile(r'\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')
_NUMBER = re.compile(r'\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*')


def num(s):
    """The number a field stands for: its numeric prefix, else 0."""
    m = _PREFIX.match(s)
    return float(m.group(0)) if m else 0.0


def is_number(s):
    """Whether the whole field is a number (awk compares it as one)."""
    return _NUMBER.fullmatch(s) is not None


def same(a, b):
    """awk's == between two fields: numbers as numbers, else strings."""
    if is_number(a) and is_number(b):
        return num(a) == num(b)
    return a == b


def fmt(x):
    """A computed number as awk prints it: integers whole, else %.6g."""
    if math.isfinite(x) and x == int(x) and abs(x) < 1e16:
        return '%d' % x
    return '%.6g' % x


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


def header_help(path):
    """A script's help: its header comment from the 4th line (after the
    #!, SPDX and "#" lines) to the first line that is not a comment,
    "# " stripped, no trailing blank line (scripts/help-check.sh checks
    it)."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    text = []
    for line in lines[3:]:
        if not line.startswith('#'):
            break
        text.append(re.sub(r'^# ?', '', line))
    while text and text[-1] == '':
        text.pop()
    return '\n'.join(text)


def is_png(path):
    """A non-empty file with the PNG signature."""
    try:
        with open(path, 'rb') as f:
            return f.read(8) == b'\x89PNG\r\n\x1a\n'
    except OSError:
        return False
