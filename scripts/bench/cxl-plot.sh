#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Plot the CDFs of scripts/bench/cxl.sh: one curve per measurement,
# latency on a log axis, into OUTDIR/cxl-cdf.png (gnuplot, PNG).
#
# usage: scripts/bench/cxl-plot.sh SOURCE OUTDIR
#   SOURCE  either the results of `make bench-cxl` (build/vmtest/bench-cxl/
#           results.txt), whose "CDF NAME LATENCY_NS FRACTION" lines are
#           split into OUTDIR/cdf-NAME.txt first, or the -o directory of
#           scripts/bench/cxl.sh, holding cdf-NAME.txt files
#   OUTDIR  where the CDF files and cxl-cdf.png go
set -eu

[ $# -eq 2 ] || { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit 2; }
src=$1
out=$2
mkdir -p "$out"
if [ -f "$src" ]; then
	rm -f "$out"/cdf-*.txt
	awk -v dir="$out" '$1 == "CDF" && NF == 4 {
		print $3, $4 > (dir "/cdf-" $2 ".txt")
	}' "$src"
elif [ -d "$src" ] && [ "$src" != "$out" ]; then
	cp "$src"/cdf-*.txt "$out"/
fi
set -- "$out"/cdf-*.txt
[ -f "$1" ] || { echo "cxl-plot: no CDF points in $src" >&2; exit 1; }
command -v gnuplot >/dev/null ||
	{ echo "cxl-plot: no gnuplot (scripts/setup.sh installs gnuplot-nox)" >&2; exit 1; }

plots=
for f in "$@"; do
	name=${f##*/cdf-}
	name=${name%.txt}
	# The bimodal hits-and-misses curve stands out.
	width=2
	[ "$name" != vflash-cylon-rand ] || width=4
	plots="$plots${plots:+, }'$f' using 1:2 with steps lw $width title '$name'"
done
gnuplot <<GP
set terminal pngcairo size 1000,600 enhanced
set output '$out/cxl-cdf.png'
set title 'mmap_lat: per-access latency CDF (vflash frontend=cxl, devdax, anonymous memory)' noenhanced
set xlabel 'latency (ns, log scale)'
set ylabel 'cumulative fraction of accesses'
set logscale x
set format x '10^{%L}'
set grid
set key bottom right
set yrange [0:1]
plot $plots
GP
echo "cxl-plot: $out/cxl-cdf.png"
