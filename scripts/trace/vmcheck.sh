#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the VM suite "trace" (its "# vmtest-host:" line): plot the
# traces the suite sent (DIR/files/*.trace) with scripts/trace/plot.sh and
# check them again with the host's awk. Prints one PASS/FAIL/SKIP line per
# test, as the guest does.
#
# usage: scripts/trace/vmcheck.sh DIR     (build/vmtest/trace)
#   per trace NAME.trace: check_NAME (check.sh, lenient flags: the guest
#   ran the strict ones) and plots_NAME (plot.sh makes every PNG the
#   trace's events call for, each a non-empty PNG)
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '$d'; exit "$1"; }

[ "${1:-}" != -h ] || usage 0
[ $# -eq 1 ] || usage 2
dir=$(dirname "$0")
vm=$1

# What each trace must give: the PNGs its events call for.
expect() {
	case $1 in
	nvme) echo "trace-die-timeline.png trace-breakdown-nvme-read.png trace-lateness-cdf.png" ;;
	tc) echo "trace-die-timeline.png trace-breakdown-nvme-read.png trace-lateness-cdf.png" ;;
	cxl) echo "trace-die-timeline.png trace-breakdown-cxl-read.png trace-lateness-cdf.png" ;;
	gc) echo "trace-die-timeline.png trace-breakdown-nvme-read.png trace-lateness-cdf.png" ;;
	esac
}

# is_png FILE: non-empty, with the PNG signature
is_png() {
	[ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

for name in nvme tc cxl gc; do
	t=$vm/files/$name.trace
	if [ ! -f "$t" ]; then
		echo "FAIL check_$name (no $t: the guest did not send it)"
		echo "FAIL plots_$name"
		continue
	fi
	if "$dir/check.sh" "$t" >"$vm/files/$name.counts" 2>&1; then
		echo "PASS check_$name"
	else
		grep error "$vm/files/$name.counts" | sed 's/^/  /' >&2
		echo "FAIL check_$name"
	fi
	if ! command -v gnuplot >/dev/null; then
		echo "SKIP plots_$name (no gnuplot: scripts/setup.sh installs gnuplot-nox)"
		continue
	fi
	out=$vm/plots-$name
	rm -rf "$out"
	ok=1
	"$dir/plot.sh" "$t" "$out" >&2 || ok=0
	for png in $(expect $name); do
		is_png "$out/$png" || { echo "  $out/$png: missing or not a PNG" >&2; ok=0; }
	done
	if [ $ok = 1 ]; then
		echo "PASS plots_$name"
	else
		echo "FAIL plots_$name"
	fi
done
