#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The CDF of how late frontends completed requests against the model
# (vflash_request_complete late_ns = actual_ns - due_ns), one curve per
# frontend, lateness on a log axis. An early completion (late_ns < 0, a
# bug) is plotted at 1 ns and counted in the key.
#
# usage: scripts/trace/lateness.sh TRACE OUTDIR
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report)
#   OUTDIR  gets lateness-FE.dat and trace-lateness-cdf.png
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

while getopts "h" opt; do
	case $opt in
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage 2
dir=$(dirname "$0")
trace=$1 out=$2
mkdir -p "$out"
tmp=$out/lateness.tmp

awk -f "$dir/events.awk" -f - "$trace" <<'AWK' | sort -k1,1 -k2,2n >"$tmp"
vflash_event() && EV == "request_complete" { print FE, V["late_ns"] }
AWK
[ -s "$tmp" ] || { rm -f "$tmp"; echo "lateness: no vflash_request_complete events in $trace" >&2; exit 1; }
command -v gnuplot >/dev/null ||
	{ echo "lateness: no gnuplot (scripts/setup.sh installs gnuplot-nox)" >&2; exit 1; }

plots=
for fe in $(cut -d' ' -f1 "$tmp" | uniq); do
	dat=$out/lateness-$fe.dat
	# "late_us fraction", at most about 2000 points; the key's text in
	# the first line.
	awk -v fe="$fe" '$1 == fe { v[++n] = $2 + 0; if ($2 < 0) early++ }
	function pct(p,    r) {
		r = int((n * p + 99.999) / 100)
		return v[r < 1 ? 1 : r] / 1000
	}
	END {
		printf "# %s: %d requests, p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us%s\n",
			fe, n, pct(50), pct(99), pct(99.9), v[n] / 1000,
			early ? ", " early " EARLY" : ""
		step = n > 2000 ? int(n / 2000) : 1
		for (i = 1; i <= n; i++)
			if (i % step == 0 || i == 1 || i == n)
				printf "%.3f %.6f\n", (v[i] > 0 ? v[i] : 1) / 1000, i / n
	}' "$tmp" >"$dat"
	title=$(head -n 1 "$dat" | sed 's/^# //')
	plots="$plots${plots:+, }'$dat' using 1:2 with steps lw 2 title '$title'"
done
rm -f "$tmp"
gnuplot <<GP
set terminal pngcairo size 1000,600 font ',10'
set output '$out/trace-lateness-cdf.png'
set title 'vflash: completion lateness against the model (late\_ns = actual\_ns - due\_ns)'
set xlabel 'lateness (us, log scale)'
set ylabel 'cumulative fraction of requests'
set logscale x
set grid
set key below left Left reverse noenhanced
set bmargin 7
set yrange [0:1]
plot $plots
GP
echo "lateness: $out/trace-lateness-cdf.png"
