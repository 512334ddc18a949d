#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Where the lateness of a trace's completions comes from, per frontend.
# Completions are taken per posting thread (the trace's task column: an
# NVMe completion worker or dispatcher, or the thread whose CXL miss it
# was), in the order they were posted. For each, against the thread's
# previous completion:
#   asleep   the thread had posted everything before this one fell due, yet
#            posted it late: it was not running at the due time (a timer's
#            late wake-up, or the host not running its vCPU); all of late_ns
#   queued   it fell due while the thread was still catching up on earlier
#            ones: the part of late_ns until the previous post. Mostly the
#            same stall as the "asleep" entry that opened the burst, seen
#            by the entries that fell due during it
#   posting  the rest: this entry's own posting time
# A post ("posting") of more than 50 us is a stall inside a batch: the thread
# stopped running between two entries (an entry takes about a microsecond).
# One line per frontend, in name order.
#
# usage: scripts/trace/why-late.py TRACE
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report) with vflash_request_complete events
"""Where the lateness of a trace's completions comes from (see the header comment)."""

import os
import sys

from tracelib import events, options

FIELDS = ('done', 'total', 'asleep', 'asleepmax', 'queued', 'posting', 'stalls', 'postmax')


def us(ns):
    return '%.1f' % (ns / 1000)


def pct(a, b):
    return '%.1f %%' % (100 * a / b) if b else '-'


def why_late(trace):
    """Per frontend: completions, lateness in all, and its parts."""
    fes, prev = {}, {}
    for e in events(trace, 'request_complete'):
        task = e.words[0]
        due, act = e.n('due_ns'), e.n('actual_ns')
        late = act - due if act > due else 0
        t = fes.setdefault(e.fe, dict.fromkeys(FIELDS, 0))
        t['done'] += 1
        t['total'] += late
        if task not in prev or prev[task] <= due:
            t['asleep'] += late
            t['asleepmax'] = max(t['asleepmax'], late)
        else:
            b = min(prev[task] - due, late)
            t['queued'] += b
            t['posting'] += late - b
            if late - b > 50000:
                t['stalls'] += 1
            t['postmax'] = max(t['postmax'], late - b)
        if task not in prev or act > prev[task]:
            prev[task] = act
    return fes


def main(argv):
    _, (trace,) = options(__file__, argv, '', 1)
    if not os.access(trace, os.R_OK):
        print('why-late: cannot read %s' % trace, file=sys.stderr)
        return 1
    fes = why_late(trace)
    if not fes:
        print('why-late: no vflash_request_complete events', file=sys.stderr)
        return 1
    print('%-5s %6s %12s %22s %22s %20s %7s %14s %15s' % (
        'fe', 'done', 'late_us', 'asleep_us', 'queued_us', 'posting_us', 'stalls',
        'asleep_max_us', 'posting_max_us'))
    for fe in sorted(fes):
        t = fes[fe]
        print('%-5s %6d %12s %22s %22s %20s %7d %14s %15s' % (
            fe, t['done'], us(t['total']),
            '%s (%s)' % (us(t['asleep']), pct(t['asleep'], t['total'])),
            '%s (%s)' % (us(t['queued']), pct(t['queued'], t['total'])),
            '%s (%s)' % (us(t['posting']), pct(t['posting'], t['total'])),
            t['stalls'], us(t['asleepmax']), us(t['postmax'])))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
