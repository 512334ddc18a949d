#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# The CXL cache study's report (docs/studies.md, study-cxl), from the raw CSV of
# scripts/bench/study/cxl.sh (cxl.csv, one row per cell and seed; kv.csv, the
# YCSB part, if there is one):
#   cxl-agg.csv   per cell (profile, pattern, ws_factor, eviction,
#                 prefetch): runs, then NAME_mean, NAME_sd (sample), NAME_min
#                 and NAME_max of each figure over the seeds (the miss
#                 latencies over the runs that missed); the format
#                 scripts/bench/study/compare.py reads (-k 5)
#   cxl.md        the Markdown tables: the best policy pair per profile,
#                 pattern and working set, then every cell
#   cxl-hit-heatmap-PROFILE.png  hit ratio, eviction x prefetch, one panel
#                 per pattern (rows) and working set (columns)
#   cxl-hit-lines.png  hit ratio against the working set, a line per
#                 eviction policy (prefetch none; error bars: sd)
#   cxl-miss-p50.png, cxl-miss-p99.png  the miss latency percentiles
#                 (stats/miss_latency_*: fault entry to PTE) the same way
#   cxl-throughput.png  accesses per second the same way
#   kv-agg.csv, kv.png  the YCSB part: ops/s and misses per operation per
#                 mix and policy pair
# and prints PASS/FAIL lines (a vmtest-host command's tests): the report
# is complete (every cell has every seed, every PNG is a PNG) and every
# row passes the study's mechanism checks (cxl.sh -C).
#
# DIR is the study's output directory (cxl.sh -o), or a VM suite's
# directory whose files/ holds the CSVs (the "# vmtest-host:" line of
# scripts/bench/vm/study-cxl.sh); the report goes to DIR/report/.
#
# usage: scripts/bench/study/report-cxl.py [-c OLD_AGG.csv] [-t] DIR
#   -c OLD_AGG.csv  also compare this report's cxl-agg.csv with an earlier
#                   run's (compare.py -k 5 on the hit ratio and the
#                   counters): PASS reproduce, or FAIL naming the cells
#                   that moved beyond the spread
#   -t              self-tests of the checks (for the smoke suite): the
#                   mechanism check must fail on a copy of the CSV whose
#                   prefetch_issued, evictions or dirty_writebacks were
#                   zeroed; compare.py must pass the report against
#                   itself, and fail it against a copy with a hit ratio
#                   moved and on a figure that is not a column
#   -h              this text
"""The CXL cache study's report (see the header comment)."""

import getopt
import io
import math
import os
import re
import shutil
import subprocess
import sys

from compare import compare
from studylib import columns, field, fmt, header_help, is_number, is_png, num, read_rows, same

HERE = os.path.dirname(os.path.abspath(__file__))


def usage(status):
    print(header_help(__file__))
    sys.exit(status)


# Figures aggregated per cell: the CSV's column, then its name in
# cxl-agg.csv.
FIGS = [('hit_ratio', 'hit_ratio'), ('ops_per_s', 'ops_per_s'),
        ('miss_latency_p50_ns', 'miss_p50'), ('miss_latency_p99_ns', 'miss_p99'),
        ('miss_latency_p999_ns', 'miss_p999'), ('user_p99_ns', 'user_p99'),
        ('misses', 'misses'), ('refaults', 'refaults'), ('evictions', 'evictions'),
        ('dirty_writebacks', 'dirty_writebacks'), ('prefetch_issued', 'prefetch_issued'),
        ('prefetch_hits', 'prefetch_hits'), ('stores', 'stores')]
KVFIGS = [('ops_per_s', 'ops_per_s'), ('p50_ns', 'p50_ns'), ('p99_ns', 'p99_ns'),
          ('misses_per_op', 'misses_per_op'), ('dev_evictions', 'evictions'),
          ('dev_dirty_writebacks', 'dirty_writebacks'),
          ('dev_prefetch_issued', 'prefetch_issued')]


def aggregate(raw, keys, figs, agg):
    """Per key (in the order keys first appear): runs, then the mean,
    sample sd, min and max of each figure, into agg. False if a figure's
    column is missing (agg then empty)."""
    header, rows = read_rows(raw)
    col = columns(header)
    with open(agg, 'w', encoding='utf-8') as out:
        for src, _ in figs:
            if src not in col:
                print('report-cxl: no column %s' % src, file=sys.stderr)
                return False
        out.write(','.join(keys + ['runs'] +
                           ['%s_%s' % (dst, s) for _, dst in figs
                            for s in ('mean', 'sd', 'min', 'max')]) + '\n')
        order, n, acc = [], {}, {}
        for row in rows:
            k = ','.join(field(row, col.get(c)) for c in keys)
            if k not in n:
                order.append(k)
                n[k] = 0
                acc[k] = [[0, 0.0, 0.0, 0.0, 0.0] for _ in figs]
            n[k] += 1
            for j, (src, dst) in enumerate(figs):
                v = num(field(row, col[src]))
                # a run without misses has no miss latency (0): left out
                if v == 0 and dst.startswith('miss_p'):
                    continue
                a = acc[k][j]
                a[0] += 1
                a[1] += v
                a[2] += v * v
                if a[0] == 1 or v < a[3]:
                    a[3] = v
                if a[0] == 1 or v > a[4]:
                    a[4] = v
        for k in order:
            line = '%s,%d' % (k, n[k])
            for nv, s, ss, lo, hi in acc[k]:
                m = s / nv if nv else 0
                var = (ss - nv * m * m) / (nv - 1) if nv > 1 else 0
                if var < 0:
                    var = 0
                line += ',%.6g,%.6g,%.6g,%.6g' % (m, math.sqrt(var), lo, hi)
            out.write(line + '\n')
    return True


def uniq(values):
    """The distinct values in their first order."""
    return list(dict.fromkeys(values))


def pm(row, c, name, scale, f):
    """"MEAN ± SD" of a figure of an aggregated row, scaled."""
    return (f + ' ± ' + f) % (num(field(row, c.get(name + '_mean'))) / scale,
                             num(field(row, c.get(name + '_sd'))) / scale)


def table_rows(rows, c, nkeys, figs):
    """Markdown table rows: the first nkeys fields, then "MEAN ± SD" of
    each (figure, scale, format)."""
    return ''.join('| ' + ' | '.join([field(r, i) for i in range(nkeys)] +
                                     [pm(r, c, *f) for f in figs]) + ' |\n'
                   for r in rows)


def gnuplot(script, err):
    with open(err, 'w', encoding='utf-8') as e:
        try:
            subprocess.run(['gnuplot', script], stderr=e, check=False)
        except OSError as x:
            e.write('%s\n' % x)


def run(cmd, out):
    """Run cmd with stdout and stderr into the file out; its status."""
    with open(out, 'w', encoding='utf-8') as f:
        return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False).returncode


def compare_to(out, *args, **kw):
    """compare() into the file out; its status."""
    with open(out, 'w', encoding='utf-8') as f:
        return compare(*args, out=f, **kw)


def reproduced(path):
    with open(path, encoding='utf-8') as f:
        return [line for line in f.read().split('\n') if line.endswith('reproduced')]


def report(d, old, selftest):
    src = d if os.path.isfile(os.path.join(d, 'cxl.csv')) else os.path.join(d, 'files')
    raw = os.path.join(src, 'cxl.csv')
    kvraw = os.path.join(src, 'kv.csv')
    if not (os.path.isfile(raw) and os.path.getsize(raw) > 0):
        print('FAIL report-cxl (no cxl.csv in %s or %s/files)' % (d, d))
        return 1
    out = os.path.join(d, 'report')
    data = os.path.join(out, 'data')
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(data)
    agg = os.path.join(out, 'cxl-agg.csv')
    if not aggregate(raw, ['profile', 'pattern', 'ws_factor', 'eviction', 'prefetch'], FIGS, agg):
        print('FAIL report-cxl (cannot aggregate %s)' % raw)
        return 1

    aggh, aggrows = read_rows(agg)
    c = columns(aggh)

    def lst(name):
        return uniq(field(r, c.get(name)) for r in aggrows)

    profiles, patterns, factors = lst('profile'), lst('pattern'), lst('ws_factor')
    evictions, prefetches = lst('eviction'), lst('prefetch')
    rawh, rawrows = read_rows(raw)
    seeds = uniq(field(r, columns(rawh).get('seed')) for r in rawrows)
    with open(raw, 'rb') as f:
        nruns = f.read().count(b'\n') - 1

    # The Markdown tables
    md = io.StringIO()
    md.write('# CXL cache study: results\n\n')
    md.write('From `%s` (%d runs; seeds: %s).\n' % (raw, nruns, ''.join(s + ' ' for s in seeds)))
    md.write('Each figure is the mean over the seeds ± the sample standard\n'
             'deviation. hit ratio = 1 - misses / timed accesses; miss p50/p99:\n'
             'stats/miss_latency_* (fault entry to PTE, in us); ops/s: timed\n'
             'accesses per second (TCG: absolute times are inflated);\n'
             'writebacks, prefetch issued/hits: counters over the timed accesses.\n\n'
             '## Best policy pair per profile, pattern and working set (by mean hit ratio)\n\n'
             '| profile | pattern | ws (x cache) | best eviction + prefetch | hit ratio | worst | hit ratio | fifo + none |\n'
             '|---|---|---|---|---|---|---|---|\n')
    order, best, worst, base = [], {}, {}, {}
    for r in aggrows:
        k = ' | '.join(field(r, i) for i in range(3))
        if k not in best:
            order.append(k)
            best[k] = (-1.0, '', '')
            worst[k] = (2.0, '', '')
        h = num(field(r, c.get('hit_ratio_mean')))
        pair = field(r, 3) + ' + ' + field(r, 4)
        sd = num(field(r, c.get('hit_ratio_sd')))
        if h > best[k][0]:
            best[k] = (h, pair, sd)
        if h < worst[k][0]:
            worst[k] = (h, pair, sd)
        if field(r, 3) == 'fifo' and field(r, 4) == 'none':
            base[k] = '%.3f ± %.3f' % (h, sd)
    for k in order:
        (bh, bp, bsd), (wh, wp, wsd) = best[k], worst[k]
        md.write('| %s | %s | %.3f ± %.3f | %s | %.3f ± %.3f | %s |\n' % (
            k, bp, bh, bsd, wp, wh, wsd, base.get(k, '-')))
    md.write('\n(A tie goes to the first pair in the order the sweep ran them: lifo first, '
             'then the others as given to cxl.sh -e; prefetch as given to -f.)\n\n'
             '## Every cell\n\n'
             '| profile | pattern | ws (x cache) | eviction | prefetch | runs | hit ratio | '
             'miss p50 (us) | miss p99 (us) | ops/s | writebacks | prefetch issued | prefetch hits |\n'
             '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n')
    md.write(table_rows(aggrows, c, 6, [
        ('hit_ratio', 1, '%.3f'), ('miss_p50', 1000, '%.1f'), ('miss_p99', 1000, '%.0f'),
        ('ops_per_s', 1, '%.0f'), ('dirty_writebacks', 1, '%.0f'),
        ('prefetch_issued', 1, '%.0f'), ('prefetch_hits', 1, '%.0f')]))
    mdpath = os.path.join(out, 'cxl.md')
    with open(mdpath, 'w', encoding='utf-8') as f:
        f.write(md.getvalue())

    def write(path, lines):
        with open(path, 'w', encoding='utf-8') as f:
            f.write(''.join(line + '\n' for line in lines))

    # series: "ws mean sd" per figure, profile, pattern and eviction
    # (prefetch none; a latency of 0, a cell without misses, is left out:
    # the plots are log); heatmaps: x prefetch index, y eviction index,
    # hit ratio
    ei = {e: str(i) for i, e in enumerate(evictions)}
    pi = {q: str(i) for i, q in enumerate(prefetches)}
    for p in profiles:
        for pat in patterns:
            for ev in evictions:
                for fig in ('hit_ratio', 'miss_p50', 'miss_p99', 'ops_per_s'):
                    write(os.path.join(data, '%s-%s-%s-%s.dat' % (fig, p, pat, ev)), [
                        ' '.join((field(r, 2), field(r, c.get(fig + '_mean')),
                                  field(r, c.get(fig + '_sd'))))
                        for r in aggrows
                        if same(field(r, 0), p) and same(field(r, 1), pat) and
                        same(field(r, 3), ev) and same(field(r, 4), 'none') and
                        (not fig.startswith('miss_p') or num(field(r, c.get(fig + '_mean'))) > 0)])
            for ws in factors:
                write(os.path.join(data, 'heat-%s-%s-%s.dat' % (p, pat, ws)), [
                    ' '.join((pi.get(field(r, 4), ''), ei.get(field(r, 3), ''),
                              field(r, c.get('hit_ratio_mean'))))
                    for r in aggrows
                    if same(field(r, 0), p) and same(field(r, 1), pat) and same(field(r, 2), ws)])

    npat, nfac, nprof = len(patterns), len(factors), len(profiles)
    nev, npf = len(evictions), len(prefetches)

    def tics(names):
        return ', '.join('"%s" %d' % (n, i) for i, n in enumerate(names))

    fs = sorted(factors, key=num)
    xmin, xmax = fmt(num(fs[0]) / 1.3), fmt(num(fs[-1]) * 1.3)
    for p in profiles:
        gp = ["set terminal pngcairo size %d,%d noenhanced font ',9'" % (330 * nfac + 120, 280 * npat + 60),
              "set output '%s/cxl-hit-heatmap-%s.png'" % (out, p),
              "set multiplot layout %d,%d title 'hit ratio on %s: eviction (y) x prefetch (x); "
              "rows: pattern, columns: working set / cache'" % (npat, nfac, p),
              'set cbrange [0:1]',
              "set palette defined (0 '#d7191c', 0.5 '#ffffbf', 1 '#1a9641')",
              'set xtics (%s)' % tics(prefetches),
              'set ytics (%s)' % tics(evictions),
              'set xrange [-0.5:%d - 0.5]' % npf,
              'set yrange [-0.5:%d - 0.5]' % nev,
              'unset colorbox']
        for pat in patterns:
            for ws in factors:
                gp.append("set title '%s, ws %sx'" % (pat, ws))
                gp.append("plot '%s/data/heat-%s-%s-%s.dat' using 1:2:3 with image notitle, "
                          "'' using 1:2:(sprintf('%%.2f', $3)) with labels notitle" % (out, p, pat, ws))
        gp.append('unset multiplot')
        write(os.path.join(data, 'heat-%s.gp' % p), gp)
        gnuplot(os.path.join(data, 'heat-%s.gp' % p), os.path.join(data, 'heat-%s.err' % p))

    # lines: a figure against the working set, a line per eviction policy
    # (prefetch none), a panel per profile (rows) and pattern
    def lines(fig, png, ylabel, scale):
        gp = ["set terminal pngcairo size %d,%d noenhanced font ',9'" % (360 * npat + 80, 300 * nprof + 60),
              "set output '%s/%s'" % (out, png),
              "set multiplot layout %d,%d title '%s against the working set (x the cache), prefetch none; "
              "error bars: sd over the seeds'" % (nprof, npat, ylabel),
              'set logscale x 2',
              'set xrange [%s:%s]' % (xmin, xmax),
              "set xlabel 'working set / cache'",
              "set ylabel '%s'" % ylabel,
              'set key top right']
        if scale == 'log':
            gp.append('set logscale y')
        if fig == 'hit_ratio':
            gp.append('set yrange [0:1.05]')
        for p in profiles:
            for pat in patterns:
                gp.append("set title '%s, %s'" % (p, pat))
                gp.append('plot ' + ', '.join(
                    "'%s/data/%s-%s-%s-%s.dat' using 1:2:3 with yerrorlines title '%s'" % (out, fig, p, pat, ev, ev)
                    for ev in evictions))
        gp.append('unset multiplot')
        write(os.path.join(data, fig + '.gp'), gp)
        gnuplot(os.path.join(data, fig + '.gp'), os.path.join(data, fig + '.err'))

    lines('hit_ratio', 'cxl-hit-lines.png', 'hit ratio', 'lin')
    lines('miss_p50', 'cxl-miss-p50.png', 'miss latency p50 (ns)', 'log')
    lines('miss_p99', 'cxl-miss-p99.png', 'miss latency p99 (ns)', 'log')
    lines('ops_per_s', 'cxl-throughput.png', 'accesses per second', 'log')

    # The YCSB part
    pngs = ['cxl-hit-heatmap-%s.png' % p for p in profiles] + [
        'cxl-hit-lines.png', 'cxl-miss-p50.png', 'cxl-miss-p99.png', 'cxl-throughput.png']
    if os.path.isfile(kvraw) and os.path.getsize(kvraw) > 0:
        kvagg = os.path.join(out, 'kv-agg.csv')
        if not aggregate(kvraw, ['profile', 'mix', 'eviction', 'prefetch'], KVFIGS, kvagg):
            print('FAIL report-cxl-kv (cannot aggregate %s)' % kvraw)
        kvh, kvrows = read_rows(kvagg)
        kc = columns(kvh)
        with open(mdpath, 'a', encoding='utf-8') as f:
            f.write('\n## YCSB on kvstore (heap larger than the cache)\n\n'
                    '| profile | mix | eviction | prefetch | runs | ops/s | misses per op | '
                    'op p50 (us) | op p99 (us) | writebacks |\n'
                    '|---|---|---|---|---|---|---|---|---|---|\n')
            f.write(table_rows(kvrows, kc, 5, [
                ('ops_per_s', 1, '%.0f'), ('misses_per_op', 1, '%.3f'), ('p50_ns', 1000, '%.1f'),
                ('p99_ns', 1000, '%.0f'), ('dirty_writebacks', 1, '%.0f')]))
        write(os.path.join(data, 'kv.dat'), [
            ' '.join((field(r, 1) + '/' + field(r, 2) + '/' + field(r, 3),
                      field(r, kc.get('ops_per_s_mean')), field(r, kc.get('ops_per_s_sd')),
                      field(r, kc.get('misses_per_op_mean')), field(r, kc.get('misses_per_op_sd'))))
            for r in kvrows])
        write(os.path.join(data, 'kv.gp'), [
            "set terminal pngcairo size 1400,800 noenhanced font ',9'",
            "set output '%s/kv.png'" % out,
            "set multiplot layout 2,1 title 'kvstore (YCSB mixes) on /dev/vflash0: "
            "mix/eviction/prefetch; error bars: sd over the seeds'",
            'set style fill solid 0.6',
            'set boxwidth 0.7',
            'set xtics rotate by 60 right',
            "set ylabel 'operations per second'",
            'set yrange [0:*]',
            "plot '%s/data/kv.dat' using 0:2:3:xtic(1) with boxerrorbars notitle" % out,
            "set ylabel 'misses per operation'",
            "plot '%s/data/kv.dat' using 0:4:5:xtic(1) with boxerrorbars notitle" % out,
            'unset multiplot'])
        gnuplot(os.path.join(data, 'kv.gp'), os.path.join(data, 'kv.err'))
        pngs.append('kv.png')

    # The checks
    nseeds = len([s for s in seeds if s != ''])
    incomplete = '\n'.join('%s %s %sx %s %s: %s runs' % tuple(field(r, i) for i in range(6))
                           for r in aggrows if not same(field(r, 5), str(nseeds)))
    cells = len(aggrows)
    want = nprof * npat * nfac * nev * npf
    if not incomplete and cells == want:
        print('PASS report-cxl-cells (%d cells x %d seeds)' % (cells, nseeds))
    else:
        print('FAIL report-cxl-cells (%d cells of %d; incomplete: %s)' % (cells, want, incomplete or 'none'))
    missing = ''.join(' ' + png for png in pngs if not is_png(os.path.join(out, png)))
    if not missing and os.path.getsize(mdpath) > 0:
        print('PASS report-cxl-files (%s: cxl-agg.csv cxl.md and the PNGs)' % out)
    else:
        print('FAIL report-cxl-files (missing or not PNG:%s; gnuplot\'s errors in %s/data/*.err)' % (missing, out))
    cxlsh = os.path.join(HERE, 'cxl.sh')
    mech = os.path.join(out, 'mechanism.txt')
    if run([cxlsh, '-C', raw], mech) == 0:
        print('PASS report-cxl-mechanisms (every row of cxl.csv)')
    else:
        with open(mech, encoding='utf-8', errors='replace') as f:
            broken = [line for line in f.read().split('\n') if 'MECHANISM-FAIL' in line]
        print('FAIL report-cxl-mechanisms (%d broken: see %s)' % (len(broken), mech))
        for line in broken[:20]:
            print('  ' + line)

    # The figures a rerun must reproduce: the hit ratio and the counters
    # (the latencies and throughput are TCG's as much as vflash's).
    repro = 'hit_ratio,misses,evictions,dirty_writebacks,prefetch_issued,prefetch_hits'
    if old:
        cmpout = os.path.join(out, 'compare.txt')
        if compare_to(cmpout, old, agg, 5, repro) == 0:
            print('PASS report-cxl-reproduce (against %s: %d figures)' % (old, len(reproduced(cmpout))))
        else:
            print('FAIL report-cxl-reproduce (against %s: %s; see %s)' % (
                old, ''.join(line + ';' for line in reproduced(cmpout)), cmpout))
        for line in reproduced(cmpout):
            print('  ' + line)

    if selftest:
        self_tests(raw, out, agg, cxlsh, repro)
    return 0


def self_tests(raw, out, agg, cxlsh, repro):
    """-t: the checks must be able to fail."""
    header, rows = read_rows(raw)
    c = columns(header)

    def f(row, name):
        return field(row, c.get(name))

    def bigger(row, a, b):
        x, y = f(row, a), f(row, b)
        return num(x) > num(y) if is_number(x) and is_number(y) else x > y

    # spoil NAME COLUMN ROW-TEST: zero COLUMN in the first row where
    # ROW-TEST holds; cxl.sh -C must exit 3 naming the counter
    def spoil(name, column, test):
        spoilt = os.path.join(out, 'spoilt-%s.csv' % name)
        with open(raw, encoding='utf-8', errors='surrogateescape') as fr:
            lines = fr.read().split('\n')
        done = False
        for i in range(1, len(lines)):
            if i == len(lines) - 1 and lines[i] == '':
                break
            row = lines[i].split(',')
            if not done and test(row):
                while len(row) <= c[column]:
                    row.append('')
                row[c[column]] = '0'
                lines[i] = ','.join(row)
                done = True
        with open(spoilt, 'w', encoding='utf-8', errors='surrogateescape') as fw:
            fw.write('\n'.join(lines))
        with open(raw, 'rb') as a, open(spoilt, 'rb') as b:
            if a.read() == b.read():
                print('SKIP report-cxl-catches-%s (no row to spoil)' % name)
                return
        sout = os.path.join(out, 'spoilt-%s.out' % name)
        rc = run([cxlsh, '-C', spoilt], sout)
        with open(sout, encoding='utf-8', errors='replace') as fo:
            named = re.search(r'MECHANISM-FAIL .*: %s=0 ' % re.escape(column), fo.read())
        if rc == 3 and named:
            print('PASS report-cxl-catches-%s' % name)
        else:
            print('FAIL report-cxl-catches-%s (cxl.sh -C exited %d on a CSV with %s zeroed; see %s)' % (
                name, rc, column, sout))

    spoil('prefetch', 'prefetch_issued', lambda r: f(r, 'prefetch') != 'none' and
          f(r, 'pattern') in ('seq', 'stride') and bigger(r, 'ws_pages', 'cache_pages'))
    spoil('evictions', 'evictions', lambda r: bigger(r, 'ws_pages', 'cache_pages'))
    spoil('writebacks', 'dirty_writebacks', lambda r: bigger(r, 'ws_pages', 'cache_pages') and
          num(f(r, 'write_pct')) > 0)
    same_txt = os.path.join(out, 'compare-same.txt')
    if compare_to(same_txt, agg, agg, 5, repro) == 0:
        print('PASS report-cxl-compare-same')
    else:
        print('FAIL report-cxl-compare-same (see %s)' % same_txt)
    # the first cell's hit ratio moved by 0.5 (or to 0.5 off it)
    with open(agg, encoding='utf-8') as fa:
        lines = fa.read().split('\n')
    k = lines[0].split(',').index('hit_ratio_mean')
    row = lines[1].split(',')
    h = num(row[k])
    row[k] = fmt(h - 0.5 if h >= 0.5 else h + 0.5)
    lines[1] = ','.join(row)
    moved = os.path.join(out, 'moved.csv')
    with open(moved, 'w', encoding='utf-8') as fm:
        fm.write('\n'.join(lines))
    moved_txt = os.path.join(out, 'compare-moved.txt')
    if compare_to(moved_txt, agg, moved, 5, 'hit_ratio') == 0:
        print('FAIL report-cxl-compare-moved (a hit ratio moved by 0.5 reproduced: see %s)' % moved_txt)
    else:
        print('PASS report-cxl-compare-moved')
    # a figure that is not a column (compare.sh's awk once found such a
    # figure "reproduced" in every cell)
    unknown_txt = os.path.join(out, 'compare-unknown.txt')
    if compare_to(unknown_txt, agg, agg, 5, 'hit_ratio,no_such_figure') == 0:
        print('FAIL report-cxl-compare-unknown (a figure that is no column reproduced: see %s)' % unknown_txt)
    else:
        print('PASS report-cxl-compare-unknown')


def main(argv):
    try:
        opts, args = getopt.getopt(argv, 'c:th')
    except getopt.GetoptError as e:
        print('report-cxl.py: %s' % e.msg, file=sys.stderr)
        usage(2)
    old, selftest = '', False
    for o, a in opts:
        if o == '-c':
            old = a
        elif o == '-t':
            selftest = True
        else:
            usage(0)
    if len(args) != 1:
        usage(2)
    return report(args[0], old, selftest)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
