#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fidelity benchmark: does vflash deliver what its own model predicts?
#
# Two rig-independent measures (docs/performance.md, "Fidelity"):
#
# 1. Lateness, on the default (not slowed) tlc profile: 4 KiB random
#    reads at QD1 (psync) and QD32 (libaio); after each, the device's own
#    record of how late it posted completions against the model's due time
#    (stats/lateness_p50_ns, _p99_ns, _p999_ns, _max_ns,
#    early_completions; "n/a" on a module without them), also as a
#    fraction of stats/model_read_latency_ns.
#
# 2. Device-bound ratios: the model is slowed through config/ (array read
#    tR = 1 ms, ...) until the device, not the host, is the bottleneck, and
#    each job's measured IOPS is divided by the model's own prediction,
#    computed here from the knobs and the geometry by the model's rules
#    (backend_flash/timing.c, request.c: a page read queues FIFO on its die for tR, then
#    its channel, then the host link, plus fw_overhead_ns; a host write
#    crosses the host link, waits for room in its die's write buffer and
#    completes then; the buffer drains by programs of one unit each, and
#    GC's reads, programs and erases run on the same die timeline):
#
#    read-1die     die-affinity placement (64-page extent e lives on die
#                  e % dies), one fio job whose strided zones are exactly
#                  die 0's extents, QD 128: predicted 1e9 / tR per second.
#    read-2die, read-4die, read-8die
#                  the same, one job per die (dies 0..D-1, each on its
#                  own channel), QD 128 each: D * 1e9 / tR. Exact: each
#                  die always has a read queued (127 ms of them), so it
#                  is never idle unless the host holds all 128 for
#                  longer; channel and host link are 200x faster than tR
#                  and booked in time order (vff_link_book()).
#    read-2die-1ch dies 0 and 8, which share channel 0: 2e9 / tR.
#    read-rand2-qd16
#                  one job, uniformly random over dies 0 and 1 (strided
#                  zones of their two extents), QD 16: the simulation
#                  below with D = 2 (a die's queue empties now and then:
#                  0.97 of 2e9 / tR with independent dies).
#    read-all-qdN  uniform random reads over the whole region (all dies),
#                  one job at QD N (-q), tR = -R (5 ms). The prediction
#                  is a deterministic closed-loop simulation of the model's
#                  rule (awk, below): N requests, each on a uniformly
#                  random die, FIFO die queue of tR, channel (die d on
#                  channel d % channels) and host link booked in time
#                  order (the first gap that holds the transfer),
#                  fw_overhead_ns, and the next request submitted the
#                  moment one completes (no host time). Not MVA: MVA
#                  assumes exponential service; the model's is fixed.
#                  60,000 submissions, the first 10 % dropped, seed 1:
#                  five seeds spread by up to 1.5 %.
#                  At low N every request finds its die idle, so the
#                  ratio is model latency / (model latency + host round
#                  trip): the line also gives the host time per I/O that
#                  the gap implies, N / measured - N / predicted.
#    write-1die    random 4 KiB writes on die 0's extents at QD 32, at
#                  steady state (die 0's share overwritten 3 times with
#                  the fast knobs first, so GC runs), main_prog_ns = -P
#                  (8 ms per program unit), tR = 1 ms (GC's reads).
#    mix-1die      the same die, 70 % reads / 30 % writes, QD 32.
#    write-2die ... write-8die, mix-2die ... mix-8die
#                  the same on dies 0..D-1, a job per die (QD 32 each),
#                  and a probe read per die after it; the die work W is
#                  the device's, so the prediction is D host pages / (W -
#                  D backlogs) per die-second.
#                  For these two the die time the model charged is taken
#                  from the counters: W = nand_program_pages / unit *
#                  main_prog_ns + nand_read_pages * main_read_ns +
#                  nand_erase_blocks * main_erase_ns (one die, the main
#                  region, so nothing else is charged). A read probe right
#                  after the job (same fio run) waits out the die's
#                  backlog B (the work charged but not yet run: write
#                  buffer and a GC run), so the die's work within fio's
#                  runtime T is W - B; predicted IOPS = host pages / (W -
#                  B). The ratio is then the die's utilisation during the
#                  run: 1 means the host kept the die saturated and the
#                  throughput is exactly what the counted work allows. It
#                  does not check the amount of work (write_amplification
#                  is printed, not predicted).
#    cxl-miss-1t   frontend=cxl, a 1 MiB cache, mmap_lat --first-touch over
#                  32 MiB (every access a miss, after the first 256 on a
#                  full cache), tR = 1 ms: predicted 1e9 /
#                  model_read_latency_ns per second (one miss at a time).
#    cxl-miss-2t   two threads: the simulation above with N = 2.
#
# A ratio outside 0.97-1.03 is flagged "OUT" in the table; it does not
# fail the run. A failing command does.
#
# usage: scripts/bench/fidelity.sh [-k KO] [-a PARAMS] [-p PARTS]
#        [-t SECONDS] [-T SECONDS] [-R NS] [-P NS] [-q QDS] [-w NS]
#        [-m MMAP_LAT] [-c CPUS] [-o DIR]
#   -k KO        vflash.ko to load (default ./vflash.ko); vflash must not
#                be loaded when the script starts. It is loaded as
#                frontend=nvme profile=tlc size=1G, then frontend=cxl
#                profile=tlc size=256M cache_size=1M
#   -a PARAMS    more module parameters for the NVMe load ("cpus=3
#                spin_us=500" in the VM)
#   -p PARTS     which jobs, comma-separated: lateness, dies (read-1die,
#                read-2die, read-4die, read-8die, read-2die-1ch,
#                read-rand2-qd16), all
#                (read-all-qd*), write (write-Ndie,
#                mix-Ndie, N = 1 2 4 8), cxl; nvme = lateness,dies,all,write; default
#                nvme,cxl
#   -t SECONDS   runtime of each read job after a 2 s ramp (default 10)
#   -T SECONDS   runtime of the write and mix jobs (default 30)
#   -R NS        tR of the read-all jobs (default 5000000)
#   -P NS        main_prog_ns of the write and mix jobs (default 8000000)
#   -q QDS       the read-all queue depths (default "1 2 4 8 16 32 64 256")
#   -w NS        config/wait_spin_ns for the CXL part (default: the
#                module's); the VM spins the whole wait (2000000)
#   -m MMAP_LAT  the mmap_lat binary (default: in PATH, else
#                scripts/tools/mmap_lat; `make tools` builds it)
#   -c CPUS      run fio on these CPUs only (fio --cpus_allowed), e.g.
#                away from vflash's threads (the VM: 0-2)
#   -o DIR       fio JSON and other output (default /tmp/vflash-fidelity)
#
# Run as root on a host where vflash's NVMe frontend loads (docs/nvme.md).
# Needs fio and jq. POSIX sh, so that it runs in the project's VM too
# (busybox); `make bench-fidelity` runs it there (scripts/bench/vm/).
set -eu

KO=./vflash.ko
NVME_PARAMS=
PARTS=nvme,cxl
DIE_QD=128
RUNTIME=10
WRUNTIME=30
RAMP=2
TR_ALL=5000000
TPROG=8000000
TR=1000000
QDS="1 2 4 8 16 32 64 256"
WAIT_SPIN=
MMAP_LAT=
FIO_CPUS=
OUT=/tmp/vflash-fidelity
SYS=/sys/class/vflash/vflash0
SIM_N=60000

# The tlc profile's geometry (backend_flash/profile.c): 8 channels x 2
# dies, 32 KiB flash pages (8 logical pages, one TLC program unit).
DIES=16
CHANNELS=8
UNIT=8
EXTENT=262144	# die-affinity's 64-page extent, bytes
REGION=1073741824

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../helpers.sh"
DIE_PREFIX=fidelity

while getopts k:a:p:t:T:R:P:q:w:m:c:o:h opt; do
	case $opt in
	k) KO=$OPTARG ;;
	a) NVME_PARAMS=$OPTARG ;;
	p) PARTS=$OPTARG ;;
	t) RUNTIME=$OPTARG ;;
	T) WRUNTIME=$OPTARG ;;
	R) TR_ALL=$OPTARG ;;
	P) TPROG=$OPTARG ;;
	q) QDS=$OPTARG ;;
	w) WAIT_SPIN=$OPTARG ;;
	m) MMAP_LAT=$OPTARG ;;
	c) FIO_CPUS=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'; exit 2 ;;
	esac
done

command -v fio >/dev/null || die "fio not found"
command -v jq >/dev/null || die "jq not found"
[ -f "$KO" ] || die "no module $KO"
[ ! -e /sys/module/vflash ] || die "vflash is loaded already: unload it first"
PARTS=$(echo ",$PARTS," | sed 's/,nvme,/,lateness,dies,all,write,/')
want() {
	case $PARTS in *,$1,*) return 0 ;; esac
	return 1
}
case $PARTS in
*,cxl,*)
	if [ -z "$MMAP_LAT" ]; then
		MMAP_LAT=$(command -v mmap_lat || echo "$(dirname "$0")/../tools/mmap_lat")
	fi
	[ -x "$MMAP_LAT" ] || die "no mmap_lat (make tools), or give -m"
	;;
esac
# kmod's, not busybox's (which retries a failed load, running init twice).
INSMOD=insmod
RMMOD=rmmod
[ ! -x /sbin/insmod ] || INSMOD=/sbin/insmod
[ ! -x /sbin/rmmod ] || RMMOD=/sbin/rmmod
mkdir -p "$OUT"
RESULTS=$OUT/results
: >"$RESULTS"

knob() { cat "$SYS/config/$1"; }
setknob() { echo "$2" >"$SYS/config/$1" || die "config/$1=$2 rejected"; }
st() { cat "$SYS/stats/$1"; }
reset_stats() { echo 0 >"$SYS/stats/reset"; }

# sim N TR [D]: the model's closed-loop read throughput (per second) with
# N requests in flight, each on a uniformly random one of D dies (default
# all), the live channel, host-link and firmware knobs. Each request's
# times are reserved when it arrives, as vflash_flash_submit() does: FIFO
# on its die, then its channel and the host link each booked in time
# order, the first gap at or after the data are ready that holds the
# transfer (vff_link_book(), without its span limit).
sim() {
	awk -v n="$1" -v tr="$2" -v D="${3:-$DIES}" -v C="$CHANNELS" -v N="$SIM_N" \
		-v ch="$(knob channel_xfer_ns)" -v hx="$(knob host_xfer_ns)" \
		-v fw="$(knob fw_overhead_ns)" '
	# book(L, NOW, T, DUR): link L (a channel, or "h") from the first gap
	# at or after T that holds DUR; spans ended by NOW are dropped
	function book(L, now, t, dur,    i, j, k, s) {
		if (dur == 0) return t
		k = 0
		for (i = 0; i < cnt[L]; i++)
			if (E[L, i] > now) { S[L, k] = S[L, i]; E[L, k] = E[L, i]; k++ }
		cnt[L] = k
		s = t
		for (i = 0; i < cnt[L] && E[L, i] <= s; i++) ;
		for (; i < cnt[L] && s + dur > S[L, i]; i++) s = E[L, i]
		for (j = cnt[L]; j > i; j--) { S[L, j] = S[L, j - 1]; E[L, j] = E[L, j - 1] }
		S[L, i] = s; E[L, i] = s + dur; cnt[L]++
		return s + dur
	}
	BEGIN {
		srand(1)
		warm = int(N / 10)
		# a binary min-heap of the next arrival time of each request
		for (i = 1; i <= n; i++) hp[i] = 0
		for (k = 1; k <= N; k++) {
			a = hp[1]
			if (k == warm) t0 = a
			d = int(rand() * D); if (d >= D) d = D - 1
			s = busy[d] + 0 > a ? busy[d] + 0 : a
			busy[d] = s + tr
			e = book(d % C, a, busy[d], ch)
			h = book("h", a, e, hx)
			# replace the root by the completion, sift down
			v = h + fw
			i = 1
			for (;;) {
				l = 2 * i; r = l + 1; m = i; mv = v
				if (l <= n && hp[l] < mv) { m = l; mv = hp[l] }
				if (r <= n && hp[r] < mv) { m = r; mv = hp[r] }
				if (m == i) break
				hp[i] = hp[m]; i = m
			}
			hp[i] = v
		}
		printf "%.2f\n", (N - warm) * 1e9 / (a - t0) }'
}

# row JOB PREDICTED MEASURED NOTE: one line of the ratio table
row() {
	awk -v j="$1" -v p="$2" -v m="$3" -v note="$4" 'BEGIN {
		r = p > 0 ? m / p : 0
		printf "%-14s %11.1f %11.1f %7.4f %-3s %s\n", j, p, m, r,
			(r >= 0.97 && r <= 1.03) ? "ok" : "OUT", note }' >>"$RESULTS"
}

# fio_run TAG ARGS...: one fio run, JSON in $OUT/TAG.json
fio_run() {
	tag=$1
	shift
	echo "fidelity: $tag" >&2
	reset_stats
	set -- ${FIO_CPUS:+--cpus_allowed="$FIO_CPUS"} "$@"
	fio --output-format=json --output="$OUT/$tag.json" --direct=1 \
		--norandommap --randrepeat=0 --lat_percentiles=1 \
		--percentile_list=50:99:99.9 --group_reporting "$@" >/dev/null ||
		die "fio $tag failed (see $OUT/$tag.json)"
}

# iops TAG [read|write|both]: the summed IOPS of the run's first group
iops() {
	jq -r --arg d "${2:-both}" '.jobs[0] |
		if $d == "read" then .read.iops elif $d == "write" then
		.write.iops else .read.iops + .write.iops end' "$OUT/$1.json"
}

# lat TAG: fio's read latency p50 / p99 (us) and the device-side p50
lat() {
	jq -r '.jobs[0].read.lat_ns | "fio p50/p99 \(.percentile["50.000000"] /
		1000 | floor)/\(.percentile["99.000000"] / 1000 | floor) us"' \
		"$OUT/$1.json" | tr -d '\n'
	echo ", device p50 $(($(st read_latency_p50_ns) / 1000)) us$(late)"
}

# late: ", lateness p50/p99/max X/Y/Z us" since the last reset, if the
# module has stats/lateness_*
late() {
	[ -r "$SYS/stats/lateness_max_ns" ] || return 0
	awk -v a="$(st lateness_p50_ns)" -v b="$(st lateness_p99_ns)" \
		-v c="$(st lateness_max_ns)" 'BEGIN {
		printf ", lateness p50/p99/max %.1f/%.1f/%.1f us",
			a / 1e3, b / 1e3, c / 1e3 }'
}

# confined DIE: fio options for random I/O on die DIE's extents only
confined() {
	echo "--offset=$(($1 * EXTENT)) --size=$((REGION - $1 * EXTENT))" \
		"--zonemode=strided --zonerange=$EXTENT --zonesize=$EXTENT" \
		"--zoneskip=$(((DIES - 1) * EXTENT))"
}

# lateness TAG: the device's lateness record since the last reset
lateness() {
	model=$(st model_read_latency_ns)
	line="lateness $1 model_read_latency_ns=$model"
	for k in lateness_p50_ns lateness_p99_ns lateness_p999_ns \
		lateness_max_ns early_completions; do
		if [ -r "$SYS/stats/$k" ]; then
			v=$(st "$k")
			case $k in
			early*) line="$line $k=$v" ;;
			*) line="$line $k=$v ($(awk -v v="$v" -v m="$model" \
				'BEGIN { printf "%.2f%%", 100 * v / m }'))" ;;
			esac
		else
			line="$line $k=n/a"
		fi
	done
	echo "$line" >>"$OUT/lateness"
}

# die_work_row TAG DIR D: the device's work-bound ratio after a write or
# mix job TAG on D dies, whose probe reads (the second group, one per die)
# measured each die's backlog. Counters since the reset.
die_work_row() {
	tag=$1
	rw=$2
	nd=$3
	w=$(awk -v p="$(st nand_program_pages)" -v u="$UNIT" \
		-v tp="$(knob main_prog_ns)" -v r="$(st nand_read_pages)" \
		-v tr="$(knob main_read_ns)" -v e="$(st nand_erase_blocks)" \
		-v te="$(knob main_erase_ns)" \
		'BEGIN { printf "%.0f", p / u * tp + r * tr + e * te }')
	# the probes' mean latency (group_reporting: the group's)
	probe=$(jq -r '.jobs[1].read.lat_ns.mean' "$OUT/$tag.json")
	t_ms=$(jq -r '.jobs[0].job_runtime' "$OUT/$tag.json")
	hostp=$(($(st host_write_pages) + $(st host_read_pages) - nd))
	meas=$(iops "$tag" "$rw")
	model=$(st model_read_latency_ns)
	# D dies worked in parallel: each one's share of the work within the
	# run is (W - D * (backlog + the probe's own read)) / D.
	pred=$(awk -v w="$w" -v b="$probe" -v m="$model" -v n="$hostp" \
		-v tr="$(knob main_read_ns)" -v d="$nd" \
		'BEGIN { b -= m; if (b < 0) b = 0
		printf "%.2f", d * n * 1e9 / (w - d * (b + tr)) }')
	note=$(awk -v w="$w" -v b="$probe" -v m="$model" -v t="$t_ms" \
		-v waf="$(st write_amplification)" -v d="$nd" \
		-v gc="$(st gc_copied_pages)" -v er="$(st nand_erase_blocks)" \
		'BEGIN { printf "%d dies: die work %.3f s, backlog %.3f s a die," \
		" fio %.3f s, WAF %.3f, gc_copied %d, erases %d", d, w / 1e9,
		(b - m) / 1e9, t / 1e3, waf / 1000, gc, er }')
	row "$tag" "$pred" "$meas" "$note"
}

# TIME_KNOBS of a read and a write: saved at load, restored between parts.
TIME_KNOBS="main_read_ns main_prog_ns main_erase_ns channel_xfer_ns
host_xfer_ns fw_overhead_ns write_buffer_bytes"
save_knobs() {
	saved=
	for k in $TIME_KNOBS; do
		saved="$saved $k=$(knob "$k")"
	done
}
restore_knobs() {
	for kv in $saved; do
		setknob "${kv%=*}" "${kv#*=}"
	done
}

# nvme_load: load vflash's NVMe frontend, find its namespace ($dev),
# write every page once through the model (charged to the dies with the
# profile's times) with die-affinity placement.
nvme_load() {
	# shellcheck disable=SC2086 # one word per parameter
	$INSMOD "$KO" frontend=nvme profile=tlc size=1G $NVME_PARAMS ||
		die "insmod $KO frontend=nvme failed"
	dev=
	n=0
	while [ -z "$dev" ] && [ $n -lt 100 ]; do
		for m in /sys/block/nvme*/device/model; do
			[ -r "$m" ] || continue
			case $(cat "$m") in
			vflash*) b=${m#/sys/block/}; dev=/dev/${b%%/*} ;;
			esac
		done
		if [ -z "$dev" ] || [ ! -b "$dev" ]; then
			dev=
			sleep 0.1
		fi
		n=$((n + 1))
	done
	[ -n "$dev" ] || die "no vflash NVMe namespace appeared"
	echo "fidelity: NVMe namespace $dev" >&2
	save_knobs
	echo die-affinity >"$SYS/policy/placement"
	setknob precondition 1
	sleep 1
}

# 1. Lateness on the unchanged profile.
job_lateness() {
	fio_run lateness-qd1 --name=qd1 --filename="$dev" --rw=randread \
		--bs=4k --iodepth=1 --ioengine=psync --size=$REGION \
		--time_based --runtime="$RUNTIME" --ramp_time=$RAMP
	lateness qd1
	fio_run lateness-qd32 --name=qd32 --filename="$dev" --rw=randread \
		--bs=4k --iodepth=32 --ioengine=libaio --size=$REGION \
		--time_based --runtime="$RUNTIME" --ramp_time=$RAMP
	lateness qd32
}

# 2. Reads confined to 1, 2, 4 and 8 dies (each on its own channel), and
# to two dies that share a channel, tR = 1 ms: one fio job per die at QD
# DIE_QD, so each die always has reads queued; predicted D * 1e9 / tR.
DIE_SETS="0/0,1/0,1,2,3/0,1,2,3,4,5,6,7/0,$CHANNELS"
job_dies() {
	setknob main_read_ns $TR
	for set in $(echo "$DIE_SETS" | tr / ' '); do
		n=$(echo "$set" | tr , '\n' | wc -l)
		tag=read-${n}die
		chans=$(for d in $(echo "$set" | tr , ' '); do echo $((d % CHANNELS)); done |
			sort -u | wc -l)
		[ "$chans" = "$n" ] || tag=$tag-${chans}ch
		jobs=
		for d in $(echo "$set" | tr , ' '); do
			jobs="$jobs --name=die$d $(confined "$d")"
		done
		# shellcheck disable=SC2086 # one word per option
		fio_run "$tag" --rw=randread --bs=4k --iodepth=$DIE_QD \
			--ioengine=libaio --time_based --runtime="$RUNTIME" \
			--ramp_time=$RAMP --filename="$dev" $jobs
		row "$tag" "$(awk -v t=$TR -v n="$n" 'BEGIN { print n * 1e9 / t }')" \
			"$(iops "$tag" read)" \
			"dies $set ($chans channels), QD $DIE_QD each, tR $TR ns; $(lat "$tag")"
	done
	# Uniformly random reads over dies 0 and 1 at QD 16, one job (the
	# issue's job): a die's queue empties now and then, so the ceiling is
	# the simulation's, not 2e9 / tR.
	fio_run read-rand2-qd16 --name=rand2 --filename="$dev" --rw=randread \
		--bs=4k --iodepth=16 --ioengine=libaio --offset=0 \
		--size=$REGION --zonemode=strided --zonerange=$((2 * EXTENT)) \
		--zonesize=$((2 * EXTENT)) --zoneskip=$(((DIES - 2) * EXTENT)) \
		--time_based --runtime="$RUNTIME" --ramp_time=$RAMP
	pred=$(sim 16 $TR 2)
	row read-rand2-qd16 "$pred" "$(iops read-rand2-qd16 read)" \
		"dies 0,1 uniformly random, QD 16, tR $TR ns, simulated ($(awk -v p="$pred" -v t=$TR \
		'BEGIN { printf "%.3f", p * t / 2e9 }') of 2e9 / tR); $(lat read-rand2-qd16)"
	restore_knobs
}

# 3. Reads over every die at each queue depth, tR = TR_ALL.
job_all() {
	setknob main_read_ns "$TR_ALL"
	for qd in $QDS; do
		engine=libaio
		[ "$qd" -gt 1 ] || engine=psync
		fio_run "read-all-qd$qd" --name="qd$qd" --filename="$dev" \
			--rw=randread --bs=4k --iodepth="$qd" \
			--ioengine=$engine --size=$REGION --time_based \
			--runtime="$RUNTIME" --ramp_time=$RAMP
		pred=$(sim "$qd" "$TR_ALL")
		meas=$(iops "read-all-qd$qd" read)
		row "read-all-qd$qd" "$pred" "$meas" "$(awk -v n="$qd" \
			-v p="$pred" -v m="$meas" -v t="$TR_ALL" -v D=$DIES \
			'BEGIN { printf "%d dies, tR %d ns, simulated; host" \
			" time per I/O implied %.1f us", D, t,
			(n / m - n / p) * 1e6 }'); $(lat "read-all-qd$qd")"
	done
	restore_knobs
}

# 4. Steady-state random writes on D dies (1, 2, 4, 8: dies 0..D-1, one
# fio job each, confined to its die), then a 70/30 mix there. The dies'
# shares are overwritten 3 times first with the profile's times, so GC
# runs; then each job, and one read per die that waits out its backlog.
WRITE_DIES="1 2 4 8"
job_write() {
	prev=0
	for nd in $WRITE_DIES; do
		# the new dies' shares, overwritten 3 times
		jobs=
		d=$prev
		while [ "$d" -lt "$nd" ]; do
			jobs="$jobs --name=warm$d $(confined "$d")"
			d=$((d + 1))
		done
		# shellcheck disable=SC2086 # one word per option
		fio_run "write-warmup-$nd" --filename="$dev" --rw=randwrite \
			--bs=4k --iodepth=32 --ioengine=libaio \
			--number_ios=$((3 * 64 * REGION / EXTENT / DIES)) $jobs
		prev=$nd
		setknob main_prog_ns "$TPROG"
		setknob main_read_ns $TR
		sleep 2
		for kind in write mix; do
			job=$kind-${nd}die
			case $kind in
			write) rw="--rw=randwrite"; dir="write" ;;
			*) rw="--rw=randrw --rwmixread=70"; dir="both" ;;
			esac
			jobs=
			probes=
			d=0
			while [ "$d" -lt "$nd" ]; do
				jobs="$jobs --name=main$d $(confined "$d")"
				# die d's first page: extent d. An option goes to
				# the job named before it: the first probe waits for
				# every main job (--stonewall), the others start
				# with it.
				probes="$probes --name=probe$d"
				[ "$d" != 0 ] || probes="$probes --stonewall"
				probes="$probes --rw=read --iodepth=1 --offset=$((d * EXTENT)) --size=4k --number_ios=1 --time_based=0 --runtime=0"
				d=$((d + 1))
			done
			# The jobs, then one read a die that waits out its backlog.
			# shellcheck disable=SC2086 # one word per option
			fio_run "$job" --filename="$dev" --bs=4k --ioengine=libaio \
				$rw --iodepth=32 --time_based --runtime="$WRUNTIME" \
				$jobs $probes
			die_work_row "$job" "$dir" "$nd"
		done
		restore_knobs
	done
}

nvme_part() {
	nvme_load
	for j in lateness dies all write; do
		if want $j; then
			"job_$j"
		fi
	done
	$RMMOD vflash || die "rmmod vflash"
}

cxl_part() {
	$INSMOD "$KO" frontend=cxl profile=tlc size=256M cache_size=1M ||
		die "insmod $KO frontend=cxl failed"
	[ -e /dev/vflash0 ] || sleep 1
	echo none >"$SYS/policy/prefetch"
	setknob precondition 1
	sleep 1
	setknob main_read_ns $TR
	[ -z "$WAIT_SPIN" ] || setknob wait_spin_ns "$WAIT_SPIN"
	model=$(st model_read_latency_ns)
	for t in 1 2; do
		reset_stats
		echo "fidelity: cxl-miss-${t}t" >&2
		"$MMAP_LAT" --target /dev/vflash0 --ws 32M --first-touch \
			--mode rand --threads $t >"$OUT/cxl-miss-${t}t.out" ||
			die "mmap_lat failed"
		mean=$(sed -n 's/.* mean_ns=\([0-9]*\).*/\1/p' \
			"$OUT/cxl-miss-${t}t.out")
		if [ $t = 1 ]; then
			pred=$(awk -v m="$model" 'BEGIN { print 1e9 / m }')
		else
			pred=$(sim $t $TR)
		fi
		row "cxl-miss-${t}t" "$pred" \
			"$(awk -v t=$t -v m="$mean" 'BEGIN { print t * 1e9 / m }')" \
			"$(printf 'mmap_lat mean/p50/p99 %s/%s/%s ns, model %s ns, device miss p50/p99 %s/%s ns, misses %s' \
			"$mean" "$(sed -n 's/.* p50_ns=\([0-9]*\).*/\1/p' "$OUT/cxl-miss-${t}t.out")" \
			"$(sed -n 's/.* p99_ns=\([0-9]*\).*/\1/p' "$OUT/cxl-miss-${t}t.out")" \
			"$model" "$(st miss_latency_p50_ns)" \
			"$(st miss_latency_p99_ns)" "$(st misses)")$(late)"
	done
	$RMMOD vflash || die "rmmod vflash"
}

if want lateness || want dies || want all || want write; then
	nvme_part
fi
if want cxl; then
	cxl_part
fi

echo "vflash fidelity, profile tlc ($DIES dies, $CHANNELS channels); fio $(fio --version); $(date -u '+%Y-%m-%d %H:%M UTC')"
if [ -s "$OUT/lateness" ]; then
	echo "Lateness (default tlc, 4 KiB random reads; percent of the model's idle read):"
	cat "$OUT/lateness"
fi
echo "Device-bound ratios (IOPS; ratio = measured / predicted, ok within 0.97-1.03):"
printf '%-14s %11s %11s %7s %-3s %s\n' job predicted measured ratio '' notes
cat "$RESULTS"
