#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The host side of the VM suite "study" (its "# vmtest-host:" line):
# report-maintenance.py must make the report from the tiny study's CSVs,
# and compare.py must find the report reproduced by itself and not by a
# copy whose first variant's read IOPS doubled.
#
# usage: scripts/bench/study/smoke-host.sh DIR
set -u
case ${1:-} in
-h | --help) echo "usage: scripts/bench/study/smoke-host.sh DIR"; exit 0 ;;
'') echo "usage: scripts/bench/study/smoke-host.sh DIR" >&2; exit 2 ;;
esac
DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)

"$HERE/report-maintenance.py" "$DIR"
CSV=$DIR/report/maintenance.csv
[ -s "$CSV" ] || exit 0
if "$HERE/compare.py" "$CSV" "$CSV" >"$DIR/compare-same.txt"; then
	echo "PASS compare-same"
else
	echo "FAIL compare-same (see $DIR/compare-same.txt)"
fi
awk -F, -v OFS=, 'NR == 2 { $4 = $4 * 2 } { print }' "$CSV" >"$DIR/doubled.csv"
if "$HERE/compare.py" -f read_iops "$CSV" "$DIR/doubled.csv" >"$DIR/compare-doubled.txt"; then
	echo "FAIL compare-doubled (doubled read IOPS reproduced: see $DIR/compare-doubled.txt)"
else
	echo "PASS compare-doubled"
fi
