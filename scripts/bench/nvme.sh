#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# NVMe benchmark of a loaded vflash (frontend=nvme): fio jobs with JSON
# output, one table of IOPS, bandwidth and p50/p99/p99.9 latency per job,
# and for the 4 KiB QD1 read the ratio of the measured median latency to
# the model's prediction (stats/model_read_latency_ns).
#
# With a null_blk baseline (-n), every job also runs on null_blk, the
# table gives vflash / null_blk, and the host's own I/O-stack time is
# taken as null_blk's QD1 median: config/host_overhead_ns is set to it,
# the QD1 job runs again, and the accuracy is printed with and without
# it. -O NS gives the overhead instead of measuring it.
#
# null_blk completes a QD1 read on the submitting CPU; vflash's completion
# comes from its dispatcher thread on another CPU, as an interrupt. So the
# QD1 job also runs once with every latency knob at 0 (a device that takes
# no time): its median is the round trip through the host and vflash's
# frontend alone, and the accuracy is given with that as host_overhead_ns
# too.
#
# usage: scripts/bench/nvme.sh [-d DEV] [-n NULLDEV] [-t SECONDS]
#        [-s SIZE] [-o DIR] [-O NS] [-P]
#   -d DEV      the vflash namespace (default /dev/nvme0n1); it is
#               overwritten, so its model must start with "vflash"
#   -n NULLDEV  a null_blk device (/dev/nullbN) to run the same jobs on
#   -t SECONDS  runtime per job after a 2 s ramp (default 15)
#   -s SIZE     the region the jobs use, fio syntax (default 1G)
#   -o DIR      where fio's JSON files go (default /tmp/vflash-bench)
#   -O NS       host overhead in ns (instead of null_blk's QD1 median)
#   -P          skip preconditioning (the region is already written)
#
# Needs fio and jq. POSIX sh, so that it runs in the project's VM too
# (busybox); `make bench-nvme` runs it there (scripts/bench/vm/).
set -eu

DEV=/dev/nvme0n1
NULLDEV=
RUNTIME=15
RAMP=2
SIZE=1G
OUT=/tmp/vflash-bench
OVERHEAD=
PRECOND=1
SYS=/sys/class/vflash/vflash0

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../helpers.sh"
DIE_PREFIX=bench

while getopts d:n:t:s:o:O:Ph opt; do
	case $opt in
	d) DEV=$OPTARG ;;
	n) NULLDEV=$OPTARG ;;
	t) RUNTIME=$OPTARG ;;
	s) SIZE=$OPTARG ;;
	o) OUT=$OPTARG ;;
	O) OVERHEAD=$OPTARG ;;
	P) PRECOND=0 ;;
	*) sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit 2 ;;
	esac
done

command -v fio >/dev/null || die "fio not found"
command -v jq >/dev/null || die "jq not found"
[ -b "$DEV" ] || die "$DEV is not a block device"
blk=$(basename "$DEV")
model=$(cat "/sys/block/$blk/device/model" 2>/dev/null || true)
case $model in
vflash*) ;;
*) die "$DEV's model is '$model', not vflash: refusing to overwrite it" ;;
esac
[ -r "$SYS/stats/model_read_latency_ns" ] ||
	die "$SYS/stats/model_read_latency_ns missing: is this vflash loaded?"
if [ -n "$NULLDEV" ]; then
	case $(basename "$NULLDEV") in
	nullb*) [ -b "$NULLDEV" ] || die "$NULLDEV is not a block device" ;;
	*) die "$NULLDEV is not a null_blk device" ;;
	esac
fi
mkdir -p "$OUT"

# run_fio TAG DEVICE RW BS DEPTH ENGINE: one job, JSON in $OUT/TAG.json
run_fio() {
	echo "bench: $1 on $2 (${RUNTIME}s)" >&2
	fio --name="$1" --filename="$2" --rw="$3" --bs="$4" --iodepth="$5" \
		--ioengine="$6" --direct=1 --size="$SIZE" --time_based \
		--runtime="$RUNTIME" --ramp_time="$RAMP" --norandommap \
		--randrepeat=0 --lat_percentiles=1 \
		--percentile_list=50:99:99.9 --output-format=json \
		--output="$OUT/$1.json" >/dev/null ||
		die "fio $1 on $2 failed (see $OUT/$1.json)"
}

# result TAG: "IOPS BW_BYTES P50_NS P99_NS P999_NS" of the job's one
# direction (reads for read jobs, writes for write jobs)
result() {
	jq -r '.jobs[0] as $j
		| (if $j.read.io_bytes > 0 then $j.read else $j.write end) as $d
		| if $j.error != 0 then "error" else
		  "\($d.iops) \($d.bw_bytes) \($d.lat_ns.percentile["50.000000"])" +
		  " \($d.lat_ns.percentile["99.000000"])" +
		  " \($d.lat_ns.percentile["99.900000"])" end' "$OUT/$1.json"
}

p50_of() {
	result "$1" | awk '{ print $3 }'
}

# The knobs that make up a read's time (docs/design/backend.md).
TIME_KNOBS="slc_read_ns qlc_read_l_ns qlc_read_cl_ns qlc_read_cu_ns
qlc_read_u_ns main_read_ns channel_xfer_ns host_xfer_ns fw_overhead_ns"

# The jobs: TAG RW BS DEPTH ENGINE
JOBS="randread-4k-qd1 randread 4k 1 psync
randread-4k-qd32 randread 4k 32 libaio
randwrite-4k-qd32 randwrite 4k 32 libaio
seqread-128k-qd32 read 128k 32 libaio
seqwrite-128k-qd32 write 128k 32 libaio"

# Reads of never-written pages cost no flash time: write the region first.
if [ "$PRECOND" = 1 ]; then
	echo "bench: preconditioning $SIZE of $DEV" >&2
	fio --name=precondition --filename="$DEV" --rw=write --bs=128k \
		--iodepth=32 --ioengine=libaio --direct=1 --size="$SIZE" \
		--output-format=json --output="$OUT/precondition.json" \
		>/dev/null || die "preconditioning failed"
fi

old_overhead=$(cat "$SYS/config/host_overhead_ns")
echo 0 >"$SYS/config/host_overhead_ns"
echo "$JOBS" | while read -r tag rw bs depth engine; do
	echo 0 >"$SYS/stats/reset"
	run_fio "vflash-$tag" "$DEV" "$rw" "$bs" "$depth" "$engine"
	if [ "$tag" = randread-4k-qd1 ]; then
		cat "$SYS/stats/read_latency_p50_ns" >"$OUT/device-p50-qd1"
	fi
	if [ -n "$NULLDEV" ]; then
		run_fio "null_blk-$tag" "$NULLDEV" "$rw" "$bs" "$depth" \
			"$engine"
	fi
	# Right after the plain QD1 read: the same with host_overhead_ns.
	if [ "$tag" = randread-4k-qd1 ]; then
		oh=$OVERHEAD
		[ -n "$oh" ] || [ -z "$NULLDEV" ] ||
			oh=$(p50_of null_blk-randread-4k-qd1)
		if [ -n "$oh" ]; then
			echo "$oh" >"$OUT/host-overhead-ns"
			echo "$oh" >"$SYS/config/host_overhead_ns" ||
				die "host_overhead_ns=$oh rejected"
			run_fio "vflash-$tag-overhead" "$DEV" "$rw" "$bs" \
				"$depth" "$engine"
			echo 0 >"$SYS/config/host_overhead_ns"
		fi
		# A device that takes no time: the frontend's round trip.
		saved=
		for k in $TIME_KNOBS; do
			saved="$saved $(cat "$SYS/config/$k")"
			echo 0 >"$SYS/config/$k"
		done
		run_fio "vflash-$tag-zero" "$DEV" "$rw" "$bs" "$depth" \
			"$engine"
		# shellcheck disable=SC2086 # one word per knob
		set -- $saved
		for k in $TIME_KNOBS; do
			echo "$1" >"$SYS/config/$k"
			shift
		done
		oh=$(p50_of "vflash-$tag-zero")
		[ "$oh" -le 1000000 ] || oh=1000000
		echo "$oh" >"$OUT/frontend-overhead-ns"
		echo "$oh" >"$SYS/config/host_overhead_ns"
		run_fio "vflash-$tag-zero-overhead" "$DEV" "$rw" "$bs" \
			"$depth" "$engine"
		echo 0 >"$SYS/config/host_overhead_ns"
	fi
done
echo "$old_overhead" >"$SYS/config/host_overhead_ns"

# The report.
model_ns=$(cat "$SYS/stats/model_read_latency_ns")
echo
echo "vflash $DEV (profile $(cat "$SYS/profile")); fio $(fio --version)," \
	"${RUNTIME}s per job, region $SIZE; JSON in $OUT"
printf '%-20s %-9s %10s %9s %9s %9s %9s\n' job device IOPS MiB/s \
	'p50 us' 'p99 us' 'p99.9 us'
row() {
	result "$1" | awk -v job="$2" -v dev="$3" '
		$1 == "error" { printf "%-20s %-9s fio error\n", job, dev; next }
		{ printf "%-20s %-9s %10.0f %9.1f %9.1f %9.1f %9.1f\n", job, dev,
			$1, $2 / 1048576, $3 / 1000, $4 / 1000, $5 / 1000 }'
}
echo "$JOBS" | while read -r tag rest; do
	row "vflash-$tag" "$tag" vflash
	[ -z "$NULLDEV" ] || row "null_blk-$tag" "$tag" null_blk
	if [ "$tag" = randread-4k-qd1 ] && [ -f "$OUT/host-overhead-ns" ]; then
		row "vflash-$tag-overhead" "$tag" "vflash+oh"
	fi
	if [ "$tag" = randread-4k-qd1 ]; then
		row "vflash-$tag-zero" "$tag" "vflash-0"
		row "vflash-$tag-zero-overhead" "$tag" "vflash+oh0"
	fi
done

if [ -n "$NULLDEV" ]; then
	echo
	echo "vflash / null_blk (IOPS):"
	echo "$JOBS" | while read -r tag rest; do
		v=$(result "vflash-$tag" | awk '{ print $1 }')
		n=$(result "null_blk-$tag" | awk '{ print $1 }')
		awk -v t="$tag" -v v="$v" -v n="$n" \
			'BEGIN { printf "  %-20s %.2f\n", t, (n > 0 ? v / n : 0) }'
	done
fi

echo
echo "QD1 4 KiB read, median vs the model's prediction ($model_ns ns," \
	"stats/model_read_latency_ns):"
awk -v m="$model_ns" -v p="$(p50_of vflash-randread-4k-qd1)" \
	-v d="$(cat "$OUT/device-p50-qd1")" 'BEGIN {
	printf "  without host_overhead_ns: p50 %.1f us = %.2f x model" \
		" (device-side p50 %.1f us)\n", p / 1000, p / m, d / 1000 }'
if [ -f "$OUT/host-overhead-ns" ]; then
	src="null_blk QD1 p50"
	[ -z "$OVERHEAD" ] || src="given with -O"
	awk -v m="$model_ns" -v oh="$(cat "$OUT/host-overhead-ns")" -v src="$src" \
		-v p="$(p50_of vflash-randread-4k-qd1-overhead)" 'BEGIN {
		printf "  with host_overhead_ns=%d (%s): p50 %.1f us" \
			" = %.2f x model\n", oh, src, p / 1000, p / m }'
fi
awk -v m="$model_ns" -v oh="$(cat "$OUT/frontend-overhead-ns")" \
	-v p="$(p50_of vflash-randread-4k-qd1-zero-overhead)" 'BEGIN {
	printf "  with host_overhead_ns=%d (vflash QD1 p50 with a zero-time" \
		" model): p50 %.1f us = %.2f x model\n", oh, p / 1000, p / m
	if (oh >= m)
		printf "  (the round trip with no device time is already" \
			" %.2f x model: no host_overhead_ns can reach it)\n",
			oh / m }'
