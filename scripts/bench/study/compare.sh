#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Does a rerun reproduce a study's table? OLD and NEW are a study's
# aggregated CSVs (report-*.sh: a key column, then NAME_mean and NAME_sd
# for each figure). A figure of a variant is reproduced when NEW's mean
# lies within OLD's mean +- 2 sd (the spread OLD reports), or within
# -r PCT percent of OLD's mean if that is wider (a counter that varied by
# a few pages over three runs has an sd far below what a rerun moves it;
# a figure whose sd is 0 must match within 1 % unless -r says more).
# Prints, per figure, how many variants reproduced it and the ones that
# did not.
#
# usage: scripts/bench/study/compare.sh [-k KEYCOLS] [-f FIGURES] [-r PCT] OLD.csv NEW.csv
#   -k KEYCOLS  how many leading columns name a variant (default 1)
#   -f FIGURES  comma-separated figure names (default: every NAME_mean)
#   -r PCT      the least tolerance, percent of OLD's mean (default 0)
# Exit status: 0 if every figure of every variant reproduced, 1 if not,
# 2 on bad usage.

usage() {
	sed -n 's/^# usage: /usage: /p; s/^#   /  /p; /^# Exit/,/^# 2 on/s/^# //p' "$0"
}

KEYS=1
FIGURES=""
PCT=0
while getopts :k:f:r:h opt; do
	case $opt in
	k) KEYS=$OPTARG ;;
	f) FIGURES=$OPTARG ;;
	r) PCT=$OPTARG ;;
	h) usage; exit 0 ;;
	*) echo "compare.sh: bad option -$OPTARG" >&2; usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ] || [ ! -f "$1" ] || [ ! -f "$2" ]; then
	echo "compare.sh: need two CSV files" >&2
	usage >&2
	exit 2
fi
case $KEYS in
'' | *[!0-9]* | 0) echo "compare.sh: -k: not a column count: '$KEYS'" >&2; exit 2 ;;
esac
case $PCT in
'' | *[!0-9.]*) echo "compare.sh: -r: not a percentage: '$PCT'" >&2; exit 2 ;;
esac

awk -F, -v keys="$KEYS" -v figs="$FIGURES" -v pct="$PCT" '
function key(   i, s) {
	s = $1
	for (i = 2; i <= keys; i++) s = s "," $i
	return s
}
FNR == 1 {
	file++
	for (i = 1; i <= NF; i++) idx[file, $i] = i
	if (file == 1) {
		if (figs != "") {
			nf = split(figs, fig, ",")
		} else {
			for (i = 1; i <= NF; i++)
				if ($i ~ /_mean$/) fig[++nf] = substr($i, 1, length($i) - 5)
		}
	}
	next
}
file == 1 {
	k = key(); order[++nk] = k
	for (j = 1; j <= nf; j++) {
		m[k, j] = $idx[1, fig[j] "_mean"]
		sd[k, j] = $idx[1, fig[j] "_sd"]
	}
	next
}
{
	k = key(); seen[k] = 1
	for (j = 1; j <= nf; j++) nm[k, j] = $idx[2, fig[j] "_mean"]
}
END {
	for (j = 1; j <= nf; j++) {
		if (!((1, fig[j] "_mean") in idx) || !((2, fig[j] "_mean") in idx)) {
			printf "%s: not in both files\n", fig[j]; bad = 1; continue
		}
		ok = 0; n = 0; out = ""
		for (i = 1; i <= nk; i++) {
			k = order[i]
			if (!(k in seen)) continue
			n++
			d = nm[k, j] - m[k, j]; if (d < 0) d = -d
			rel = m[k, j] * pct / 100; if (rel < 0) rel = -rel
			tol = 2 * sd[k, j]
			if (tol == 0 && pct == 0) { tol = m[k, j] * 0.01; if (tol < 0) tol = -tol }
			if (rel > tol) tol = rel
			if (d <= tol) ok++
			else out = out sprintf("  %s: %g -> %g (+- %g)\n", k, m[k, j], nm[k, j], tol)
		}
		printf "%s: %d of %d reproduced\n%s", fig[j], ok, n, out
		if (ok < n) bad = 1
	}
	for (i = 1; i <= nk; i++)
		if (!(order[i] in seen)) { printf "%s: not in the new run\n", order[i]; bad = 1 }
	exit bad
}' "$1" "$2"
