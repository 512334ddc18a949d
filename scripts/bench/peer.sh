#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vflash beside NVMeVirt (https://github.com/snu-csl/nvmevirt) on one
# machine: the same fio jobs on each, the emulators loaded one at a time
# (each with its threads on the last CPUs, which the other's would fight
# for), fio kept on the other CPUs, rounds alternating which goes first.
# Prints IOPS per round and job and the ratios vflash / NVMeVirt per round,
# with their median over the rounds; the target's verdict is "met" or
# "MISS" (a benchmark, not a test: a miss does not fail it).
#
# -m conv (default): NVMeVirt's conventional build (970 PRO model) and
#    vflash frontend=nvme (profile samsung-970pro), 1 GiB each; the first
#    512 MiB written sequentially (a read of a never-written page costs
#    neither emulator any flash time), then fio 4 KiB random reads over
#    those 512 MiB at QD1 (psync) and QD32 (libaio). null_blk (gb=1,
#    blk-mq, softirq completion) runs the same reads each round: the
#    block stack's ceiling. Targets: vflash / NVMeVirt >= 4 at QD1 and
#    >= 2.5 at QD32; vflash / null_blk >= 0.5 at QD32.
# -m zns: NVMeVirt's ZNS build (ZNS_PROTOTYPE: 32 MiB zones, 512-byte
#    LBAs) and vflash's zoned namespace (zoned=1 zone_size=32M
#    zone_max_open=14, no active limit), 1 GiB each. fio zonemode=zbd
#    jobs, every zone reset first: a sequential write of 512 MiB (128 KiB,
#    QD1, at most 4 open zones), 4 KiB random reads of it (QD1 psync, QD32
#    libaio), and 128 KiB random writes with zone resets (fio's
#    zone_reset_threshold=0.5, zone_reset_frequency=0.1). Writes are
#    128 KiB because NVMeVirt's ZNS_PROTOTYPE refuses any write that is
#    not a multiple of its 128 KiB write unit. Then a conformance table:
#    per probe, which device passes (the probes: -h's list below).
#
# usage: scripts/bench/peer.sh [-m conv|zns] [-k VFLASH_KO] [-K NVMEV_KO]
#        [-M START,SIZE] [-c CPUS] [-a PARAMS] [-p PROFILE] [-C CPUS]
#        [-r ROUNDS] [-t SECONDS] [-o DIR] [-R]
#   -m MODE      conv or zns (default conv)
#   -k KO        vflash.ko (default /vflash/vflash.ko)
#   -K KO        NVMeVirt's nvmev.ko of MODE's build
#                (scripts/bench/nvmevirt-build.sh; default /vflash/nvmev.ko)
#   -M START,SIZE NVMeVirt's memmap_start and memmap_size, a range the
#                kernel command line reserved with memmap=SIZE$START
#                (default 1G,1025M: its first MiB holds its BAR, the rest
#                is the 1 GiB device)
#   -c CPUS      NVMeVirt's cpus= (dispatcher, then I/O workers; default 2,3)
#   -a PARAMS    vflash's CPU parameters (default "cpus=3 spin_us=500
#                workers=0": its dispatcher on CPU 3, posting the
#                completions itself, spinning for those due within 500 us;
#                on one CPU a completion worker only adds switches)
#   -p PROFILE   vflash's profile (default samsung-970pro)
#   -C CPUS      the CPUs fio runs on (default 0-1)
#   -r ROUNDS    rounds (default 3)
#   -t SECONDS   runtime per fio job, after a 2 s ramp (default 10)
#   -o DIR       fio's JSON files (default /tmp/peer-bench)
#   -R           also run, on NVMeVirt, the probe that may crash the
#                kernel (a read past the namespace's end), as the very last
#                thing; without -R it is skipped there, with a note
#
# Conformance probes (-m zns), each on a fresh zone of each device, in
# this order: a 4 KiB write at an empty zone's write pointer succeeds;
# Zone Append returns the LBA it wrote (a second append the next one);
# a write off the write pointer gets Zone Invalid Write (1BCh); an append
# to a full zone (finished) gets Zone Is Full (1B9h); closing an empty
# zone gets Invalid Zone State Transition (1BFh); explicitly opening one
# zone more than MOR + 1 gets Too Many Open Zones (1BEh) (n/a where MOR +
# 1 is every zone); Report Zones with a state filter (Full, Implicitly
# Opened) lists exactly the zones in that state; a read past the end gets
# LBA Out of Range (80h); a reset zone reads as zeros. Passthrough
# commands through nvme-cli; Report Zones by io-passthru with a 4 KiB
# buffer.
#
# Loads and unloads both modules itself (root), and null_blk (-m conv);
# needs fio, jq, nvme-cli. POSIX sh, so that it runs in the project's VM
# (busybox), where `make bench-peer` runs it (scripts/bench/vm/).
set -eu

MODE=conv
VKO=/vflash/vflash.ko
NKO=/vflash/nvmev.ko
MEMMAP=1G,1025M
NCPUS=2,3
VCPUS="cpus=3 spin_us=500 workers=0"
PROFILE=samsung-970pro
FIOCPUS=0-1
ROUNDS=3
RUNTIME=10
RAMP=2
OUT=/tmp/peer-bench
RISKY=0
REGION=512M

usage() {
	sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'
	exit "$1"
}

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../helpers.sh"
DIE_PREFIX=peer

log() {
	echo "peer: $*" >&2
}

case ${1:-} in --help) usage 0 ;; esac
while getopts m:k:K:M:c:a:p:C:r:t:o:Rh opt; do
	case $opt in
	m) MODE=$OPTARG ;;
	k) VKO=$OPTARG ;;
	K) NKO=$OPTARG ;;
	M) MEMMAP=$OPTARG ;;
	c) NCPUS=$OPTARG ;;
	a) VCPUS=$OPTARG ;;
	p) PROFILE=$OPTARG ;;
	C) FIOCPUS=$OPTARG ;;
	r) ROUNDS=$OPTARG ;;
	t) RUNTIME=$OPTARG ;;
	o) OUT=$OPTARG ;;
	R) RISKY=1 ;;
	h) usage 0 ;;
	*) usage 2 ;;
	esac
done
case $MODE in conv | zns) ;; *) die "-m $MODE: want conv or zns" ;; esac
case $ROUNDS in '' | *[!0-9]* | 0) die "-r $ROUNDS: want a positive number" ;; esac
MEMMAP_START=${MEMMAP%,*}
MEMMAP_SIZE=${MEMMAP#*,}
[ -f "$VKO" ] || die "no vflash module $VKO"
[ -f "$NKO" ] || die "no NVMeVirt module $NKO (scripts/bench/nvmevirt-build.sh)"
for p in fio jq nvme; do
	command -v $p >/dev/null || die "$p not found"
done
# kmod's tools: busybox's insmod retries a failed load (running init twice).
KMOD=/sbin
[ -x $KMOD/insmod ] || KMOD=/usr/sbin
mkdir -p "$OUT"

VPARAMS="frontend=nvme profile=$PROFILE size=1G $VCPUS"
[ "$MODE" = conv ] ||
	VPARAMS="$VPARAMS zoned=1 zone_size=32M zone_max_open=14"
NPARAMS="memmap_start=$MEMMAP_START memmap_size=$MEMMAP_SIZE cpus=$NCPUS"

# ns_of PATTERN: the block device whose controller's model matches
# PATTERN (a shell pattern)
# (called in $(...): its variables go with the subshell)
ns_of() {
	for nd in /sys/block/nvme*n*; do
		[ -e "$nd/device/model" ] || continue
		nm=$(cat "$nd/device/model")
		# shellcheck disable=SC2254 # PATTERN is a pattern
		case $nm in $1) echo "/dev/${nd##*/}"; return 0 ;; esac
	done
	return 1
}

# wait_ns PATTERN: as ns_of, waiting up to 20 s for the namespace
wait_ns() {
	wn=0
	while ! wd=$(ns_of "$1") || [ ! -b "$wd" ]; do
		[ $wn -lt 200 ] || return 1
		sleep 0.1
		wn=$((wn + 1))
	done
	echo "$wd"
}

# up NAME: load emulator NAME (vflash or nvmevirt); its namespace in DEV
up() {
	case $1 in
	vflash)
		$KMOD/modprobe configfs 2>/dev/null || true
		# shellcheck disable=SC2086 # one word per parameter
		$KMOD/insmod "$VKO" $VPARAMS || die "insmod $VKO $VPARAMS"
		DEV=$(wait_ns 'vflash*') || die "no vflash namespace"
		;;
	nvmevirt)
		# shellcheck disable=SC2086 # one word per parameter
		$KMOD/insmod "$NKO" $NPARAMS || die "insmod $NKO $NPARAMS"
		DEV=$(wait_ns 'CSL_Virt*') || die "no NVMeVirt namespace"
		;;
	esac
	udevadm settle 2>/dev/null || sleep 1
	log "$1 up: $DEV, $(cat "/sys/block/${DEV#/dev/}/queue/logical_block_size")-byte LBAs"
}

down() {
	case $1 in
	vflash) $KMOD/rmmod vflash || die "rmmod vflash" ;;
	nvmevirt) $KMOD/rmmod nvmev || die "rmmod nvmev" ;;
	esac
}

# run_fio TAG DEVICE FIO_ARGS...: one job on DEVICE, JSON in $OUT/TAG.json
run_fio() {
	rf_tag=$1
	rf_dev=$2
	shift 2
	log "$rf_tag on $rf_dev"
	fio --name="$rf_tag" --filename="$rf_dev" --direct=1 --cpus_allowed="$FIOCPUS" \
		--output-format=json --output="$OUT/$rf_tag.json" "$@" >/dev/null ||
		die "fio $rf_tag on $rf_dev failed (see $OUT/$rf_tag.json)"
}

# timed TAG DEVICE FIO_ARGS...: run_fio, time-based with the ramp
timed() {
	tm_tag=$1
	tm_dev=$2
	shift 2
	run_fio "$tm_tag" "$tm_dev" --time_based --runtime="$RUNTIME" \
		--ramp_time="$RAMP" "$@"
}

# iops TAG: the job's IOPS (reads, or writes for a write job)
iops() {
	jq -r '.jobs[0] | if .error != 0 then "error"
		elif .read.io_bytes > 0 then .read.iops else .write.iops end' \
		"$OUT/$1.json"
}

# fiocpu TAG: the job's user plus system CPU, % of one CPU, an integer:
# near 100, fio's own thread, not the device, set the pace
fiocpu() {
	jq -r '.jobs[0].usr_cpu + .jobs[0].sys_cpu | floor' "$OUT/$1.json"
}

# randreads TAG DEVICE [FIO_ARGS...]: 4 KiB random reads over the region
# at QD1 (psync) and QD32 (libaio): TAG-qd1, TAG-qd32
randreads() {
	rr_tag=$1
	rr_dev=$2
	shift 2
	timed "$rr_tag-qd1" "$rr_dev" --rw=randread --bs=4k --size=$REGION \
		--norandommap --randrepeat=0 --ioengine=psync --iodepth=1 "$@"
	timed "$rr_tag-qd32" "$rr_dev" --rw=randread --bs=4k --size=$REGION \
		--norandommap --randrepeat=0 --ioengine=libaio --iodepth=32 "$@"
}

# ratio_line NAME FILE TARGET: "NAME median (min-max over N rounds)"
# of the per-round ratios in FILE, judged against ">= TARGET"
ratio_line() {
	sort -g "$2" | awk -v n="$1" -v m="$(median <"$2")" -v t="$3" '
		NR == 1 { lo = $1 } { hi = $1; c++ }
		END {
			v = (t == "" ? "" : (m >= t ? "  target >= " t ": met" :
				"  target >= " t ": MISS"))
			printf "  %-28s %6.2f  (rounds %.2f-%.2f, %d)%s\n",
				n, m, lo, hi, c, v }'
}

# order R: the emulators in round R's order (alternating)
order() {
	if [ $(($1 % 2)) -eq 1 ]; then echo "vflash nvmevirt"; else echo "nvmevirt vflash"; fi
}

echo "peer: $(uname -r), $(nproc) CPUs; fio $(fio --version) on CPUs $FIOCPUS;" \
	"$ROUNDS rounds of ${RUNTIME}s jobs (+${RAMP}s ramp)" >&2

# ---------------------------------------------------------------- conv
bench_conv() {
	rm -f "$OUT"/ratio-*
	if [ ! -b /dev/nullb0 ]; then
		$KMOD/modprobe configfs 2>/dev/null || true
		$KMOD/modprobe null_blk queue_mode=2 irqmode=1 \
			submit_queues="$(nproc)" hw_queue_depth=1024 gb=1 bs=4096 \
			nr_devices=1 || die "modprobe null_blk"
		n=0
		while [ ! -b /dev/nullb0 ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	fi
	r=1
	while [ $r -le "$ROUNDS" ]; do
		for d in $(order $r); do
			up "$d"
			run_fio "$d-precondition-$r" "$DEV" --rw=write --bs=128k \
				--iodepth=32 --ioengine=libaio --size=$REGION
			randreads "$d-r$r" "$DEV"
			down "$d"
		done
		randreads "null_blk-r$r" /dev/nullb0
		for t in qd1 qd32; do
			v=$(iops "vflash-r$r-$t")
			n=$(iops "nvmevirt-r$r-$t")
			b=$(iops "null_blk-r$r-$t")
			echo "$r $t $v $n $b $(fiocpu "vflash-r$r-$t")" \
				"$(fiocpu "nvmevirt-r$r-$t") $(fiocpu "null_blk-r$r-$t")" >>"$OUT/iops"
			awk -v v="$v" -v n="$n" 'BEGIN { print v / n }' >>"$OUT/ratio-nvmevirt-$t"
			awk -v v="$v" -v b="$b" 'BEGIN { print v / b }' >>"$OUT/ratio-null_blk-$t"
		done
		r=$((r + 1))
	done

	echo
	echo "vflash ($VPARAMS) vs NVMeVirt ($(cat "${NKO%/*}/nvmevirt.txt" 2>/dev/null ||
		echo "$NKO"); $NPARAMS) vs null_blk; fio 4 KiB random reads over" \
		"$REGION of each 1 GiB device, ${RUNTIME}s a job, fio on CPUs $FIOCPUS"
	echo "IOPS per round, and fio's CPU (user + system, % of one CPU; near 100: fio sets the pace):"
	printf '  %-5s %-5s %10s %10s %10s   %s\n' round QD vflash NVMeVirt null_blk "fio CPU % (vflash NVMeVirt null_blk)"
	awk '{ printf "  %-5s %-5s %10.0f %10.0f %10.0f   %3d %3d %3d\n", $1, $2, $3, $4, $5, $6, $7, $8 }' "$OUT/iops"
	echo "ratios (median of the rounds' ratios):"
	ratio_line "vflash / NVMeVirt, QD1" "$OUT/ratio-nvmevirt-qd1" 4
	ratio_line "vflash / NVMeVirt, QD32" "$OUT/ratio-nvmevirt-qd32" 2.5
	ratio_line "vflash / null_blk, QD32" "$OUT/ratio-null_blk-qd32" 0.5
	ratio_line "vflash / null_blk, QD1" "$OUT/ratio-null_blk-qd1" ""
	$KMOD/rmmod null_blk 2>/dev/null || true
}

# ---------------------------------------------------------------- zns
ZJOBS="zbd-seqwrite-128k zbd-randread-4k-qd1 zbd-randread-4k-qd32 zbd-randwrite-resets-128k"

# zns_jobs TAG DEVICE: the zonemode=zbd jobs, every zone reset first
zns_jobs() {
	zj_tag=$1
	zj_dev=$2
	blkzone reset "$zj_dev" || die "blkzone reset $zj_dev"
	run_fio "$zj_tag-zbd-seqwrite-128k" "$zj_dev" --zonemode=zbd --rw=write \
		--bs=128k --ioengine=psync --iodepth=1 --size=$REGION \
		--max_open_zones=4
	timed "$zj_tag-zbd-randread-4k-qd1" "$zj_dev" --zonemode=zbd --rw=randread \
		--bs=4k --size=$REGION --norandommap --randrepeat=0 \
		--ioengine=psync --iodepth=1
	timed "$zj_tag-zbd-randread-4k-qd32" "$zj_dev" --zonemode=zbd --rw=randread \
		--bs=4k --size=$REGION --norandommap --randrepeat=0 \
		--ioengine=libaio --iodepth=32
	timed "$zj_tag-zbd-randwrite-resets-128k" "$zj_dev" --zonemode=zbd \
		--rw=randwrite --bs=128k --ioengine=psync --iodepth=1 \
		--size=$REGION --max_open_zones=4 --zone_reset_threshold=0.5 \
		--zone_reset_frequency=0.1
}

# Probe state: the device under test, its LBA size, LBAs per zone.
LBS=4096
ZL=0
PAT=/tmp/peer-pattern

# zslba Z: the first LBA of zone Z
zslba() {
	echo $(($1 * ZL))
}

# lbas BYTES: BYTES in LBAs
lbas() {
	echo $(($1 / LBS))
}

# status_of OUTPUT: the NVMe status nvme-cli printed (hex, DNR and More
# bits dropped), or "ok" if there was none
# (called in $(...))
status_of() {
	so=$(echo "$1" | sed -n 's/.*(0x\([0-9a-fA-F]*\)).*/\1/p' | head -n 1)
	if [ -z "$so" ]; then echo ok; else printf '%x\n' $((0x$so & 0x7ff)); fi
}

# want STATUS COMMAND...: PROBE_RESULT is "pass" if COMMAND failed with
# NVMe status STATUS (hex), else says what it got
want() {
	w_code=$1
	w_rc=0
	shift
	w_out=$("$@" 2>&1) || w_rc=$?
	echo "$w_out" | head -n 3 >&2
	w_got=$(status_of "$w_out")
	if [ $w_rc -ne 0 ] && [ "$w_got" = "$w_code" ]; then
		PROBE_RESULT=pass
	elif [ $w_rc -eq 0 ]; then
		PROBE_RESULT="FAIL (succeeded)"
	elif [ "$w_got" = ok ]; then
		PROBE_RESULT="FAIL ($(echo "$w_out" | head -n 1 | cut -c1-40))"
	else
		PROBE_RESULT="FAIL (got ${w_got}h)"
	fi
}

# wr LBA BYTES: a write of BYTES of the pattern at LBA
wr() {
	nvme write "$DEV" --start-block="$1" --block-count=$(($(lbas "$2") - 1)) \
		--data-size="$2" --data=$PAT
}

# rd LBA BYTES FILE: a read of BYTES at LBA into FILE
rd() {
	nvme read "$DEV" --start-block="$1" --block-count=$(($(lbas "$2") - 1)) \
		--data-size="$2" --data="$3"
}

zmgmt() {
	nvme zns "$1" "$DEV" --start-lba="$2"
}

# report FILTER: Report Zones (7Ah, action 0) from LBA 0 with state
# filter FILTER (ZRAS: 1 empty, 2 implicitly open, 5 full, ...) into a
# 4 KiB buffer; prints the count, then each zone's first LBA
report() {
	nvme io-passthru "$DEV" --opcode=0x7a --namespace-id=1 --cdw10=0 \
		--cdw11=0 --cdw12=1023 --cdw13=$(($1 << 8)) --data-len=4096 \
		--read --raw-binary >/tmp/peer-report 2>/tmp/peer-report.err || {
		cat /tmp/peer-report.err >&2
		echo "status $(status_of "$(cat /tmp/peer-report.err)")h"
		return 1
	}
	rp_n=$(od -A n -t u8 -j 0 -N 8 /tmp/peer-report | tr -d ' ')
	echo "$rp_n"
	rp_i=0
	while [ "$rp_i" -lt "$rp_n" ] && [ "$rp_i" -lt 63 ]; do
		od -A n -t u8 -j $((64 + 64 * rp_i + 16)) -N 8 /tmp/peer-report | tr -d ' '
		rp_i=$((rp_i + 1))
	done
}

probe_small_write() {
	z=$(zslba 2)
	if out=$(wr "$z" 4096 2>&1); then
		PROBE_RESULT=pass
	else
		echo "$out" | head -n 2 >&2
		PROBE_RESULT="FAIL (got $(status_of "$out")h)"
	fi
}

probe_append_lba() {
	z=$(zslba 1)
	out1=$(nvme zns zone-append "$DEV" --zslba="$z" --data-size=131072 \
		--data=$PAT 2>&1) || { PROBE_RESULT="FAIL (got $(status_of "$out1")h)"; return; }
	out2=$(nvme zns zone-append "$DEV" --zslba="$z" --data-size=131072 \
		--data=$PAT 2>&1) || { PROBE_RESULT="FAIL (second: $(status_of "$out2")h)"; return; }
	echo "$out1; $out2" >&2
	if echo "$out1" | grep -qi "LBA $(printf '%x' "$z")\$" &&
		echo "$out2" | grep -qi "LBA $(printf '%x' $((z + $(lbas 131072))))\$"; then
		PROBE_RESULT=pass
	else
		PROBE_RESULT="FAIL (LBAs: ${out1##* }, ${out2##* })"
	fi
}

probe_write_off_wp() {
	want 1bc wr $(($(zslba 3) + $(lbas 262144))) 131072
}

probe_full() {
	z=$(zslba 4)
	zmgmt finish-zone "$z" >&2 || { PROBE_RESULT="FAIL (finish-zone refused)"; return; }
	want 1b9 nvme zns zone-append "$DEV" --zslba="$z" --data-size=131072 --data=$PAT
}

probe_close_empty() {
	want 1bf zmgmt close-zone "$(zslba 5)"
}

probe_too_many_open() {
	mor=$(nvme zns id-ns "$DEV" -o json | jq -r .mor)
	nz=$(cat "/sys/block/${DEV#/dev/}/queue/nr_zones")
	# MOR is 0-based; FFFFFFFFh (nvme-cli: -1) is no limit.
	if [ "$mor" -lt 0 ] || [ $((mor + 1)) -ge $((nz - 6)) ]; then
		PROBE_RESULT="n/a (MOR+1 = $((mor + 1)) of $nz zones)"
		return
	fi
	nvme zns reset-zone "$DEV" --select-all >&2
	z=6
	while [ $z -lt $((6 + mor + 1)) ]; do
		zmgmt open-zone "$(zslba $z)" >/dev/null ||
			{ PROBE_RESULT="FAIL (opening zone $z of MOR+1 = $((mor + 1)))"; return; }
		z=$((z + 1))
	done
	want 1be zmgmt open-zone "$(zslba $z)"
	nvme zns reset-zone "$DEV" --select-all >&2
}

probe_report_filter() {
	a=$(zslba 21)
	b=$(zslba 22)
	wr "$a" 131072 >&2 || { PROBE_RESULT="FAIL (the write to zone 21)"; return; }
	zmgmt finish-zone "$b" >&2 || { PROBE_RESULT="FAIL (finish-zone refused)"; return; }
	# Zone 4 is full too (probe_full), zone 21 implicitly open.
	got=$(report 5 | tr '\n' ' ') || { PROBE_RESULT="FAIL (filter Full: $got)"; return; }
	case $got in status*) PROBE_RESULT="FAIL (filter Full: got ${got#status })"; return ;; esac
	want_full="2 $(zslba 4) $b "
	if [ "$got" != "$want_full" ]; then
		PROBE_RESULT="FAIL (Full: got '$got', want '$want_full')"
		return
	fi
	got=$(report 2 | tr '\n' ' ') || { PROBE_RESULT="FAIL (filter Implicitly Opened: $got)"; return; }
	# Implicitly open: zones 1 (appends), 2 (the 4 KiB write), 21 (the
	# first two only where they took their writes): zone 21 must be there.
	case " $got " in
	" status"*) PROBE_RESULT="FAIL (filter Implicitly Opened: got ${got#status })" ;;
	*" $a "*) PROBE_RESULT=pass ;;
	*) PROBE_RESULT="FAIL (Implicitly Opened: got '$got', no zone 21 at $a)" ;;
	esac
}

probe_reset_zeroes() {
	z=$(zslba 23)
	wr "$z" 131072 >&2 || { PROBE_RESULT="FAIL (the write)"; return; }
	rd "$z" 131072 /tmp/peer-got >&2 || { PROBE_RESULT="FAIL (the read)"; return; }
	cmp -s /tmp/peer-got $PAT || { PROBE_RESULT="FAIL (data read back differs)"; return; }
	zmgmt reset-zone "$z" >&2 || { PROBE_RESULT="FAIL (reset-zone refused)"; return; }
	rd "$z" 131072 /tmp/peer-got >&2 || { PROBE_RESULT="FAIL (the read after the reset)"; return; }
	if cmp -s /tmp/peer-got /tmp/peer-zeros; then
		PROBE_RESULT=pass
	else
		PROBE_RESULT="FAIL (old data after the reset)"
	fi
}

probe_oor_read() {
	nsze=$(nvme id-ns "$DEV" -o json | jq -r .nsze)
	want 80 rd "$nsze" 4096 /tmp/peer-got
}

PROBES="too_many_open small_write append_lba write_off_wp full close_empty report_filter reset_zeroes oor_read"

probe_title() {
	case $1 in
	small_write) echo "4 KiB write at an empty zone's WP succeeds" ;;
	append_lba) echo "Zone Append returns the LBA written" ;;
	write_off_wp) echo "write off the WP: Zone Invalid Write 1BCh" ;;
	full) echo "append to a full zone: Zone Is Full 1B9h" ;;
	close_empty) echo "close an empty zone: Invalid Transition 1BFh" ;;
	too_many_open) echo "open MOR+2 zones: Too Many Open 1BEh" ;;
	report_filter) echo "Report Zones with a state filter" ;;
	reset_zeroes) echo "a reset zone reads zeros" ;;
	oor_read) echo "read past the end: LBA Out Of Range 80h" ;;
	esac
}

# probes NAME: every probe on emulator NAME (up), results in
# $OUT/probe-NAME-PROBE
probes() {
	LBS=$(cat "/sys/block/${DEV#/dev/}/queue/logical_block_size")
	ZL=$(($(cat "/sys/block/${DEV#/dev/}/queue/chunk_sectors") * 512 / LBS))
	nvme zns reset-zone "$DEV" --select-all >&2 || true
	for p in $PROBES; do
		if [ "$p" = oor_read ] && [ "$1" = nvmevirt ]; then
			echo "skipped (crashes the kernel here; -R runs it last)" \
				>"$OUT/probe-$1-$p"
			continue
		fi
		log "probe $p on $1"
		PROBE_RESULT="FAIL (no result)"
		"probe_$p"
		echo "$PROBE_RESULT" >"$OUT/probe-$1-$p"
		echo "probe $1: $(probe_title "$p"): $PROBE_RESULT"
	done
}

probe_table() {
	echo "conformance (each probe on a fresh zone; docs/zns.md):"
	printf '  %-46s %-24s %s\n' probe vflash NVMeVirt
	for p in $PROBES; do
		printf '  %-46s %-24s %s\n' "$(probe_title "$p")" \
			"$(cat "$OUT/probe-vflash-$p")" "$(cat "$OUT/probe-nvmevirt-$p")"
	done
}

bench_zns() {
	rm -f "$OUT"/ratio-* "$OUT"/probe-*
	dd if=/dev/urandom of=$PAT bs=131072 count=1 2>/dev/null
	dd if=/dev/zero of=/tmp/peer-zeros bs=131072 count=1 2>/dev/null
	r=1
	while [ $r -le "$ROUNDS" ]; do
		for d in $(order $r); do
			up "$d"
			[ "$(cat "/sys/block/${DEV#/dev/}/queue/zoned")" = host-managed ] ||
				die "$d's $DEV is not a host-managed zoned device"
			zns_jobs "$d-r$r" "$DEV"
			down "$d"
		done
		for j in $ZJOBS; do
			v=$(iops "vflash-r$r-$j")
			n=$(iops "nvmevirt-r$r-$j")
			echo "$r $j $v $n" >>"$OUT/iops"
			awk -v v="$v" -v n="$n" 'BEGIN { print v / n }' >>"$OUT/ratio-$j"
		done
		r=$((r + 1))
	done
	echo
	echo "vflash ($VPARAMS) vs NVMeVirt ($(cat "${NKO%/*}/nvmevirt.txt" 2>/dev/null ||
		echo "$NKO"); $NPARAMS); fio zonemode=zbd over $REGION of each 1 GiB" \
		"device, ${RUNTIME}s a timed job, fio on CPUs $FIOCPUS"
	echo "IOPS per round:"
	printf '  %-5s %-28s %10s %10s\n' round job vflash NVMeVirt
	awk '{ printf "  %-5s %-28s %10.0f %10.0f\n", $1, $2, $3, $4 }' "$OUT/iops"
	echo "ratios vflash / NVMeVirt (median of the rounds' ratios):"
	for j in $ZJOBS; do
		ratio_line "$j" "$OUT/ratio-$j" ""
	done
	# The probes, NVMeVirt's last: its nvme-cli commands have corrupted
	# user memory in the VM (nvme-cli, then this shell, aborted in
	# malloc), so each result is printed as it comes.
	echo
	for d in vflash nvmevirt; do
		up "$d"
		probes "$d"
		if [ "$d" != nvmevirt ] || [ $RISKY = 0 ]; then
			down "$d"
		fi
	done
	echo
	probe_table
	if [ $RISKY = 1 ]; then
		echo "peer: now the read past NVMeVirt's end (-R); if nothing follows, it took the kernel down"
		PROBE_RESULT="FAIL (no result)"
		probe_oor_read
		echo "  NVMeVirt, read past the end: $PROBE_RESULT"
		down nvmevirt
	fi
}

case $MODE in
conv) bench_conv ;;
zns) bench_zns ;;
esac
