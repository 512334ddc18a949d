#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The applications study's report (docs/studies.md, study-apps), from
# apps.csv of scripts/bench/study/apps.sh (a row per application and cache size):
#   apps.md        the Markdown table: per application and cache size
#                  (fraction of the footprint, pages), the throughput and
#                  latency on the device as ratios to DRAM, misses per
#                  operation, writebacks, the process's region and
#                  resident pages
#   apps-APP.png   per application: throughput ratio and misses per
#                  operation against the cache size
# and prints PASS/FAIL lines (a vmtest-host command's tests): the study's
# mechanism checks passed (checks.txt), every application has a row per
# cache size, each PNG is a PNG.
#
# DIR is the study's output directory (apps.sh -o), or a VM suite's
# directory whose files/ holds apps.csv and checks.txt (the "# vmtest-host:"
# lines of scripts/bench/vm/study-apps.sh and scripts/vm/suites/appstudy.sh);
# the report goes to DIR/report/.
#
# usage: scripts/bench/study/report-apps.sh DIR
set -uo pipefail

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../../helpers.sh"
report_start report-apps apps.csv "${1:-}"
report_mechanisms report-apps count
apps=$(awk -F, 'NR > 1 && !seen[$1]++ { print $1 }' "$CSV")
if [ -z "$apps" ]; then
	fail "report-apps: apps.csv has no rows"
	exit 1
fi
counts=$(awk -F, 'NR > 1 { n[$1]++ } END { for (a in n) print n[a] }' "$CSV" | sort -u)
if [ "$(echo "$counts" | wc -l)" = 1 ] && [ "$counts" -ge 1 ]; then
	pass "report-apps: $(echo "$apps" | wc -l) applications, $counts cache sizes each"
else
	fail "report-apps: applications with different numbers of rows ($(echo "$counts" | tr '\n' ' '))"
fi

{
	echo "| app | cache (x footprint) | cache pages | footprint pages | ops | throughput vs DRAM | latency vs DRAM | misses/op | writebacks | region pages | resident |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
		$1, $2, $3, $4, $5, $8, $11, $15, $16, $12, $13 }' "$CSV"
	echo
	echo "Throughput and latency are ratios to the same application in DRAM in the same boot (DRAM: $(awk -F, 'NR > 1 && !s[$1]++ { printf "%s%s %.0f ops/s", sep, $1, $6; sep = ", " }' "$CSV"))."
} >"$OUT/apps.md"
cat "$OUT/apps.md"

if command -v gnuplot >/dev/null; then
	for a in $apps; do
		awk -F, -v a="$a" 'NR > 1 && $1 == a { print $2, $8, $15 }' "$CSV" >"$OUT/apps-$a.dat"
		gnuplot <<GP
set terminal png size 640,400
set output "$OUT/apps-$a.png"
set title "study-apps: $a on the CXL device vs DRAM"
set xlabel "device cache (x the footprint)"
set ylabel "throughput / DRAM"
set y2label "misses per operation"
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics
set key top left
plot "$OUT/apps-$a.dat" using 1:2 with linespoints title "throughput vs DRAM", \
	'' using 1:3 axes x1y2 with linespoints title "misses / op"
GP
		if head -c 4 "$OUT/apps-$a.png" 2>/dev/null | grep -q PNG; then
			pass "report-apps: apps-$a.png"
		else
			fail "report-apps: apps-$a.png is not a PNG"
		fi
	done
fi
