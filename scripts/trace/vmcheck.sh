#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host side of the VM suite "trace" (its "# vmtest-host:" line): plot the
# traces the suite sent (DIR/files/*.trace) with scripts/trace/plot.sh and
# check them again with the host's awk. Prints one PASS/FAIL/SKIP line per
# test, as the guest does.
#
# usage: scripts/trace/vmcheck.sh DIR     (build/vmtest/trace)
#   check_NAME  per trace NAME.trace: check.sh with the guest's flags,
#               under the host's awk
#   plots_NAME  plot.sh makes every PNG the trace's events call for
#   check_catches  check.sh fails, saying why, on copies of the traces
#               spoilt to break each invariant it checks (the request ids'
#               pairing among them)
#   doorbell    doorbell.sh gives nvme.trace's doorbell-to-fetch time of
#               every command
#   why_late    why-late.py accounts for every NVMe completion of nvme.trace
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

[ "${1:-}" != -h ] || usage 0
[ $# -eq 1 ] || usage 2
dir=$(dirname "$0")
vm=$1

# What each trace must give: the PNGs its events call for.
expect() {
	case $1 in
	nvme|tc|gc) echo "trace-die-timeline.png trace-breakdown-nvme-read.png trace-lateness-cdf.png" ;;
	cxl) echo "trace-die-timeline.png trace-breakdown-cxl-read.png trace-lateness-cdf.png" ;;
	esac
}

# The check.sh flags the guest checked each trace with.
flags() {
	case $1 in
	nvme) echo "-w -a -o 3000 -d 16" ;;
	cxl) echo "-w -a -o 0 -d 16 -s 256" ;;
	*) echo "-w -a -o 0 -d 16" ;;
	esac
}

# is_png FILE: non-empty, with the PNG signature
is_png() {
	[ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# spoil NAME PATTERN AWK-STATEMENT ERROR: check.sh must report ERROR once
# AWK-STATEMENT has changed (next: deleted, print: doubled) the first
# line of NAME.trace that matches " PATTERN" (an awk regex)
# (with AWK-STATEMENT "all: next", every such line is deleted)
spoil() {
	bad=$vm/files/$1.spoilt
	if [ "$3" = "all: next" ]; then
		awk -v ev=" $2" '$0 !~ ev' "$vm/files/$1.trace" >"$bad"
	else
		awk -v ev=" $2" "!done && \$0 ~ ev { done = 1; $3 }
			{ print }" "$vm/files/$1.trace" >"$bad"
	fi
	# shellcheck disable=SC2046
	if "$dir/check.sh" $(flags "$1") "$bad" >"$bad.out" 2>&1; then
		echo "  check.sh passed $1.trace with its first $2 spoilt ($3)" >&2
		return 1
	fi
	grep -q "$4" "$bad.out" || {
		echo "  check.sh on $1.trace with its first $2 spoilt ($3) did not say '$4':" >&2
		grep error "$bad.out" >&2
		return 1
	}
	rm -f "$bad" "$bad.out"
}

for name in nvme tc cxl gc; do
	t=$vm/files/$name.trace
	if [ ! -f "$t" ]; then
		echo "FAIL check_$name (no $t: the guest did not send it)"
		echo "FAIL plots_$name"
		continue
	fi
	# shellcheck disable=SC2046
	if "$dir/check.sh" $(flags $name) "$t" >"$vm/files/$name.counts" 2>&1; then
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

# why-late.py splits the lateness of every NVMe completion of the trace.
t=$vm/files/nvme.trace
if [ -f "$t" ] && n=$(grep -c ' vflash_request_complete: vflash0 nvme ' "$t") &&
	"$dir/why-late.py" "$t" >"$vm/files/nvme.why" 2>&1 &&
	awk -v n="$n" '$1 == "nvme" && $2 == n { ok = 1 } END { exit !ok }' \
		"$vm/files/nvme.why"; then
	sed 's/^/  /' "$vm/files/nvme.why" >&2
	echo "PASS why_late"
else
	echo "FAIL why_late"
fi

# doorbell.sh counts every NVMe command of the trace, each with its
# doorbell-to-fetch time.
t=$vm/files/nvme.trace
if [ -f "$t" ] && n=$(grep -c ' vflash_request_complete: vflash0 nvme ' "$t") &&
	"$dir/doorbell.sh" "$t" >"$vm/files/nvme.doorbell" 2>&1 &&
	grep -q "^vflash0 nvme: $n commands; doorbell to fetch p50 [0-9]* p99 [0-9]* max [0-9]* ns" \
		"$vm/files/nvme.doorbell" &&
	! grep -q 'without a doorbell time' "$vm/files/nvme.doorbell"; then
	sed 's/^/  /' "$vm/files/nvme.doorbell" >&2
	echo "PASS doorbell"
else
	[ ! -f "$vm/files/nvme.doorbell" ] || sed 's/^/  /' "$vm/files/nvme.doorbell" >&2
	echo "FAIL doorbell"
fi

# check.sh is not vacuous: each invariant it checks fails on a trace
# spoilt to break it.
catches() {
	[ -f "$vm/files/nvme.trace" ] && [ -f "$vm/files/gc.trace" ] &&
		[ -f "$vm/files/cxl.trace" ] || return 1
	spoil nvme vflash_request_submit: 'sub(/model_ns=/, "model_ns=1")' "not the sum of its parts" &&
	spoil nvme vflash_request_submit: 'sub(/bg_wait_ns=0/, "bg_wait_ns=999999999")' "bg_wait_ns above die_wait_ns" &&
	spoil nvme vflash_request_submit: 'sub(/due_ns=/, "due_ns=1")' "is not arrive_ns + model_ns - host_overhead_ns" &&
	spoil nvme vflash_request_submit: 'next' "a completion without a submit" &&
	spoil nvme vflash_request_complete: 'sub(/late_ns=/, "late_ns=-")' "late_ns is not actual_ns - due_ns" &&
	spoil nvme vflash_request_complete: 'sub(/ actual_ns=[0-9]+ late_ns=[0-9]+/, " actual_ns=5 late_ns=-5")' "ns early" &&
	spoil nvme vflash_request_submit: 'sub(/ lpn=/, " lpn=x")' "without a numeric lpn" &&
	spoil nvme vflash_request_complete: 'sub(/ id=[0-9]+/, " id=999999999")' "submitted, never completed" &&
	spoil nvme vflash_request_complete: 'sub(/ cid=[0-9]+/, " cid=99999")' "but submitted as" &&
	spoil nvme vflash_request_complete: 'print' "completed twice" &&
	spoil nvme vflash_request_submit: 'sub(/ doorbell_ns=[0-9]+/, " doorbell_ns=0")' "without doorbell_ns" &&
	spoil nvme vflash_request_submit: 'sub(/ doorbell_ns=[0-9]+/, " doorbell_ns=99999999999999")' "doorbell_ns after arrive_ns" &&
	spoil nvme "vflash_nand: vflash0 die=[0-9]+ read host" 'sub(/ id=[0-9]+/, " id=0")' "host NAND read without a request id" &&
	spoil nvme "vflash_nand: vflash0 die=[0-9]+ read host" 'sub(/ id=[0-9]+/, " id=999999999")' "id=999999999 without its submit" &&
	spoil gc vflash_nand: 'print' "overlaps an operation" &&
	spoil gc vflash_nand: 'sub(/ die=[0-9]+/, " die=99")' "die 99 of 16" &&
	spoil gc vflash_nand: 'sub(/end_ns=[0-9]+/, "end_ns=5")' "ends before it starts" &&
	# (the debug kernel's short GC pass may free no block)
	{ ! grep -q ' vflash_clean: .* freed=1' "$vm/files/gc.trace" ||
		spoil gc "vflash_nand: vflash0 die=[0-9]+ erase" 'all: next' "without its erase"; } &&
	# (a missing eviction shows as a fill of a slot still held or, when
	# that slot was not filled again, as dirty evictions short of the
	# writebacks: which depends on the trace)
	spoil cxl vflash_cxl_evict: 'next' "while it holds lpn\|dirty evictions but" &&
	spoil cxl vflash_cxl_writeback: 'next' "dirty evictions but" &&
	spoil cxl vflash_cxl_fill: 'sub(/slot=[0-9]+/, "slot=300")' "slot 300 of 256" &&
	spoil cxl "entries-in-buffer/entries-written:" 'sub(/written: [0-9]+/, "written: 1")' "overwrote"
}
if catches; then
	echo "PASS check_catches"
else
	echo "FAIL check_catches"
fi
