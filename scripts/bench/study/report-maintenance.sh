#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The maintenance study's report (docs/studies.md): from the raw CSVs of
# scripts/bench/study/maintenance.sh, per variant the mean, standard deviation,
# minimum and maximum of every figure over the repetitions
# (maintenance.csv), the table shaped like the seed's plus the mechanism
# counters (maintenance.md), and the plots (gnuplot): read tail latency
# per variant with its spread (maintenance-tail.png), the model's own read
# tail, which the VM cannot distort (maintenance-model.png), and the read
# latency CDF of every variant (maintenance-cdf.png).
#
# DIR is the study's output directory, or a VM suite's directory whose
# files/ holds the CSVs (the "# vmtest-host:" line of scripts/bench/vm/
# study-maintenance.sh and of the suite "study"). The report goes to
# DIR/report/. Prints PASS/FAIL lines: the report was made; every run
# started from the same preconditioned state.
#
# usage: scripts/bench/study/report-maintenance.sh DIR
set -uo pipefail

usage() {
	sed -n 's/^# usage: //p' "$0"
}

case ${1:-} in
-h | --help) usage; exit 0 ;;
'') usage >&2; exit 2 ;;
esac
DIR=$1
SRC=$DIR
[ -f "$SRC/maintenance-raw.csv" ] || SRC=$DIR/files
RAW=$SRC/maintenance-raw.csv
CDF=$SRC/maintenance-cdf.csv
if [ ! -f "$RAW" ] || [ ! -f "$CDF" ]; then
	echo "FAIL report-maintenance (no maintenance-raw.csv and maintenance-cdf.csv in $DIR or $DIR/files)"
	exit 1
fi
OUT=$DIR/report
mkdir -p "$OUT"
HERE=$(cd "$(dirname "$0")" && pwd)

# The seed analogue of each variant, from the study's own table.
"$HERE/maintenance.sh" -l | awk -F'\t' '{ print $1 "," $6 }' >"$OUT/analogues.csv"

# maintenance.csv: variant, analogue, runs, then MEAN,SD,MIN,MAX of each
# figure column (column 7 on) of the raw CSV, in the order variants first
# appear.
awk -F, -v OFS=, '
FILENAME ~ /analogues/ { seed[$1] = $2; next }
FNR == 1 { for (i = 7; i <= NF; i++) col[i] = $i; nf = NF; next }
{
	v = $1
	if (!(v in n)) order[++k] = v
	n[v]++
	for (i = 7; i <= nf; i++) {
		x = $i + 0
		s[v, i] += x; ss[v, i] += x * x
		if (n[v] == 1 || x < lo[v, i]) lo[v, i] = x
		if (n[v] == 1 || x > hi[v, i]) hi[v, i] = x
	}
}
END {
	printf "variant,seed_analogue,runs"
	for (i = 7; i <= nf; i++)
		printf ",%s_mean,%s_sd,%s_min,%s_max", col[i], col[i], col[i], col[i]
	print ""
	for (j = 1; j <= k; j++) {
		v = order[j]
		a = "-"
		if (v in seed)
			a = seed[v]
		printf "%s,%s,%d", v, a, n[v]
		for (i = 7; i <= nf; i++) {
			m = s[v, i] / n[v]
			var = n[v] > 1 ? (ss[v, i] - n[v] * m * m) / (n[v] - 1) : 0
			sd = 0
			if (var > 0)
				sd = sqrt(var)
			printf ",%.6g,%.6g,%.6g,%.6g", m, sd, lo[v, i], hi[v, i]
		}
		print ""
	}
}' "$OUT/analogues.csv" "$RAW" >"$OUT/maintenance.csv"

# col NAME: the column number of NAME in maintenance.csv
col() {
	head -n 1 "$OUT/maintenance.csv" | tr ',' '\n' | grep -nx -- "$1" | cut -d: -f1
}

# The table: "mean ± sd" cells.
{
	echo "| variant | seed | read IOPS | read p99 (ms) | p99.9 (ms) | p99.99 (ms) | model p99 / p99.9 (ms) | GC runs | GC pages moved | migrated | repromoted | read deferrals | WAF |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F, -v c="$(for n in read_iops read_p99_ms read_p999_ms read_p9999_ms \
		model_read_p99_ms model_read_p999_ms gc_runs gc_copied_pages \
		migrated_pages repromoted_pages read_preempts waf; do
		printf '%s ' "$(col "${n}_mean")"; done)" '
	function cell(i, d) {
		return sprintf("%." d "f ± %." d "f", $i, $(i + 1))
	}
	NR > 1 {
		split(c, k, " ")
		printf "| %s | %s | %s | %s | %s | %s | %.2f / %.2f | %s | %s | %s | %s | %s | %s |\n",
			$1, $2, cell(k[1], 0), cell(k[2], 2), cell(k[3], 2),
			cell(k[4], 2), $k[5], $k[6], cell(k[7], 0), cell(k[8], 0),
			cell(k[9], 0), cell(k[10], 0), cell(k[11], 0), cell(k[12], 2)
	}' "$OUT/maintenance.csv"
} >"$OUT/maintenance.md"

# Whether every run started from the same preconditioned state.
states=$(awk -F, 'NR > 1 { print $(NF - 4), $(NF - 3), $(NF - 2), $(NF - 1), $NF }' "$RAW" | sort -u)
nstates=$(echo "$states" | grep -c .)
{
	echo
	if [ "$nstates" -eq 1 ]; then
		echo "Every run started from the same preconditioned state (programs, erases, cleanings, free SLC and QLC blocks: $states)."
	else
		echo "The preconditioned state differed between runs ($nstates states):"
		printf '    %s\n' "$states"
	fi
	echo "$(($(grep -c . "$RAW") - 1)) runs; mean ± standard deviation over each variant's repetitions; all figures in maintenance.csv."
} >>"$OUT/maintenance.md"

# Plot data: variant index, then mean and sd of the figures plotted.
awk -F, -v OFS=' ' -v c="$(for n in read_p99_ms read_p999_ms read_p9999_ms \
	model_read_p99_ms model_read_p999_ms; do
	printf '%s ' "$(col "${n}_mean")"; done)" '
NR > 1 {
	split(c, k, " ")
	printf "%s", $1
	for (j = 1; j <= 5; j++) printf " %s %s", $k[j], $(k[j] + 1)
	print ""
}' "$OUT/maintenance.csv" >"$OUT/tail.dat"

# CDF: per variant and percentile, the mean latency over the seeds.
awk -F, 'NR > 1 {
	key = $1 SUBSEP $3
	if (!(key in n)) { order[++k] = key }
	n[key]++; s[key] += $4
}
END {
	for (j = 1; j <= k; j++) {
		split(order[j], p, SUBSEP)
		print p[1], s[order[j]] / n[order[j]], p[2] / 100
	}
}' "$CDF" | sort -k1,1 -s | awk '
$1 != last { if (NR > 1) print "\n"; print $1; last = $1; nv++ }
{ print $2, $3 }
END { print nv >"/dev/stderr" }' 2>"$OUT/cdf.count" >"$OUT/cdf.dat"

if ! gnuplot <<EOF; then
set terminal pngcairo size 1400,700 noenhanced
set datafile separator " "
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.6 border -1
set logscale y
set grid ytics
set xtics rotate by -40 font ",9"
set key top left
set ylabel "fio read latency (ms), mean and sd over the seeds"
set title "study-maintenance: read tail latency per variant (fio, in the VM)"
set output "$OUT/maintenance-tail.png"
plot "$OUT/tail.dat" using 2:3:xtic(1) title "p99", \
	"" using 4:5 title "p99.9", \
	"" using 6:7 title "p99.99"
set ylabel "the model's read latency (ms), mean and sd"
set title "study-maintenance: the model's own read tail (stats/read_latency_*), which the VM does not distort"
set output "$OUT/maintenance-model.png"
plot "$OUT/tail.dat" using 8:9:xtic(1) title "model p99", \
	"" using 10:11 title "model p99.9"
unset style
set style data lines
set xtics norotate font ",10"
set logscale x
unset logscale y
# The fraction of reads on a "nines" scale: -log10(1 - p).
set yrange [0:4.2]
set ytics ("p0" 0, "p90" 1, "p99" 2, "p99.9" 3, "p99.99" 4)
set key outside right font ",9"
set xlabel "fio read latency (ms)"
set ylabel "fraction of reads at or below"
set title "study-maintenance: read latency CDF per variant (mean over the seeds at fio's percentiles)"
set output "$OUT/maintenance-cdf.png"
plot for [i = 0:$(($(cat "$OUT/cdf.count") - 1))] "$OUT/cdf.dat" \
	index i using 1:(-log10(1 - \$2)) with linespoints pt 7 ps 0.5 title columnheader(1)
EOF
	echo "FAIL report-maintenance (gnuplot failed)"
	exit 1
fi

ok=1
for f in maintenance.csv maintenance.md maintenance-tail.png maintenance-model.png maintenance-cdf.png; do
	[ -s "$OUT/$f" ] || { echo "FAIL report-maintenance ($f is empty)"; ok=0; }
done
[ "$ok" -eq 1 ] && echo "PASS report-maintenance ($OUT)"
if [ "$nstates" -eq 1 ]; then
	echo "PASS precondition-identical"
else
	echo "FAIL precondition-identical ($nstates different preconditioned states; see $OUT/maintenance.md)"
fi
