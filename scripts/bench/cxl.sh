#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CXL benchmark: scripts/tools/mmap_lat on /dev/vflash0 (frontend=cxl)
# against a plain devdax device (and anonymous memory, for reference) in
# one run, and the ratios issue 6 sets targets for:
#
#  hit      throughput of random loads over a cache-resident working set
#           (50% of the cache, warmed first, --untimed) on vflash, over
#           the same on devdax, run right before it: the median of five
#           such pairs; target >= 0.95
#  miss     with every latency knob at 0, the median first-touch miss on
#           vflash over the median first-touch fault on devdax (a fresh
#           mapping: every access faults); target <= 1.2. That median
#           is vflash's miss overhead.
#  cylon    on profile=cylon, the median first-touch miss against the
#           model's read (stats/model_read_latency_ns: tR 40 us plus the
#           host link) plus that overhead; target within 10%
#  threads  on profile=cylon, the median miss with 2 threads missing on
#           different pages over that with 1; target <= 1.05
#
# Misses are measured with --first-touch over 4x the cache in random
# order right after a load: every access is a miss, most of them on a
# full cache (the evictor refills the free pool meanwhile). The device is
# preconditioned first (config/precondition), since a never-written page
# costs no NAND read, and the programs that charges are left to finish.
# Prefetch is off (policy/prefetch none: a prefetched page's first touch
# would be a minor fault, not a miss); eviction stays at its default.
#
# vflash is loaded (frontend=cxl, SIZE, CACHE) and unloaded once per
# measurement, so every run starts with an empty cache; it must not be
# loaded when the script starts. The devdax device is only read.
#
# Output: one line per measurement (mmap_lat's key=value line, plus the
# kernel's own miss count, p50 and p99, evictions and direct evictions
# for vflash), then one line per
# ratio with its target and PASS or MISS (a missed target is reported,
# not an error), then control ratios without targets: the zero-time
# miss without eviction against devdax, the same with the evictor
# further ahead (free pool 10-20 %), devdax's own two-thread
# first-touch p50 against one thread, and the two-thread ratio of cylon
# misses within the cache (no eviction).
# With -o DIR, the CDFs (mmap_lat --cdf) go to DIR/cdf-NAME.txt, among
# them the bimodal hits-and-misses profile of random loads over twice the
# cache on cylon.
#
# usage: scripts/bench/cxl.sh [-k KO] [-x DAXDEV] [-s SIZE] [-c CACHE]
#        [-n ACCESSES] [-w NS] [-m MAPTOOL] [-o DIR]
#   -k KO       vflash.ko to load (default ./vflash.ko)
#   -x DAXDEV   the devdax baseline (default /dev/dax0.0), at least 4x
#               CACHE; e.g. memmap=1G!4G on the kernel command line, then
#               ndctl create-namespace -f -e namespace0.0 -m devdax -a 4096
#   -s SIZE     vflash's size= (default 512M)
#   -c CACHE    vflash's cache_size= (default 32M)
#   -n ACCESSES accesses per hit run (default 2M)
#   -w NS       config/wait_spin_ns for every vflash run (default: the
#               module's, 20 us: a 40 us wait sleeps, then spins); the
#               cylon misses are also run once with the other choice
#               (the module's default if -w is given, else all spun)
#   -m MAPTOOL  the mmap_lat binary (default: mmap_lat in PATH, else
#               scripts/tools/mmap_lat)
#   -o DIR      where the CDF files go (default /tmp/vflash-bench-cxl)
#
# Needs root. POSIX sh, so that it runs in the project's VM too (busybox);
# `make bench-cxl` runs it there (scripts/bench/vm/bench-cxl.sh).
#
# (HIT, FT and NE below are lists of mmap_lat options, split on purpose.)
# shellcheck disable=SC2086
set -eu

KO=./vflash.ko
DAX=/dev/dax0.0
SIZE=512M
CACHE=32M
ACCESSES=2M
MAPLAT=
WAIT_SPIN=
OUT=/tmp/vflash-bench-cxl
SYS=/sys/class/vflash/vflash0
DEV=/dev/vflash0
# Every latency knob of the flash model, for the zero-time device.
ZERO_KNOBS="slc_read_ns main_read_ns qlc_read_l_ns qlc_read_cl_ns
	qlc_read_cu_ns qlc_read_u_ns slc_prog_ns main_prog_ns slc_erase_ns
	main_erase_ns channel_xfer_ns host_xfer_ns fw_overhead_ns"

# Set while this script has vflash loaded, so that die unloads only that.
LOADED=

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../helpers.sh"
DIE_PREFIX=bench
die_cleanup() {
	[ -z "$LOADED" ] || $RMMOD vflash 2>/dev/null || true
}

while getopts k:x:s:c:n:w:m:o:h opt; do
	case $opt in
	k) KO=$OPTARG ;;
	x) DAX=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	c) CACHE=$OPTARG ;;
	n) ACCESSES=$OPTARG ;;
	w) WAIT_SPIN=$OPTARG ;;
	m) MAPLAT=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) sed -n '4,/^# (HIT/{/^# (HIT/d;s/^# \{0,1\}//p;}' "$0" |
		sed '${/^$/d;}'; exit 2 ;;
	esac
done

# kmod's, not busybox's (which retries a failed load, running init twice).
INSMOD=insmod
RMMOD=rmmod
[ ! -x /sbin/insmod ] || INSMOD=/sbin/insmod
[ ! -x /sbin/rmmod ] || RMMOD=/sbin/rmmod

if [ -z "$MAPLAT" ]; then
	MAPLAT=$(command -v mmap_lat || true)
	[ -n "$MAPLAT" ] || MAPLAT=$(dirname "$0")/../tools/mmap_lat
fi
[ -x "$MAPLAT" ] || die "no mmap_lat ($MAPLAT): run make tools"
[ -f "$KO" ] || die "no $KO"
[ -c "$DAX" ] || die "$DAX is not a character device"
[ ! -d /sys/module/vflash ] || die "vflash is loaded: unload it first"
mkdir -p "$OUT"

# bytes N[KMG]: N in bytes
bytes() {
	echo "$1" | awk '{ n = $1 + 0; u = substr($1, length($1));
		if (u == "K" || u == "k") n *= 1024;
		if (u == "M" || u == "m") n *= 1048576;
		if (u == "G" || u == "g") n *= 1073741824;
		printf "%d\n", n }'
}
CACHE_BYTES=$(bytes "$CACHE")
# config/wait_spin_ns after a load (docs/cxl.md)
DEFAULT_WAIT_SPIN=20000
MISS_WS=$((4 * CACHE_BYTES))

# vload PROFILE [zero]: vflash with an empty cache, preconditioned, no
# prefetch, counters zeroed; "zero" sets every latency knob to 0 first.
vload() {
	n=0
	$INSMOD "$KO" frontend=cxl profile="$1" size="$SIZE" \
		cache_size="$CACHE" || die "insmod $KO profile=$1"
	LOADED=1
	while [ ! -c $DEV ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -c $DEV ] || die "$DEV did not appear"
	echo none >$SYS/policy/prefetch
	[ -z "$WAIT_SPIN" ] || echo "$WAIT_SPIN" >$SYS/config/wait_spin_ns ||
		die "config/wait_spin_ns=$WAIT_SPIN"
	if [ "${2:-}" = zero ]; then
		for k in $ZERO_KNOBS; do
			echo 0 >"$SYS/config/$k" || die "config/$k"
		done
	fi
	echo 1 >$SYS/config/precondition
	# The programs it charged to the dies finish in model time (about
	# pages x tPROG / dies: 0.4 s for 512M on cylon); wait them out.
	sleep 2
	echo 0 >$SYS/stats/reset
}

# run NAME ARGS...: mmap_lat ARGS, its line printed as "NAME key=value...";
# the line stays in $LINE. With a vflash target the kernel's miss
# count and median join it, and its evictions: all, and those the misses
# did themselves (direct; the rest the background evictor did).
run() {
	name=$1
	shift
	LINE=$("$MAPLAT" "$@") || die "mmap_lat $*"
	case " $* " in
	*" $DEV "*)
		LINE="$LINE kmisses=$(cat $SYS/stats/misses) kmiss_p50_ns=$(cat $SYS/stats/miss_latency_p50_ns) kmiss_p99_ns=$(cat $SYS/stats/miss_latency_p99_ns) kevictions=$(cat $SYS/stats/evictions) kdirect=$(cat $SYS/stats/direct_evictions)"
		;;
	esac
	echo "$name $LINE"
}

# ratio NAME VALUE TARGET_TEXT PASS_CONDITION(awk, on v)
ratio() {
	awk -v name="$1" -v v="$2" -v t="$3" -v c="$4" 'BEGIN {
		ok = 0
		if (c == "ge0.95") ok = v >= 0.95
		if (c == "le1.2") ok = v <= 1.2
		if (c == "le1.05") ok = v <= 1.05
		if (c == "within0.1") ok = v >= 0.9 && v <= 1.1
		printf "ratio %s=%.3f target %s %s\n", name, v, t, ok ? "PASS" : "MISS"
	}'
}

# control NAME VALUE TEXT: a ratio without a target, for comparison
control() {
	awk -v name="$1" -v v="$2" -v t="$3" 'BEGIN {
		printf "control %s=%.3f (%s)\n", name, v, t
	}'
}

div() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f\n", (b > 0 ? a / b : 0) }'
}

HIT_WS=50%
HIT="--cache $CACHE_BYTES --ws $HIT_WS --mode rand --accesses $ACCESSES"
FT="--ws $MISS_WS --map-size $MISS_WS --first-touch"
echo "config size=$SIZE cache=$CACHE_BYTES hit_ws=$HIT_WS of the cache miss_ws=$MISS_WS accesses=$ACCESSES dax=$DAX"

# Anonymous memory and devdax.
run anon-hit --target anon $HIT --untimed
run anon-first-touch --target anon $FT --cdf "$OUT/cdf-anon-first-touch.txt"
run devdax-hit-timed --target "$DAX" $HIT --cdf "$OUT/cdf-devdax-hit.txt"
run devdax-first-touch --target "$DAX" $FT --cdf "$OUT/cdf-devdax-first-touch.txt"
dax_ft=$(kv_field "$LINE" p50_ns)
# Control for the two-thread ratio: what a second faulting thread costs
# without vflash (on a host with fewer free cores than vCPUs, e.g. TCG
# on a busy machine, it is not 1).
run devdax-first-touch-2t --target "$DAX" $FT --threads 2
dax_ft2=$(kv_field "$LINE" p50_ns)

# vflash, hit path (cylon; the warm-up's misses are not timed). Five
# pairs of runs, devdax then vflash back to back; the hit ratio is the
# median of the five pairs' ratios, so that a burst of load elsewhere on
# the host, or TCG's softmmu TLB happening to hold the whole working set
# in one run (seen: one run 3-4x faster than the others, on either
# target), does not decide it.
vload cylon
echo "vflash eviction $(cat $SYS/policy/eviction) wait_spin_ns $(cat $SYS/config/wait_spin_ns)"
hit_ratios=
for _ in 1 2 3 4 5; do
	run devdax-hit --target "$DAX" $HIT --untimed
	dax_mops=$(kv_field "$LINE" mops)
	run vflash-hit --target $DEV $HIT --untimed
	hit_ratios="$hit_ratios $(div "$(kv_field "$LINE" mops)" "$dax_mops")"
done
run vflash-hit-timed --target $DEV $HIT --cdf "$OUT/cdf-vflash-hit.txt"
vunload

# vflash, a device that takes no time: the miss path's own cost.
vload cylon zero
run vflash-zero-miss --target $DEV $FT --cdf "$OUT/cdf-vflash-zero-miss.txt"
overhead=$(kv_field "$LINE" p50_ns)
vunload
# The same with the evictor working further ahead (free pool refilled
# from 10 % to 20 % of the slots, against 1 % to 3 %): how much of the
# miss's cost is evicting in the fault (kdirect) rather than the
# evictor's unmaps and their TLB-flush IPIs (for comparison).
vload cylon zero
echo 20 >$SYS/config/cache_free_high_pct
echo 10 >$SYS/config/cache_free_low_pct
run vflash-zero-miss-ahead --target $DEV $FT
ahead=$(kv_field "$LINE" p50_ns)
vunload
# The same within the cache: no eviction at all (for comparison).
vload cylon zero
run vflash-zero-miss-noevict --target $DEV --ws "$((CACHE_BYTES / 2))" \
	--first-touch
noevict=$(kv_field "$LINE" p50_ns)
vunload

# cylon: misses, 1 and 2 threads, then hits and misses mixed.
vload cylon
model=$(cat $SYS/stats/model_read_latency_ns)
run vflash-cylon-miss --target $DEV $FT --cdf "$OUT/cdf-vflash-cylon-miss.txt"
cy1=$(kv_field "$LINE" p50_ns)
echo "vflash-cylon-miss device read p50_ns=$(cat $SYS/stats/read_latency_p50_ns) model_read_ns=$model"
vunload
vload cylon
run vflash-cylon-miss-2t --target $DEV $FT --threads 2
cy2=$(kv_field "$LINE" p50_ns)
vunload
# The same two within the cache, so that nothing is evicted (a control
# for the two-thread ratio: what is left without eviction).
NE="--ws $((CACHE_BYTES / 2)) --first-touch"
vload cylon
run vflash-cylon-miss-noevict --target $DEV $NE
ne1=$(kv_field "$LINE" p50_ns)
vunload
vload cylon
run vflash-cylon-miss-noevict-2t --target $DEV $NE --threads 2
ne2=$(kv_field "$LINE" p50_ns)
vunload
# The same two with the other way of waiting (for comparison): every
# NAND wait spun, or, if -w was given, the module's default.
alt=1000000000
[ -z "$WAIT_SPIN" ] || alt=$DEFAULT_WAIT_SPIN
vload cylon
echo $alt >$SYS/config/wait_spin_ns
run vflash-cylon-miss-wait$alt --target $DEV $FT
vunload
vload cylon
echo $alt >$SYS/config/wait_spin_ns
run vflash-cylon-miss-wait$alt-2t --target $DEV $FT --threads 2
vunload
vload cylon
run vflash-cylon-rand --target $DEV --cache "$CACHE_BYTES" --ws 200% \
	--mode rand --accesses 40000 --cdf "$OUT/cdf-vflash-cylon-rand.txt"
vunload

ratio hit "$(printf '%s\n' $hit_ratios | median)" ">=0.95 (vflash/devdax Mops, resident, median of 5 pairs:$hit_ratios)" ge0.95
ratio miss_overhead "$(div "$overhead" "$dax_ft")" "<=1.2 (zero-time miss p50 / devdax first-touch p50)" le1.2
ratio cylon_miss "$(div "$cy1" "$((model + overhead))")" "0.9-1.1 (cylon miss p50 / (model read $model + overhead $overhead ns))" within0.1
ratio two_threads "$(div "$cy2" "$cy1")" "<=1.05 (cylon miss p50, 2 threads / 1 thread)" le1.05
control miss_overhead_noevict "$(div "$noevict" "$dax_ft")" "zero-time miss p50 within the cache, no eviction / devdax first-touch p50"
control miss_overhead_ahead "$(div "$ahead" "$dax_ft")" "zero-time miss p50, free pool refilled from 10 % to 20 % of the slots / devdax first-touch p50"
control cylon_miss_noevict "$(div "$cy1" "$((model + noevict))")" "cylon miss p50 / (model read + the zero-time miss p50 without eviction, $noevict ns): slow misses leave the evictor time to keep the free pool filled"
control two_threads_devdax "$(div "$dax_ft2" "$dax_ft")" "devdax first-touch p50, 2 threads / 1 thread"
control two_threads_noevict "$(div "$ne2" "$ne1")" "cylon miss p50 within the cache, no eviction, 2 threads / 1 thread"
