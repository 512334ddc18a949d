# SPDX-License-Identifier: GPL-2.0
# `make bench-base [BASE=REV]`: the NVMe command path's speed, BASE's
# vflash.ko (/vflash/base.ko, scripts/bench/baseline-ko.sh; default
# 8aecb66, the end of the first wave) beside this one, in one boot. Not a
# test: make check skips it.
# Each arm, loaded afresh for every round (frontend=nvme profile=tlc
# size=1G cpus=3 spin_us=500: its threads on vCPU 3), once with the
# default completion worker (workers=1) and once without (workers=0: the
# dispatcher posts, the better layout on one CPU, make bench-threads),
# the order reversed
# every other round so that a drift of the host's load falls on both
# alike: the first 512 MiB written sequentially (a read of a never-written
# page costs no flash time), then fio 4 KiB random reads over them, 2 s
# ramp and RUNTIME seconds, at QD1 (psync) and QD32 (libaio), fio on
# vCPUs 0-2. Prints each round's IOPS and fio's own CPU use at QD32 (user
# plus system, % of one vCPU: near 100, the guest's submitting thread, not
# the device, sets the pace) and, per layout and queue depth, the median
# of the rounds' head / base ratios. The issue's target: >= 1.0 at both
# depths.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 1500

ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-10}
BASE_LOAD="frontend=nvme profile=tlc size=1G cpus=3 spin_us=500"

# iops FILE: fio's JSON read IOPS, an integer
iops() {
	jq -r '.jobs[0].read.iops | floor' "$1"
}

# fio_cpu FILE: fio's job's user plus system CPU, % of one CPU, an integer
fio_cpu() {
	jq -r '.jobs[0].usr_cpu + .jobs[0].sys_cpu | floor' "$1"
}

# arm NAME KO WORKERS: one round of one arm; prints "NAME qd1_iops
# qd32_iops qd32_fio_cpu"
arm() {
	local name=$1 ko=$2 ns
	need_configfs
	# shellcheck disable=SC2086 # BASE_LOAD: one word per parameter
	insmod "$ko" $BASE_LOAD workers="$3" || fail "insmod $ko workers=$3"
	ns=$(wait_ns)
	fio --name=fill --filename="$ns" --ioengine=libaio --direct=1 \
		--rw=write --bs=128k --iodepth=32 --size=512M \
		--cpus_allowed=0-2 --output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio fill"; }
	fio --name=qd1 --filename="$ns" --ioengine=psync --direct=1 \
		--rw=randread --bs=4k --size=512M --time_based \
		--ramp_time=2 --runtime="$RUNTIME" --cpus_allowed=0-2 \
		--output-format=json >/tmp/qd1.json 2>/dev/null || fail "fio QD1"
	fio --name=qd32 --filename="$ns" --ioengine=libaio --direct=1 \
		--rw=randread --bs=4k --iodepth=32 --size=512M --time_based \
		--ramp_time=2 --runtime="$RUNTIME" --cpus_allowed=0-2 \
		--output-format=json >/tmp/qd32.json 2>/dev/null || fail "fio QD32"
	rmmod vflash || fail "rmmod"
	echo "$name $(iops /tmp/qd1.json) $(iops /tmp/qd32.json) $(fio_cpu /tmp/qd32.json)"
}

bench_base() {
	local r q w b h b1 b32 h1 h32
	[ -f /vflash/base.ko ] || fail "no /vflash/base.ko (make bench-base builds it)"
	report "BENCH load $BASE_LOAD workers=1 and workers=0, ${RUNTIME} s a job, $ROUNDS rounds"
	report "BENCH round arm qd1_iops qd32_iops qd32_fio_cpu%"
	for w in 1 0; do
		: >/tmp/ratio1-w$w
		: >/tmp/ratio32-w$w
		: >/tmp/cpu-base-w$w
		: >/tmp/cpu-head-w$w
	done
	for r in $(seq "$ROUNDS"); do
		for w in 1 0; do
			if [ $((r % 2)) = 1 ]; then
				b=$(arm base-w$w /vflash/base.ko $w)
				h=$(arm head-w$w "$KO" $w)
			else
				h=$(arm head-w$w "$KO" $w)
				b=$(arm base-w$w /vflash/base.ko $w)
			fi
			report "BENCH $r $b"
			report "BENCH $r $h"
			# shellcheck disable=SC2086 # split the arm's line
			set -- $b
			b1=$2 b32=$3
			echo "$4" >>/tmp/cpu-base-w$w
			# shellcheck disable=SC2086
			set -- $h
			h1=$2 h32=$3
			echo "$4" >>/tmp/cpu-head-w$w
			if [ "$b1" -le 0 ] || [ "$b32" -le 0 ]; then fail "base: no IOPS"; fi
			echo "$((h1 * 1000 / b1))" >>/tmp/ratio1-w$w
			echo "$((h32 * 1000 / b32))" >>/tmp/ratio32-w$w
		done
	done
	for w in 1 0; do
		for q in 1 32; do
			r=$(median_lower </tmp/ratio$q-w$w)
			report "BENCH head/base workers=$w QD$q: median $((r / 1000)).$(printf %03d $((r % 1000))) (rounds: $(tr '\n' ' ' </tmp/ratio$q-w$w | sed 's/ $//'), x1000; target >= 1.000: $([ "$r" -ge 1000 ] && echo met || echo MISS))"
		done
		report "BENCH fio's CPU at QD32, workers=$w: base $(median_lower </tmp/cpu-base-w$w) %, head $(median_lower </tmp/cpu-head-w$w) % of one vCPU (medians; near 100: the submitting thread sets the pace)"
	done
}

run_test bench-base bench_base
