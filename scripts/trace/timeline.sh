#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Per-die occupancy over time from vflash_nand events: for each die (one
# row each) and each time bucket, the fraction of the bucket the die spent
# on host work, GC and migration (stacked areas; white is idle).
#
# usage: scripts/trace/timeline.sh [-n BUCKETS] [-f FROM_MS] [-t TO_MS] TRACE OUTDIR
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report)
#   OUTDIR  gets die-timeline.dat and trace-die-timeline.png
#   -n N    time buckets (default 200)
#   -f, -t  only this window, in ms from the first operation
# Times are the dies' model times (start_ns, end_ns), not when the events
# were traced: work the model scheduled ahead shows where it runs.
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

buckets=200 from='' to=''
while getopts "n:f:t:h" opt; do
	case $opt in
	n) buckets=$OPTARG ;;
	f) from=$OPTARG ;;
	t) to=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage 2
dir=$(dirname "$0")
trace=$1 out=$2
mkdir -p "$out"
dat=$out/die-timeline.dat

# One data block per die 0..max (gnuplot's "index"): "ms host gc migrate",
# fractions of each bucket; a summary line "# dies N ops N ms W" first.
awk -v nb="$buckets" -v from="$from" -v to="$to" -f "$dir/events.awk" -f - "$trace" >"$dat" <<'AWK'
vflash_event() && EV == "nand" {
	n++
	d[n] = V["die"] + 0
	s[n] = V["start_ns"] + 0
	e[n] = V["end_ns"] + 0
	w[n] = WORK
	if (n == 1 || s[n] < t0)
		t0 = s[n]
	if (d[n] > maxdie)
		maxdie = d[n]
}
END {
	if (!n)
		exit 1
	lo = t0 + (from != "" ? from * 1e6 : 0)
	hi = t0
	for (i = 1; i <= n; i++)
		if (e[i] > hi)
			hi = e[i]
	if (to != "" && t0 + to * 1e6 < hi)
		hi = t0 + to * 1e6
	if (hi <= lo)
		exit 1
	bw = (hi - lo) / nb
	for (i = 1; i <= n; i++) {
		a = s[i] < lo ? lo : s[i]
		z = e[i] > hi ? hi : e[i]
		for (b = int((a - lo) / bw); a < z && b < nb; b++) {
			bend = lo + (b + 1) * bw
			x = (z < bend ? z : bend) - a
			busy[d[i], b, w[i]] += x
			a = bend
		}
	}
	printf "# dies %d ops %d ms %.3f from %.3f\n", maxdie + 1, n, bw / 1e6, (lo - t0) / 1e6
	for (die = 0; die <= maxdie; die++) {
		for (b = 0; b < nb; b++) {
			h = busy[die, b, "host"] / bw
			g = busy[die, b, "gc"] / bw
			m = busy[die, b, "migrate"] / bw
			# A host read that passed background work overlaps it in
			# the trace (read-priority): scale the bucket to 100%.
			if (h + g + m > 1) {
				f = h + g + m
				h /= f; g /= f; m /= f
			}
			printf "%.4f %.4f %.4f %.4f\n", (lo - t0 + (b + 0.5) * bw) / 1e6, h, g, m
		}
		printf "\n\n"
	}
}
AWK
[ -s "$dat" ] || { echo "timeline: no vflash_nand events in $trace" >&2; exit 1; }
command -v gnuplot >/dev/null ||
	{ echo "timeline: no gnuplot (scripts/setup.sh installs gnuplot-nox)" >&2; exit 1; }
# shellcheck disable=SC2046
set -- $(head -n 1 "$dat")
dies=$3 ops=$5 ms=$7
height=$((160 + 26 * dies))
[ $height -le 2400 ] || height=2400
gnuplot <<GP
set terminal pngcairo size 1100,$height font ',10'
set output '$out/trace-die-timeline.png'
set title sprintf("vflash: die occupancy, %d NAND operations (each row a die; %.3g ms buckets)", $ops, $ms) noenhanced
set xlabel 'time (ms from the first operation)'
set ylabel 'die'
set yrange [-0.2:$dies]
set ytics 0,1,$dies-1 offset 0,0.9 scale 0
set format y '%g'
set grid xtics
set key above horizontal
set style fill solid 1.0 noborder
set tics out
plot for [i=0:$dies-1] '$dat' index i using 1:(i):(i+0.9*\$2) with filledcurves lc rgb '#4477aa' title (i == 0 ? 'host' : ''), \
     for [i=0:$dies-1] '$dat' index i using 1:(i+0.9*\$2):(i+0.9*(\$2+\$3)) with filledcurves lc rgb '#ee6677' title (i == 0 ? 'GC' : ''), \
     for [i=0:$dies-1] '$dat' index i using 1:(i+0.9*(\$2+\$3)):(i+0.9*(\$2+\$3+\$4)) with filledcurves lc rgb '#ccbb44' title (i == 0 ? 'migration' : '')
GP
echo "timeline: $out/trace-die-timeline.png"
