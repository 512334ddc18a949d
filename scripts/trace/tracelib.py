# SPDX-License-Identifier: GPL-2.0
"""The parser and helpers the Python scripts of scripts/trace/ share.

It reads vflash trace events as text, in any of the usual forms (as
events.awk, which the scripts that also run in the VM guest use):
  /sys/kernel/tracing/trace (or trace_pipe):
    vflash0-nvme-110 [000] ..... 6.068: vflash_request_submit: vflash0 nvme read id=7 ...
  trace-cmd report:
    vflash0-nvme-110 [000]  6.068: vflash_request_submit: vflash0 nvme read id=7 ...
  perf script:
    vflash0-nvme 110 [000] 6.068: vflash:vflash_request_submit: vflash0 nvme read id=7 ...
Numbers print as awk printed them, so that the data files and tables stay
what the awk scripts before these made.
"""

import getopt
import math
import re
import shutil
import subprocess
import sys

_EVENT = re.compile(r'(?:vflash:)?vflash_[a-z_]+:')
_DEV = re.compile(r'vflash[0-9]+')
_PREFIX = re.compile(r'\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?')
_SORTNUM = re.compile(r'\s*(-?(?:\d+\.?\d*|\.\d+))')


class Event:
    """One vflash event: ev (its name without "vflash_"), dev (N of
    vflashN), words (the line's whitespace-separated fields: words[0] is
    the task), p (the words without "=" after vflashN), v (the key=value
    fields, values as text), and fe, op, work by event ('' if none)."""

    def __init__(self, words, i):
        self.words = words
        self.ev = words[i].split(':')[-2][len('vflash_'):]
        self.dev = int(words[i + 1][len('vflash'):])
        self.p, self.v = [], {}
        for f in words[i + 2:]:
            k, eq, val = f.partition('=')
            if eq:
                self.v[k] = val
            else:
                self.p.append(f)
        self.fe = self.op = self.work = ''
        if self.ev in ('request_submit', 'request_complete'):
            self.fe, self.op = pos(self.p, 0), pos(self.p, 1)
        elif self.ev == 'nand':
            self.op, self.work = pos(self.p, 0), pos(self.p, 1)
        elif self.ev == 'clean':
            self.work = pos(self.p, 0)

    def s(self, key):
        """Field key as text ('' if the event has none)."""
        return self.v.get(key, '')

    def n(self, key):
        """Field key as a number (its numeric prefix, 0 if none)."""
        return num(self.v.get(key, ''))


def pos(p, i):
    return p[i] if i < len(p) else ''


def num(s):
    """The number a field stands for, as awk's s + 0."""
    m = _PREFIX.match(s)
    return float(m.group(0)) if m else 0.0


def has_number(s):
    """Whether s starts with a number (as strtod reads one)."""
    return _PREFIX.match(s) is not None


def fmt(x):
    """A computed number as awk prints it: integers whole, else %.6g."""
    if math.isfinite(x) and x == int(x) and abs(x) < 1e16:
        return '%d' % x
    return '%.6g' % x


def events(path, ev=None):
    """The vflash events of the trace file at path (those named ev)."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            words = line.split()
            for i, w in enumerate(words):
                if _EVENT.fullmatch(w):
                    break
            else:
                continue
            if i >= len(words) - 1 or not _DEV.fullmatch(words[i + 1]):
                continue
            if ev is None or words[i].split(':')[-2] == 'vflash_' + ev:
                yield Event(words, i)


def sort_fe_num(lines):
    """Lines "FE NUMBER ..." as `sort -k1,1 -k2,2n` orders them (C
    locale): by FE, then NUMBER, then the whole line."""
    def key(line):
        w = line.split(' ')
        m = _SORTNUM.match(w[1] if len(w) > 1 else '')
        return (w[0].encode('utf-8', 'surrogateescape'), float(m.group(1)) if m else 0.0,
                line.encode('utf-8', 'surrogateescape'))
    return sorted(lines, key=key)


def header_help(path):
    """A script's help: its header comment from the 4th line to the first
    line that is not a comment, "# " stripped, no trailing blank line
    (scripts/help-check.sh checks it)."""
    text = []
    with open(path, encoding='utf-8') as f:
        for line in f.read().split('\n')[3:]:
            if not line.startswith('#'):
                break
            text.append(re.sub(r'^# ?', '', line))
    while text and text[-1] == '':
        text.pop()
    return '\n'.join(text)


def usage(path, status):
    """Print the script's help (to stderr on bad usage) and exit."""
    print(header_help(path), file=sys.stdout if status == 0 else sys.stderr)
    sys.exit(status)


def options(path, argv, spec, nargs):
    """The script's options (getopt's spec; -h prints its help) as a dict
    and its arguments, of which there must be nargs (else bad usage)."""
    try:
        opts, args = getopt.getopt(argv, spec + 'h')
    except getopt.GetoptError as e:
        print('%s: %s' % (path.rsplit('/', 1)[-1], e.msg), file=sys.stderr)
        usage(path, 2)
    if ('-h', '') in opts:
        usage(path, 0)
    if len(args) != nargs:
        usage(path, 2)
    return dict(opts), args


def need_gnuplot(name):
    """Exit 1 with a message if there is no gnuplot."""
    if shutil.which('gnuplot') is None:
        print('%s: no gnuplot (scripts/setup.sh installs gnuplot-nox)' % name, file=sys.stderr)
        sys.exit(1)


def gnuplot(script):
    """Run gnuplot on the script text (its errors to stderr); its exit
    status, 127 without gnuplot."""
    sys.stdout.flush()
    try:
        return subprocess.run(['gnuplot'], input=script, text=True, check=False).returncode
    except OSError:
        return 127
