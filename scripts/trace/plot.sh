#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every plot a vflash trace has data for, as PNGs (gnuplot, on the host):
#   trace-die-timeline.png        per-die occupancy: host, GC, migration
#                                 (vflash_nand; scripts/trace/timeline.py)
#   trace-breakdown-FE-read.png   where read latency went per percentile
#                                 band (vflash_request_submit; breakdown.py)
#   trace-lateness-cdf.png        completion lateness CDF per frontend
#                                 (vflash_request_complete; lateness.py)
#
# usage: scripts/trace/plot.sh TRACE OUTDIR
#   TRACE   text trace: scripts/trace/record.sh's output, a copy of
#           /sys/kernel/tracing/trace, or `trace-cmd report` output
#   OUTDIR  where the PNGs (and the data files they are drawn from) go
# Exits 1 if the trace has none of these events, or a plot failed.
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
[ -r "$trace" ] || { echo "plot: cannot read $trace" >&2; exit 1; }
command -v gnuplot >/dev/null ||
	{ echo "plot: no gnuplot (scripts/setup.sh installs gnuplot-nox)" >&2; exit 1; }
mkdir -p "$out"

made=0 rc=0
# has EVENT [PATTERN]: the trace has the event (and its payload matches)
has() { grep -Eq " (vflash:)?vflash_$1: +vflash[0-9]+ ${2:-}" "$trace"; }

if has nand; then
	"$dir/timeline.py" "$trace" "$out" && made=$((made + 1)) || rc=1
fi
if has request_submit '[a-z]+ read '; then
	"$dir/breakdown.py" "$trace" "$out" && made=$((made + 1)) || rc=1
fi
if has request_complete; then
	"$dir/lateness.py" "$trace" "$out" && made=$((made + 1)) || rc=1
fi
[ $made -gt 0 ] || { echo "plot: no vflash_nand, read submit or complete events in $trace" >&2; exit 1; }
exit $rc
