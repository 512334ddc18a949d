#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Record vflash trace events while a command runs, as text.
#
# usage: scripts/trace/record.sh [-t] [-e EVENTS] [-b KB] [-o FILE] COMMAND [ARG...]
#   -o FILE    where the text trace goes (default vflash.trace); with -t,
#              the binary one is FILE.dat
#   -e EVENTS  comma-separated events: "vflash" (all, the default) or
#              names like vflash_nand,vflash_clean
#   -b KB      per-CPU buffer size (default 16384); events that do not fit
#              are lost, and scripts/trace/check.sh says so
#   -t         record with trace-cmd (record, then report) instead of the
#              tracefs files
# The vflash module must be loaded (its events exist only then). Without
# -t, the events go to a tracefs instance of their own (instances/
# vflash-record-PID), so the global buffer and other tracers are left
# alone; tracefs is mounted at /sys/kernel/tracing if it is not yet. The
# trace clock is "mono": the trace's timestamps and the events' *_ns
# fields are then both CLOCK_MONOTONIC. Exits with the command's status.
# Then: scripts/trace/plot.sh FILE OUTDIR; scripts/trace/check.sh FILE.
set -eu

usage() { sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit "$1"; }

out=vflash.trace events=vflash kb=16384 tc=0
while getopts "to:e:b:h" opt; do
	case $opt in
	t) tc=1 ;;
	o) out=$OPTARG ;;
	e) events=$OPTARG ;;
	b) kb=$OPTARG ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage 2

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../helpers.sh"
DIE_PREFIX=record

# The tracefs mount point, mounting it if need be.
tracefs() {
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -e $t/trace ] && { echo $t; return; }
	done
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
		die "cannot mount tracefs on /sys/kernel/tracing (root? CONFIG_TRACING?)"
	echo /sys/kernel/tracing
}

T=$(tracefs) || exit 1
[ -d "$T/events/vflash" ] || die "no vflash events in $T/events: load vflash.ko first"

if [ "$tc" = 1 ]; then
	command -v trace-cmd >/dev/null || die "no trace-cmd"
	set -- -C mono -b "$kb" -o "$out.dat" "$@"
	for e in $(echo "$events" | tr ',' ' '); do
		case $e in vflash|vflash:*) ;; *) e=vflash:$e ;; esac
		set -- -e "$e" "$@"
	done
	rc=0
	trace-cmd record "$@" || rc=$?
	trace-cmd report -i "$out.dat" >"$out" || die "trace-cmd report failed"
	echo "record: $out ($(grep -c ' vflash_' "$out" || true) events; binary $out.dat)" >&2
	exit $rc
fi

I=$T/instances/vflash-record-$$
mkdir "$I" || die "cannot create the tracefs instance $I"
cleanup() { rmdir "$I" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM
echo 0 >"$I/tracing_on"
echo "$kb" >"$I/buffer_size_kb"
echo mono >"$I/trace_clock"
for e in $(echo "$events" | tr ',' ' '); do
	e=${e#vflash:}
	if [ "$e" = vflash ]; then
		echo 1 >"$I/events/vflash/enable"
	else
		[ -d "$I/events/vflash/$e" ] || die "no event vflash:$e"
		echo 1 >"$I/events/vflash/$e/enable"
	fi
done
echo >"$I/trace"
echo 1 >"$I/tracing_on"
rc=0
"$@" || rc=$?
echo 0 >"$I/tracing_on"
echo 0 >"$I/events/enable"
cat "$I/trace" >"$out"
lost=$(cat "$I"/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }')
[ "$lost" -eq 0 ] || echo "record: $lost events lost: use a bigger -b" >&2
echo "record: $out ($(grep -c ' vflash_' "$out" || true) events)" >&2
exit $rc
