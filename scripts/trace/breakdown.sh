#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Where read latency went, per percentile band: the reads of
# vflash_request_submit sorted by model_ns, cut into the bands p0-50,
# p50-90, p90-99, p99-99.9 and p99.9-100, and each band's mean of every
# part of the breakdown stacked (die wait behind host work, die wait
# behind GC/migration/erases (bg_wait_ns), array read, channel wait,
# channel transfer, host-link wait, host-link transfer, firmware). Left
# in us, right as shares of the band's mean. One PNG per frontend.
#
# usage: scripts/trace/breakdown.sh [-o OP] TRACE OUTDIR
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report)
#   OUTDIR  gets breakdown-FE-OP.dat and trace-breakdown-FE-OP.png
#   -o OP   read (default), write, trim or flush
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

op="read"
while getopts "o:h" opt; do
	case $opt in
	o) op=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage 2
dir=$(dirname "$0")
trace=$1 out=$2
mkdir -p "$out"
tmp=$out/breakdown.tmp

# "FE model fg_wait bg_wait array chan_wait chan host_wait host fw" per
# request, sorted by frontend, then model_ns.
awk -v op="$op" -f "$dir/events.awk" -f - "$trace" <<'AWK' | sort -k1,1 -k2,2n >"$tmp"
vflash_event() && EV == "request_submit" && OP == op {
	printf "%s %s %s %s %s %s %s %s %s %s\n", FE, V["model_ns"],
		V["die_wait_ns"] - V["bg_wait_ns"], V["bg_wait_ns"], V["array_ns"],
		V["chan_wait_ns"], V["chan_ns"], V["host_wait_ns"], V["host_ns"],
		V["fw_ns"]
}
AWK
[ -s "$tmp" ] || { rm -f "$tmp"; echo "breakdown: no $op submits in $trace" >&2; exit 1; }
command -v gnuplot >/dev/null ||
	{ echo "breakdown: no gnuplot (scripts/setup.sh installs gnuplot-nox)" >&2; exit 1; }

for fe in $(cut -d' ' -f1 "$tmp" | uniq); do
	dat=$out/breakdown-$fe-$op.dat
	# One line per band: "label n mean-of-each-part-in-us... total".
	awk -v fe="$fe" '$1 == fe { n++; for (i = 2; i <= 10; i++) v[n, i] = $i }
	END {
		split("0 50 90 99 99.9 100", p, " ")
		for (k = 1; k <= 5; k++) {
			lo = int(n * p[k] / 100)
			hi = k == 5 ? n : int(n * p[k + 1] / 100)
			m = hi - lo
			printf "p%s-%s %d", p[k], p[k + 1], m
			for (i = 3; i <= 10; i++) {
				s = 0
				for (r = lo + 1; r <= hi; r++)
					s += v[r, i]
				printf " %.3f", m ? s / m / 1000 : 0
			}
			s = 0
			for (r = lo + 1; r <= hi; r++)
				s += v[r, 2]
			printf " %.3f\n", m ? s / m / 1000 : 0
		}
	}' "$tmp" >"$dat"
	n=$(awk '{ n += $2 } END { print n }' "$dat")
	png=$out/trace-breakdown-$fe-$op.png
	gnuplot <<GP
set terminal pngcairo size 1200,600 font ',10'
set output '$png'
set multiplot layout 1,2 title "vflash $fe: where $op latency went, by percentile band of model_ns ($n ${op}s)" noenhanced
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border rgb 'grey40'
set boxwidth 0.7
set key top left invert
set grid ytics
set xtics scale 0
set lmargin 10
set bmargin 4
colors = '#4477aa #ee6677 #228833 #ccbb44 #66ccee #aa3377 #bbbbbb #222255'
titles = "'die wait (host work)' 'die wait (GC, migration, erase)' 'array read' 'channel wait' 'channel transfer' 'host-link wait' 'host-link transfer' 'firmware'"
set ylabel 'mean latency in the band (us)'
set yrange [0:*]
plot for [i=3:10] '$dat' using i:xtic(sprintf("%s\nn=%d", strcol(1), \$2)) lc rgb word(colors, i-2) title word(titles, i-2)
set ylabel 'share of the band''s mean (%)'
set yrange [0:100]
set key off
plot for [i=3:10] '$dat' using (\$11 > 0 ? 100*column(i)/\$11 : 0):xtic(strcol(1)) lc rgb word(colors, i-2) notitle
unset multiplot
GP
	echo "breakdown: $png"
done
rm -f "$tmp"
