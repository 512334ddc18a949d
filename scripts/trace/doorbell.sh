#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Doorbell to fetch: how long NVMe commands sat in their submission queue
# after vflash's dispatcher first saw them (vflash_request_submit
# arrive_ns - doorbell_ns), and how long before that its previous look at
# the doorbell was (doorbell_ns - polled_ns: the host's doorbell write fell
# in that gap, which is as close as a polling device can tell).
#
# usage: scripts/trace/doorbell.sh [-q] TRACE
#   TRACE  text trace (scripts/trace/record.sh, /sys/kernel/tracing/trace,
#          trace-cmd report, perf script; "-" for stdin)
#   -q     one line per queue as well (qid=N)
# One line per device, each command counted once (by its request id):
#   vflash0 nvme: 1500 commands; doorbell to fetch p50 N p99 N max N ns;
#   poll gap before the doorbell p50 N p99 N max N ns
# Commands without a doorbell time (fetched before the submit event was
# on) are counted apart. Prints "doorbell: no NVMe command ..." and exits
# 0 when the trace has none.
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

perq=0
while getopts "qh" opt; do
	case $opt in
	q) perq=1 ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2
dir=$(dirname "$0")

# "GROUP KIND VALUE": KIND f (doorbell to fetch), g (poll gap), n (no
# doorbell time), sorted by group, kind and value
awk -v perq="$perq" -f "$dir/events.awk" -f - "$1" <<'AWK' |
vflash_event() && EV == "request_submit" && FE == "nvme" {
	id = DEV " " V["id"]
	if (id in seen)
		next
	seen[id] = 1
	g = "vflash" DEV
	if (V["doorbell_ns"] + 0 == 0) {
		print g, "n", 0
		if (perq)
			print g "/qid=" V["qid"], "n", 0
		next
	}
	f = int_str(V["arrive_ns"] - V["doorbell_ns"])
	print g, "f", f
	if (perq)
		print g "/qid=" V["qid"], "f", f
	if (V["polled_ns"] + 0 > 0) {
		p = int_str(V["doorbell_ns"] - V["polled_ns"])
		print g, "g", p
		if (perq)
			print g "/qid=" V["qid"], "g", p
	}
}
AWK
sort -k1,1 -k2,2 -k3,3n | awk '
function pct(p,    r) {
	r = int((n * p + 99) / 100)
	return v[r < 1 ? 1 : r]
}
function flush_kind() {
	if (kind == "f")
		fl = sprintf("doorbell to fetch p50 %s p99 %s max %s ns", pct(50), pct(99), v[n])
	else if (kind == "g")
		gl = sprintf("poll gap before the doorbell p50 %s p99 %s max %s ns", pct(50), pct(99), v[n])
	else if (kind == "n")
		none = n
	if (kind == "f")
		cmds = n
	n = 0
}
function flush_group() {
	if (group == "")
		return
	flush_kind()
	line = group " nvme: " cmds " commands"
	if (fl != "")
		line = line "; " fl
	if (gl != "")
		line = line "; " gl
	if (none)
		line = line "; " none " without a doorbell time"
	print line
	any = 1
	fl = gl = ""
	cmds = none = 0
}
{
	if ($1 != group) {
		flush_group()
		group = $1
		kind = $2
	} else if ($2 != kind) {
		flush_kind()
		kind = $2
	}
	v[++n] = $3
}
END {
	flush_group()
	if (!any)
		print "doorbell: no NVMe command in the trace (vflash_request_submit of frontend nvme)"
}'
