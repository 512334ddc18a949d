#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The FDP study's report (docs/studies.md, study-fdp), from fdp.csv of
# scripts/bench/study/fdp.sh (one row per mode and seed):
#   fdp.md    the Markdown table: per mode, the median over the seeds of
#             the device's write amplification, GC copies and erases, each
#             handle's write amplification (FDP) and the read percentiles;
#             then the FDP/no-FDP ratios
#   fdp-waf.png  write amplification per mode: the device's and, with FDP,
#             each tenant's handle
# and prints PASS/FAIL lines (a vmtest-host command's tests): the study's
# mechanism checks passed (checks.txt), both modes have every seed, the
# PNG is a PNG.
#
# DIR is the study's output directory (fdp.sh -o), or a VM suite's
# directory whose files/ holds fdp.csv and checks.txt (the "# vmtest-host:"
# line of scripts/bench/vm/study-fdp.sh); the report goes to DIR/report/.
#
# usage: scripts/bench/study/report-fdp.sh DIR
set -uo pipefail

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../../helpers.sh"
report_start report-fdp fdp.csv "${1:-}"
report_mechanisms report-fdp
nofdp=$(grep -c '^nofdp,' "$CSV")
fdp=$(grep -c '^fdp,' "$CSV")
if [ "$nofdp" -gt 0 ] && [ "$nofdp" = "$fdp" ]; then
	pass "report-fdp: $fdp seeds in each mode"
else
	fail "report-fdp: $nofdp runs without FDP, $fdp with"
fi

# median MODE COLUMN: the median of COLUMN over MODE's rows
median() {
	awk -F, -v m="$1" -v c="$2" '$1 == m && $c != "-" { print $c }' "$CSV" |
		sort -g | awk '{ v[NR] = $1 } END {
			if (!NR) { print "-"; exit }
			if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

{
	echo "| mode | WAF | GC copied pages | erases | hot WAF | warm WAF | cold WAF | read p50 us | read p99 us | read p99.9 us |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for m in nofdp fdp; do
		row="| $m"
		for c in 5 7 8 9 10 11 12 13 14; do
			row="$row | $(median $m $c)"
		done
		echo "$row |"
	done
	echo
	echo "FDP / no FDP (medians): WAF $(awk -v a="$(median fdp 5)" -v b="$(median nofdp 5)" 'BEGIN { printf "%.3f", a / b }'), GC copied pages $(awk -v a="$(median fdp 7)" -v b="$(median nofdp 7)" 'BEGIN { if (b) printf "%.3f", a / b; else print "-" }'), read p99 $(awk -v a="$(median fdp 13)" -v b="$(median nofdp 13)" 'BEGIN { printf "%.3f", a / b }')"
} >"$OUT/fdp.md"
cat "$OUT/fdp.md"

if command -v gnuplot >/dev/null; then
	{
		echo "device $(median nofdp 5) $(median fdp 5)"
		echo "hot - $(median fdp 9)"
		echo "warm - $(median fdp 10)"
		echo "cold - $(median fdp 11)"
	} >"$OUT/fdp-waf.dat"
	gnuplot <<GP
set terminal png size 640,400
set output "$OUT/fdp-waf.png"
set style data histograms
set style histogram clustered
set style fill solid 0.7
set datafile missing "-"
set ylabel "write amplification"
set yrange [0:*]
set title "study-fdp: three tenants, one namespace"
plot "$OUT/fdp-waf.dat" using 2:xtic(1) title "no FDP", '' using 3 title "FDP (per handle)"
GP
	if head -c 4 "$OUT/fdp-waf.png" 2>/dev/null | grep -q PNG; then
		pass "report-fdp: fdp-waf.png"
	else
		fail "report-fdp: fdp-waf.png is not a PNG"
	fi
fi
