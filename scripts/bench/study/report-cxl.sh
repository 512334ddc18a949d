#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CXL cache study's report (docs/studies.md, study-cxl), from the raw CSV of
# scripts/bench/study/cxl.sh (cxl.csv, one row per cell and seed; kv.csv, the
# YCSB part, if there is one):
#   cxl-agg.csv   per cell (profile, pattern, ws_factor, eviction,
#                 prefetch): runs, then NAME_mean, NAME_sd (sample), NAME_min
#                 and NAME_max of each figure over the seeds (the miss
#                 latencies over the runs that missed); the format
#                 scripts/bench/study/compare.sh reads (-k 5)
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
# usage: scripts/bench/study/report-cxl.sh [-c OLD_AGG.csv] [-t] DIR
#   -c OLD_AGG.csv  also compare this report's cxl-agg.csv with an earlier
#                   run's (scripts/bench/study/compare.sh -k 5 on the hit ratio
#                   and the counters): PASS reproduce, or FAIL naming the
#                   cells that moved beyond the spread
#   -t              self-tests of the checks (for the smoke suite): the
#                   mechanism check must fail on a copy of the CSV whose
#                   prefetch_issued, evictions or dirty_writebacks were
#                   zeroed; compare.sh must pass the report against
#                   itself and fail it against a copy with a hit ratio moved
#   -h              this text
set -uo pipefail

usage() {
	sed -n '4,/^set -uo/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'
	exit "$1"
}

OLD=
SELFTEST=0
while getopts c:th opt; do
	case $opt in
	c) OLD=$OPTARG ;;
	t) SELFTEST=1 ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2
DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$DIR
[ -f "$SRC/cxl.csv" ] || SRC=$DIR/files
RAW=$SRC/cxl.csv
KVRAW=$SRC/kv.csv
if [ ! -s "$RAW" ]; then
	echo "FAIL report-cxl (no cxl.csv in $DIR or $DIR/files)"
	exit 1
fi
OUT=$DIR/report
rm -rf "$OUT"
mkdir -p "$OUT/data"
AGG=$OUT/cxl-agg.csv

# Figures aggregated per cell: the CSV's column, then its name in
# cxl-agg.csv.
FIGS="hit_ratio:hit_ratio ops_per_s:ops_per_s miss_latency_p50_ns:miss_p50"
FIGS="$FIGS miss_latency_p99_ns:miss_p99 miss_latency_p999_ns:miss_p999"
FIGS="$FIGS user_p99_ns:user_p99 misses:misses refaults:refaults"
FIGS="$FIGS evictions:evictions dirty_writebacks:dirty_writebacks"
FIGS="$FIGS prefetch_issued:prefetch_issued prefetch_hits:prefetch_hits stores:stores"

# aggregate RAW KEYCOLS FIGS > AGG: per key (the first appearance's
# order), runs and MEAN,SD,MIN,MAX of each figure
aggregate() {
	awk -F, -v OFS=, -v keys="$2" -v figs="$3" '
	NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		nk = split(keys, kc, ",")
		nf = split(figs, fs, " ")
		h = keys ",runs"
		for (j = 1; j <= nf; j++) {
			split(fs[j], p, ":")
			src[j] = p[1]; dst[j] = p[2]
			if (!(p[1] in col)) { printf "report-cxl: no column %s\n", p[1] > "/dev/stderr"; exit 1 }
			h = h "," dst[j] "_mean," dst[j] "_sd," dst[j] "_min," dst[j] "_max"
		}
		print h
		next
	}
	{
		k = $col[kc[1]]
		for (i = 2; i <= nk; i++) k = k "," $col[kc[i]]
		if (!(k in n)) order[++nkeys] = k
		n[k]++
		for (j = 1; j <= nf; j++) {
			v = $col[src[j]] + 0
			# a run without misses has no miss latency (0): left out
			if (v == 0 && dst[j] ~ /^miss_p/) continue
			nv = ++cnt[k, j]
			s[k, j] += v; ss[k, j] += v * v
			if (nv == 1 || v < lo[k, j]) lo[k, j] = v
			if (nv == 1 || v > hi[k, j]) hi[k, j] = v
		}
	}
	END {
		for (i = 1; i <= nkeys; i++) {
			k = order[i]
			line = k "," n[k]
			for (j = 1; j <= nf; j++) {
				nv = cnt[k, j] + 0
				m = nv ? s[k, j] / nv : 0
				var = nv > 1 ? (ss[k, j] - nv * m * m) / (nv - 1) : 0
				if (var < 0) var = 0
				line = line "," sprintf("%.6g,%.6g,%.6g,%.6g", m, sqrt(var), lo[k, j], hi[k, j])
			}
			print line
		}
	}' "$1"
}

aggregate "$RAW" profile,pattern,ws_factor,eviction,prefetch "$FIGS" >"$AGG" || {
	echo "FAIL report-cxl (cannot aggregate $RAW)"
	exit 1
}

# The lists, in the CSV's order, space-separated
list() {
	awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		!seen[$k]++ { printf "%s%s", (n++ ? " " : ""), $k }' "$AGG"
}
PROFILES=$(list profile)
PATTERNS=$(list pattern)
FACTORS=$(list ws_factor)
EVICTIONS=$(list eviction)
PREFETCHES=$(list prefetch)
SEEDS=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "seed") k = i; next }
	!seen[$k]++ { printf "%s ", $k }' "$RAW")

# The Markdown tables
{
	echo "# CXL cache study: results"
	echo
	echo "From \`$RAW\` ($(($(wc -l <"$RAW") - 1)) runs; seeds: $SEEDS)."
	echo "Each figure is the mean over the seeds ± the sample standard"
	echo "deviation. hit ratio = 1 - misses / timed accesses; miss p50/p99:"
	echo "stats/miss_latency_* (fault entry to PTE, in us); ops/s: timed"
	echo "accesses per second (TCG: absolute times are inflated);"
	echo "writebacks, prefetch issued/hits: counters over the timed accesses."
	echo
	echo "## Best policy pair per profile, pattern and working set (by mean hit ratio)"
	echo
	echo "| profile | pattern | ws (x cache) | best eviction + prefetch | hit ratio | worst | hit ratio | fifo + none |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		k = $1 " | " $2 " | " $3
		if (!(k in best)) { order[++n] = k; best[k] = -1; worst[k] = 2 }
		h = $c["hit_ratio_mean"]
		if (h > best[k]) { best[k] = h; bp[k] = $4 " + " $5; bsd[k] = $c["hit_ratio_sd"] }
		if (h < worst[k]) { worst[k] = h; wp[k] = $4 " + " $5; wsd[k] = $c["hit_ratio_sd"] }
		if ($4 == "fifo" && $5 == "none") base[k] = sprintf("%.3f ± %.3f", h, $c["hit_ratio_sd"])
	}
	END {
		for (i = 1; i <= n; i++) {
			k = order[i]
			printf "| %s | %s | %.3f ± %.3f | %s | %.3f ± %.3f | %s |\n", k, bp[k], best[k], bsd[k], wp[k], worst[k], wsd[k], (k in base ? base[k] : "-")
		}
	}' "$AGG"
	echo
	echo "(A tie goes to the first pair in the order the sweep ran them: lifo first, then the others as given to cxl.sh -e; prefetch as given to -f.)"
	echo
	echo "## Every cell"
	echo
	echo "| profile | pattern | ws (x cache) | eviction | prefetch | runs | hit ratio | miss p50 (us) | miss p99 (us) | ops/s | writebacks | prefetch issued | prefetch hits |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	function f(name, scale, fmt) {
		return sprintf(fmt " ± " fmt, $c[name "_mean"] / scale, $c[name "_sd"] / scale)
	}
	{
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			$1, $2, $3, $4, $5, $6, f("hit_ratio", 1, "%.3f"),
			f("miss_p50", 1000, "%.1f"), f("miss_p99", 1000, "%.0f"),
			f("ops_per_s", 1, "%.0f"), f("dirty_writebacks", 1, "%.0f"),
			f("prefetch_issued", 1, "%.0f"), f("prefetch_hits", 1, "%.0f")
	}' "$AGG"
} >"$OUT/cxl.md"

# series FIG PROFILE PATTERN EVICTION PREFETCH > file: "ws mean sd"
# (a latency of 0, a cell without misses, is left out: the plots are log)
series() {
	awk -F, -v fig="$1" -v p="$2" -v pat="$3" -v ev="$4" -v pf="$5" '
	NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == p && $2 == pat && $4 == ev && $5 == pf &&
	    (fig !~ /^miss_p/ || $c[fig "_mean"] > 0) {
		print $3, $c[fig "_mean"], $c[fig "_sd"]
	}' "$AGG"
}

for p in $PROFILES; do
	for pat in $PATTERNS; do
		for ev in $EVICTIONS; do
			for fig in hit_ratio miss_p50 miss_p99 ops_per_s; do
				series "$fig" "$p" "$pat" "$ev" none >"$OUT/data/$fig-$p-$pat-$ev.dat"
			done
		done
		# heatmap data: x prefetch index, y eviction index, hit ratio
		for f in $FACTORS; do
			awk -F, -v p="$p" -v pat="$pat" -v ws="$f" \
				-v evs="$EVICTIONS" -v pfs="$PREFETCHES" '
			BEGIN {
				ne = split(evs, e, " "); np = split(pfs, q, " ")
				for (i = 1; i <= ne; i++) ei[e[i]] = i - 1
				for (i = 1; i <= np; i++) pi[q[i]] = i - 1
			}
			NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$1 == p && $2 == pat && $3 == ws {
				print pi[$5], ei[$4], $c["hit_ratio_mean"]
			}' "$AGG" >"$OUT/data/heat-$p-$pat-$f.dat"
		done
	done
done

npat=$(echo "$PATTERNS" | wc -w)
nfac=$(echo "$FACTORS" | wc -w)
nprof=$(echo "$PROFILES" | wc -w)
# gnuplot tic lists: "name" index, ...
tics() {
	echo "$1" | awk '{ for (i = 1; i <= NF; i++) printf "%s\"%s\" %d", (i > 1 ? ", " : ""), $i, i - 1 }'
}
XMIN=$(echo "$FACTORS" | tr ' ' '\n' | sort -g | head -n 1 | awk '{ print $1 / 1.3 }')
XMAX=$(echo "$FACTORS" | tr ' ' '\n' | sort -g | tail -n 1 | awk '{ print $1 * 1.3 }')
EVTICS=$(tics "$EVICTIONS")
PFTICS=$(tics "$PREFETCHES")
nev=$(echo "$EVICTIONS" | wc -w)
npf=$(echo "$PREFETCHES" | wc -w)

for p in $PROFILES; do
	{
		echo "set terminal pngcairo size $((330 * nfac + 120)),$((280 * npat + 60)) noenhanced font ',9'"
		echo "set output '$OUT/cxl-hit-heatmap-$p.png'"
		echo "set multiplot layout $npat,$nfac title 'hit ratio on $p: eviction (y) x prefetch (x); rows: pattern, columns: working set / cache'"
		echo "set cbrange [0:1]"
		echo "set palette defined (0 '#d7191c', 0.5 '#ffffbf', 1 '#1a9641')"
		echo "set xtics ($PFTICS)"
		echo "set ytics ($EVTICS)"
		echo "set xrange [-0.5:$npf - 0.5]"
		echo "set yrange [-0.5:$nev - 0.5]"
		echo "unset colorbox"
		for pat in $PATTERNS; do
			for f in $FACTORS; do
				echo "set title '$pat, ws ${f}x'"
				echo "plot '$OUT/data/heat-$p-$pat-$f.dat' using 1:2:3 with image notitle, '' using 1:2:(sprintf('%.2f', \$3)) with labels notitle"
			done
		done
		echo "unset multiplot"
	} >"$OUT/data/heat-$p.gp"
	gnuplot "$OUT/data/heat-$p.gp" 2>"$OUT/data/heat-$p.err" || true
done

# lines FIG PNG YLABEL LOG: FIG against the working set, a line per
# eviction policy (prefetch none), a panel per profile (rows) and pattern
lines() {
	{
		echo "set terminal pngcairo size $((360 * npat + 80)),$((300 * nprof + 60)) noenhanced font ',9'"
		echo "set output '$OUT/$2'"
		echo "set multiplot layout $nprof,$npat title '$3 against the working set (x the cache), prefetch none; error bars: sd over the seeds'"
		echo "set logscale x 2"
		echo "set xrange [$XMIN:$XMAX]"
		echo "set xlabel 'working set / cache'"
		echo "set ylabel '$3'"
		echo "set key top right"
		[ "$4" = log ] && echo "set logscale y"
		[ "$1" = hit_ratio ] && echo "set yrange [0:1.05]"
		for p in $PROFILES; do
			for pat in $PATTERNS; do
				echo "set title '$p, $pat'"
				sep="plot "
				for ev in $EVICTIONS; do
					printf "%s'%s' using 1:2:3 with yerrorlines title '%s'" "$sep" "$OUT/data/$1-$p-$pat-$ev.dat" "$ev"
					sep=", "
				done
				echo
			done
		done
		echo "unset multiplot"
	} >"$OUT/data/$1.gp"
	gnuplot "$OUT/data/$1.gp" 2>"$OUT/data/$1.err" || true
}
lines hit_ratio cxl-hit-lines.png "hit ratio" lin
lines miss_p50 cxl-miss-p50.png "miss latency p50 (ns)" log
lines miss_p99 cxl-miss-p99.png "miss latency p99 (ns)" log
lines ops_per_s cxl-throughput.png "accesses per second" log

# The YCSB part
KVPNG=
if [ -s "$KVRAW" ]; then
	KVAGG=$OUT/kv-agg.csv
	aggregate "$KVRAW" profile,mix,eviction,prefetch \
		"ops_per_s:ops_per_s p50_ns:p50_ns p99_ns:p99_ns misses_per_op:misses_per_op dev_evictions:evictions dev_dirty_writebacks:dirty_writebacks dev_prefetch_issued:prefetch_issued" \
		>"$KVAGG" || echo "FAIL report-cxl-kv (cannot aggregate $KVRAW)"
	{
		echo
		echo "## YCSB on kvstore (heap larger than the cache)"
		echo
		echo "| profile | mix | eviction | prefetch | runs | ops/s | misses per op | op p50 (us) | op p99 (us) | writebacks |"
		echo "|---|---|---|---|---|---|---|---|---|---|"
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		function f(name, scale, fmt) {
			return sprintf(fmt " ± " fmt, $c[name "_mean"] / scale, $c[name "_sd"] / scale)
		}
		{
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5,
				f("ops_per_s", 1, "%.0f"), f("misses_per_op", 1, "%.3f"),
				f("p50_ns", 1000, "%.1f"), f("p99_ns", 1000, "%.0f"),
				f("dirty_writebacks", 1, "%.0f")
		}' "$KVAGG"
	} >>"$OUT/cxl.md"
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $2 "/" $3 "/" $4, $c["ops_per_s_mean"], $c["ops_per_s_sd"], $c["misses_per_op_mean"], $c["misses_per_op_sd"] }' \
		"$KVAGG" >"$OUT/data/kv.dat"
	cat >"$OUT/data/kv.gp" <<EOF
set terminal pngcairo size 1400,800 noenhanced font ',9'
set output '$OUT/kv.png'
set multiplot layout 2,1 title 'kvstore (YCSB mixes) on /dev/vflash0: mix/eviction/prefetch; error bars: sd over the seeds'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by 60 right
set ylabel 'operations per second'
set yrange [0:*]
plot '$OUT/data/kv.dat' using 0:2:3:xtic(1) with boxerrorbars notitle
set ylabel 'misses per operation'
plot '$OUT/data/kv.dat' using 0:4:5:xtic(1) with boxerrorbars notitle
unset multiplot
EOF
	gnuplot "$OUT/data/kv.gp" 2>"$OUT/data/kv.err" || true
	KVPNG=kv.png
fi

# is_png FILE: non-empty, with the PNG signature
is_png() {
	[ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# The checks
nseeds=$(echo "$SEEDS" | wc -w)
incomplete=$(awk -F, -v n="$nseeds" 'NR > 1 && $6 != n { print $1 " " $2 " " $3 "x " $4 " " $5 ": " $6 " runs" }' "$AGG")
cells=$(($(wc -l <"$AGG") - 1))
want=$((nprof * npat * nfac * nev * npf))
if [ -z "$incomplete" ] && [ "$cells" -eq "$want" ]; then
	echo "PASS report-cxl-cells ($cells cells x $nseeds seeds)"
else
	echo "FAIL report-cxl-cells ($cells cells of $want; incomplete: ${incomplete:-none})"
fi
missing=
for png in $(for p in $PROFILES; do echo "cxl-hit-heatmap-$p.png"; done) \
	cxl-hit-lines.png cxl-miss-p50.png cxl-miss-p99.png cxl-throughput.png $KVPNG; do
	is_png "$OUT/$png" || missing="$missing $png"
done
if [ -z "$missing" ] && [ -s "$OUT/cxl.md" ]; then
	echo "PASS report-cxl-files ($OUT: cxl-agg.csv cxl.md and the PNGs)"
else
	echo "FAIL report-cxl-files (missing or not PNG:$missing; gnuplot's errors in $OUT/data/*.err)"
fi
if "$HERE/cxl.sh" -C "$RAW" >"$OUT/mechanism.txt" 2>&1; then
	echo "PASS report-cxl-mechanisms (every row of cxl.csv)"
else
	echo "FAIL report-cxl-mechanisms ($(grep -c MECHANISM-FAIL "$OUT/mechanism.txt") broken: see $OUT/mechanism.txt)"
	grep MECHANISM-FAIL "$OUT/mechanism.txt" | head -n 20 | sed 's/^/  /'
fi

# The figures a rerun must reproduce: the hit ratio and the counters
# (the latencies and throughput are TCG's as much as vflash's).
REPRO=hit_ratio,misses,evictions,dirty_writebacks,prefetch_issued,prefetch_hits
if [ -n "$OLD" ]; then
	if "$HERE/compare.sh" -k 5 -f "$REPRO" "$OLD" "$AGG" >"$OUT/compare.txt"; then
		echo "PASS report-cxl-reproduce (against $OLD: $(grep -c 'reproduced$' "$OUT/compare.txt") figures)"
	else
		echo "FAIL report-cxl-reproduce (against $OLD: $(grep 'reproduced$' "$OUT/compare.txt" | tr '\n' ';'); see $OUT/compare.txt)"
	fi
	grep 'reproduced$' "$OUT/compare.txt" | sed 's/^/  /'
fi

# -t: the checks must be able to fail
if [ "$SELFTEST" -eq 1 ]; then
	# spoil NAME COLUMN ROW-TEST: zero COLUMN in the first row where
	# ROW-TEST (awk, over c[name]) holds; cxl.sh -C must exit 3 naming
	# the counter
	spoil() {
		awk -F, -v OFS=, -v col="$2" "
		NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; print; next }
		!done && ($3) { \$c[col] = 0; done = 1 }
		{ print }" "$RAW" >"$OUT/spoilt-$1.csv"
		if cmp -s "$RAW" "$OUT/spoilt-$1.csv"; then
			echo "SKIP report-cxl-catches-$1 (no row to spoil)"
			return
		fi
		rc=0
		"$HERE/cxl.sh" -C "$OUT/spoilt-$1.csv" >"$OUT/spoilt-$1.out" 2>&1 || rc=$?
		if [ "$rc" -eq 3 ] && grep -q "MECHANISM-FAIL .*: $2=0 " "$OUT/spoilt-$1.out"; then
			echo "PASS report-cxl-catches-$1"
		else
			echo "FAIL report-cxl-catches-$1 (cxl.sh -C exited $rc on a CSV with $2 zeroed; see $OUT/spoilt-$1.out)"
		fi
	}
	# shellcheck disable=SC2016 # awk, not shell
	spoil prefetch prefetch_issued '$c["prefetch"] != "none" && ($c["pattern"] == "seq" || $c["pattern"] == "stride") && $c["ws_pages"] > $c["cache_pages"]'
	# shellcheck disable=SC2016
	spoil evictions evictions '$c["ws_pages"] > $c["cache_pages"]'
	# shellcheck disable=SC2016
	spoil writebacks dirty_writebacks '$c["ws_pages"] > $c["cache_pages"] && $c["write_pct"] > 0'
	if "$HERE/compare.sh" -k 5 -f "$REPRO" "$AGG" "$AGG" >"$OUT/compare-same.txt"; then
		echo "PASS report-cxl-compare-same"
	else
		echo "FAIL report-cxl-compare-same (see $OUT/compare-same.txt)"
	fi
	# the first cell's hit ratio moved by 0.5 (or to 0.5 off it)
	awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hit_ratio_mean") k = i }
		NR == 2 { $k = $k >= 0.5 ? $k - 0.5 : $k + 0.5 } { print }' "$AGG" >"$OUT/moved.csv"
	if "$HERE/compare.sh" -k 5 -f hit_ratio "$AGG" "$OUT/moved.csv" >"$OUT/compare-moved.txt"; then
		echo "FAIL report-cxl-compare-moved (a hit ratio moved by 0.5 reproduced: see $OUT/compare-moved.txt)"
	else
		echo "PASS report-cxl-compare-moved"
	fi
fi
exit 0
