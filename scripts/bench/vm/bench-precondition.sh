# SPDX-License-Identifier: GPL-2.0
# `make bench-precondition`: does instant preconditioning leave the state
# a real one does? (issue 41; docs/design/precondition.md, "Validation").
# Not a test: it lives outside scripts/vm/suites/, so make check skips it.
#
# For each workload kind (seq, random, hotcold 20:80) and each round, in
# one boot, arms in an order that rotates every round (a drift of the
# host's load falls on all alike):
#   real     the device, new, takes twice its capacity of host writes
#            through the NVMe frontend with fio: a sequential pass, then
#            seq: a second one; random: uniform 4 KiB random writes
#            (norandommap: with replacement, as the replay); hotcold:
#            fio's random_distribution=zoned:80/20:20/80 (80 % of the
#            writes on the first 20 % of the LBAs), QD32;
#   instant  the device, new, held, and `precondition workload=W`
#            (written=200: the same two capacities) with replay=full;
#   die      the same with replay=die (die 0's share replayed, copied to
#            the other dies: what a large device gets).
# Then every arm runs the same measured workload: 4 KiB random 70/30
# reads and writes at QD1 (MEAS_IOS of them), with every latency knob of
# the profile scaled by K, so that the model, not the host, sets each
# latency. Reported per arm: the measured run's write amplification and
# GC copies per host page written (counter deltas), fio's read and write
# completion-latency percentiles (what the host saw: the model's time plus
# the VM's), and the same percentiles of the model's own latency of each
# request (model_ns of the vflash_request_submit trace event: arrival to
# due time, which the host's speed reaches only through when requests
# arrive), exact, not from a histogram.
#
# Fixed for every arm: profile tlc, 4 dies (2 channels x 2), 32-page
# blocks, stripe placement (the one-die replay needs it), inline
# maintenance (cleaning on the write path: the state does not depend on
# the host's pace; docs/design/precondition.md says why the background
# worker's does), and read retries by data age off
# (read_retry_age_milli=0): the real run's data ages are the TCG host's
# wall clock, the replay's the flash's own write time; P/E-cycle retries
# stay on.
# vmtest-env: PRE_ROUNDS PRE_SIZE PRE_MEAS_IOS PRE_K
# vmtest-mem: 4G
# vmtest-smp: 2
# vmtest-timeout: 5400

SIZE=${PRE_SIZE:-128M}
ROUNDS=${PRE_ROUNDS:-3}
MEAS_IOS=${PRE_MEAS_IOS:-10000}
K=${PRE_K:-50}
SYS=/sys/class/vflash/vflash0
DEV=/dev/nvme0n1
T=/sys/kernel/tracing
SCALED="main_read_ns main_prog_ns main_erase_ns channel_xfer_ns host_xfer_ns fw_overhead_ns"

pre_load() {
	insmod "$KO" frontend=nvme size="$SIZE" profile=tlc channels=2 \
		dies_per_channel=2 pages_per_block=32 || fail "insmod"
	wait_for $DEV
	echo stripe >$SYS/policy/placement || fail "placement=stripe"
	echo inline >$SYS/policy/maintenance || fail "maintenance=inline"
	echo 0 >$SYS/config/read_retry_age_milli || fail "read_retry_age_milli"
}

pre_unload() {
	rmmod vflash || fail "rmmod"
}

# real W SEED: twice the capacity through fio, as the replay's workload
real() {
	local dist=random extra=

	fio --name=fill --filename=$DEV --direct=1 --ioengine=libaio \
		--iodepth=32 --bs=4k --rw=write --output=/dev/null ||
		fail "fio: sequential pass"
	case $1 in
	seq)
		fio --name=seq --filename=$DEV --direct=1 --ioengine=libaio \
			--iodepth=32 --bs=4k --rw=write --output=/dev/null ||
			fail "fio: second sequential pass"
		return ;;
	hotcold) extra=--random_distribution=zoned:80/20:20/80 ;;
	esac
	# shellcheck disable=SC2086 # $extra: one option or none
	fio --name=$dist --filename=$DEV --direct=1 --ioengine=libaio \
		--iodepth=32 --bs=4k --rw=randwrite --norandommap \
		--randseed="$2" --number_ios=$(($(blockdev --getsize64 $DEV) / 4096)) \
		$extra --output=/dev/null || fail "fio: $1 overwrite"
}

# instant W SEED MODE
instant() {
	local w=$1

	[ "$w" = hotcold ] && w="hotcold hot=20:80"
	hold_nvme
	echo "workload=$w seed=$2 replay=$3" >$SYS/precondition ||
		fail "precondition: $(dmesg | grep precondition | tail -n 1)"
	echo "vmtest: $(cat $SYS/precondition)"
	echo running >$SYS/state || fail "state=running"
	wait_for $DEV
}

st() { cat $SYS/stats/"$1"; }

# measure ARM W ROUND SEED: the measured workload, one BENCH line
measure() {
	local k v h0 n0 c0 h n c j pct

	for k in $SCALED; do
		v=$(cat "$SYS/config/$k")
		echo $((v * K)) >"$SYS/config/$k" || fail "config/$k"
	done
	h0=$(st host_write_pages)
	n0=$(st nand_program_pages)
	c0=$(st gc_copied_pages)
	trace_on
	fio --name=meas --filename=$DEV --direct=1 --ioengine=psync --bs=4k \
		--rw=randrw --rwmixread=70 --norandommap --randseed="$4" \
		--number_ios="$MEAS_IOS" --percentile_list=50:90:99:99.9 \
		--output-format=json --output=/tmp/meas.json ||
		fail "fio: measured workload"
	trace_off
	h=$(($(st host_write_pages) - h0))
	n=$(($(st nand_program_pages) - n0))
	c=$(($(st gc_copied_pages) - c0))
	j=/tmp/meas.json
	pct() {
		jq -r ".jobs[0].$1.clat_ns.percentile[\"$2\"] // 0" $j |
			awk '{ printf "%.1f", $1 / 1000 }'
	}
	report "BENCH $2 $1 $3 host_pages=$h nand_pages=$n gc_copies=$c" \
		"waf=$(awk -v n=$n -v h=$h 'BEGIN { printf "%.4f", h ? n / h : 0 }')" \
		"copy_rate=$(awk -v c=$c -v h=$h 'BEGIN { printf "%.4f", h ? c / h : 0 }')" \
		"r_p50=$(pct read 50.000000) r_p90=$(pct read 90.000000)" \
		"r_p99=$(pct read 99.000000) r_p999=$(pct read 99.900000)" \
		"w_p50=$(pct write 50.000000) w_p90=$(pct write 90.000000)" \
		"w_p99=$(pct write 99.000000) w_p999=$(pct write 99.900000)" \
		"$(model_pcts read m_r) $(model_pcts write m_w)"
}

# trace_on / trace_off: record the measured run's vflash_request_submit
# events (about 150 bytes each; 16 MiB per CPU holds 100,000)
trace_on() {
	# the guest's /init mounts debugfs, not tracefs
	[ -e $T/trace ] || mount -t tracefs nodev $T || fail "mount tracefs"
	# No command-name recording: enabling an event would patch the
	# scheduler's own trace points too, and a TCG guest once hung there
	# (CPU 1 looping on the patch's int3 in __schedule, CPU 0 waiting for
	# its IPI; 2026-12-07).
	echo 0 >$T/options/record-cmd || fail "tracing: record-cmd"
	echo 0 >$T/tracing_on
	echo 16384 >$T/buffer_size_kb || fail "tracing: buffer_size_kb"
	echo >$T/trace
	echo 1 >$T/events/vflash/vflash_request_submit/enable ||
		fail "tracing: vflash_request_submit"
	echo 1 >$T/tracing_on
}

trace_off() {
	echo 0 >$T/tracing_on
	echo 0 >$T/events/vflash/vflash_request_submit/enable
	grep ' vflash_request_submit: vflash0 nvme ' $T/trace |
		sed -n 's/.* nvme \(read\|write\) .* model_ns=\([0-9]*\) .*/\1 \2/p' \
		>/tmp/model.txt
	grep -q 'LOST EVENTS' $T/trace && fail "tracing: events lost"
	echo >$T/trace
}

# model_pcts OP PREFIX: PREFIX_p50= ... PREFIX_p999= in us, the nearest-
# rank percentiles of the model's latency of the measured run's OPs
model_pcts() {
	awk -v op="$1" '$1 == op { print $2 }' /tmp/model.txt | sort -n |
		awk -v p="$2" '{ v[NR] = $1 }
		END {
			split("50 90 99 99.9", q, " ")
			for (i = 1; i <= 4; i++) {
				k = int(NR * q[i] / 100)
				if (k < NR * q[i] / 100) k++
				if (k < 1) k = 1
				name = q[i] == "99.9" ? "999" : q[i]
				printf "%s%s_p%s=%.1f", (i > 1 ? " " : ""), p, name,
					NR ? v[k] / 1000 : 0
			}
			printf " %s_n=%d", p, NR
		}'
}

# arm ARM W ROUND
arm() {
	local seed=$((100 + $3)) t0

	pre_load
	t0=$(date +%s)
	case $1 in
	real) real "$2" $seed ;;
	instant) instant "$2" $seed full ;;
	die) instant "$2" $seed die ;;
	esac
	echo "vmtest: $1 $2 round $3: preconditioned in $(($(date +%s) - t0)) s"
	# Not the preconditioning's: the measured run's own.
	measure "$1" "$2" "$3" $((200 + $3))
	pre_unload
}

bench_precondition() {
	local r w a arms

	report "BENCH config size=$SIZE rounds=$ROUNDS meas_ios=$MEAS_IOS k=$K"
	for r in $(seq 1 "$ROUNDS"); do
		case $((r % 3)) in
		1) arms="real instant die" ;;
		2) arms="instant die real" ;;
		0) arms="die real instant" ;;
		esac
		for w in seq random hotcold; do
			for a in $arms; do
				arm "$a" "$w" "$r"
			done
		done
	done
}

run_test bench-precondition bench_precondition
