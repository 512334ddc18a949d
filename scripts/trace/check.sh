#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Check the invariants of a vflash trace and count its events.
#
# usage: scripts/trace/check.sh [-w] [-a] [-o NS] [-d DIES] [-s SLOTS] TRACE
#   TRACE  text trace: /sys/kernel/tracing/trace, trace-cmd report or
#          perf script output ("-" for stdin)
#   -w     whole: the trace starts with the device idle and no page cached
#          and lost nothing, so every completion, CXL fill and writeback
#          has its request_submit and every slot's fills and evictions
#          alternate (an NVMe Dataset Management or Write Zeroes command
#          that covers no whole page submits nothing, yet completes: -w
#          reports its completion)
#   -a     no two NAND operations of a die overlap (not under the
#          read-priority maintenance policy); without -a, host ones only
#   -o NS  config/host_overhead_ns during the trace: checks each submit's
#          due_ns = arrive_ns + model_ns - min(NS, model_ns)
#   -d N   the device's dies (die numbers below N)
#   -s N   the CXL cache's slots (slot numbers below N)
# Always checked: model_ns is the sum of its parts, bg_wait_ns <=
# die_wait_ns, late_ns = actual_ns - due_ns >= 0, a NAND operation or a
# clean ends no earlier than it starts, each cleaned-and-freed block has
# its erase, misses/prefetches/dirty evictions match demand fills/prefetch
# fills/writebacks, fields are present and numeric, no event was lost.
# Prints "KEY VALUE" lines (events, submit, submit_read, complete,
# complete_nvme, early, late_max, nand_read, nand_gc, clean_freed,
# cxl_miss, ...) and up to 20 "error ..." lines; exits 1 on any error.
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

dir=$(dirname "$0")
whole=0 overlap=host oh='' dies='' slots=''
while getopts "wao:d:s:h" opt; do
	case $opt in
	w) whole=1 ;;
	a) overlap=all ;;
	o) oh=$OPTARG ;;
	d) dies=$OPTARG ;;
	s) slots=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage 2
awk -v whole="$whole" -v overlap="$overlap" -v oh="$oh" -v dies="$dies" \
	-v slots="$slots" -f "$dir/events.awk" -f "$dir/check.awk" "$1"
