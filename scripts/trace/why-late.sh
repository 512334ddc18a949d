#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Where the lateness of a trace's completions comes from, per frontend.
# Completions are taken per posting thread (the trace's task column: an
# NVMe completion worker or dispatcher, or the thread whose CXL miss it
# was), in the order they were posted. For each, against the thread's
# previous completion:
#   asleep   the thread had posted everything before this one fell due, yet
#            posted it late: it was not running at the due time (a timer's
#            late wake-up, or the host not running its vCPU); all of late_ns
#   queued   it fell due while the thread was still catching up on earlier
#            ones: the part of late_ns until the previous post. Mostly the
#            same stall as the "asleep" entry that opened the burst, seen
#            by the entries that fell due during it
#   posting  the rest: this entry's own posting time
# A post ("posting") of more than 50 us is a stall inside a batch: the thread
# stopped running between two entries (an entry takes about a microsecond).
#
# usage: scripts/trace/why-late.sh TRACE
#   TRACE   text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#           trace-cmd report) with vflash_request_complete events
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

while getopts "h" opt; do
	case $opt in
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2
[ -r "$1" ] || { echo "why-late: cannot read $1" >&2; exit 1; }

awk -f "$(dirname "$0")/events.awk" -f - "$1" <<'AWK'
function us(ns) { return sprintf("%.1f", ns / 1000) }
function pct(a, b) { return b ? sprintf("%.1f %%", 100 * a / b) : "-" }
vflash_event() && EV == "request_complete" {
	task = $1
	due = V["due_ns"] + 0
	act = V["actual_ns"] + 0
	late = act > due ? act - due : 0
	n[FE]++
	total[FE] += late
	if (!(task in prev) || prev[task] <= due) {
		asleep[FE] += late
		if (late > asleepmax[FE])
			asleepmax[FE] = late
	} else {
		b = prev[task] - due
		if (b > late)
			b = late
		queued[FE] += b
		posting[FE] += late - b
		if (late - b > 50000)
			stalls[FE]++
		if (late - b > postmax[FE])
			postmax[FE] = late - b
	}
	if (!(task in prev) || act > prev[task])
		prev[task] = act
}
END {
	if (!length(n)) {
		print "why-late: no vflash_request_complete events" > "/dev/stderr"
		exit 1
	}
	printf "%-5s %6s %12s %22s %22s %20s %7s %14s %15s\n", "fe", "done",
	       "late_us", "asleep_us", "queued_us", "posting_us", "stalls",
	       "asleep_max_us", "posting_max_us"
	for (fe in n)
		printf "%-5s %6d %12s %22s %22s %20s %7d %14s %15s\n", fe, n[fe],
		       us(total[fe]),
		       us(asleep[fe]) " (" pct(asleep[fe], total[fe]) ")",
		       us(queued[fe]) " (" pct(queued[fe], total[fe]) ")",
		       us(posting[fe]) " (" pct(posting[fe], total[fe]) ")",
		       stalls[fe], us(asleepmax[fe]), us(postmax[fe])
}
AWK
