# SPDX-License-Identifier: GPL-2.0
# `make bench-idle [BASE=REV]`: what an idle NVMe device costs the host,
# BASE's vflash.ko (/vflash/base.ko, scripts/bench/baseline-ko.sh) beside
# this one, in one boot. Not a test: make check skips it.
# Each arm, loaded afresh for every round (frontend=nvme profile=tlc
# size=256M, default polling parameters), the order reversed every other
# round so that a drift of the host's load falls on both alike:
#   - a burst of I/O (fio 4 KiB random reads, QD1, 2 s: its IOPS), then
#     IDLE_S seconds without any: the CPU time of the device's threads
#     (the dispatcher and its completion worker, from
#     /proc/PID/schedstat) over those seconds, in percent of one CPU;
#   - then one 4 KiB read (the first command after the pause) against
#     the median of the next 200 (fio's completion latencies): how long a
#     command that finds the dispatcher asleep waits to be fetched.
# TCG inflates every wake-up, so the percentages are upper bounds of what
# a real host pays; compare the arms of one boot.
# vmtest-mem: 4G
# vmtest-smp: 2
# vmtest-timeout: 900

IDLE_S=${IDLE_S:-10}
ROUNDS=${ROUNDS:-3}

# threads_ns: CPU time so far of vflash0's NVMe threads, ns
threads_ns() {
	local p sum=0 t
	for p in /proc/[0-9]*; do
		case "$(cat "$p/comm" 2>/dev/null)" in
		vflash0-nvme*)
			read -r t _ <"$p/schedstat" 2>/dev/null || continue
			sum=$((sum + t)) ;;
		esac
	done
	echo $sum
}

# uptime_ns: time since boot, 10 ms resolution (busybox date has no %N)
uptime_ns() {
	local s
	read -r s _ </proc/uptime
	echo $((${s%.*} * 1000000000 + ${s#*.} * 10000000))
}

# clat_us FILE PCT: fio's JSON completion latency of its reads, us: the
# mean (PCT "mean") or a percentile ("50.000000")
clat_us() {
	if [ "$2" = mean ]; then
		jq -r '.jobs[0].read.clat_ns.mean / 1000 | floor' "$1"
	else
		jq -r ".jobs[0].read.clat_ns.percentile[\"$2\"] / 1000 | floor" "$1"
	fi
}

# arm NAME KO: one round of one arm; prints "NAME idle_pct iops first_us median_us"
arm() {
	local name=$1 ko=$2 ns t0 t1 c0 c1 iops first med
	need_configfs
	insmod "$ko" frontend=nvme size=256M profile=tlc ||
		fail "insmod $ko"
	ns=$(wait_ns)
	dd if=/dev/urandom of="$ns" bs=1M count=64 oflag=direct 2>/dev/null
	fio --name=burst --filename="$ns" --ioengine=psync --direct=1 \
		--rw=randread --bs=4k --size=64M --time_based --runtime=2 \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio burst"; }
	iops=$(cut -d';' -f8 /tmp/fio.out)
	c0=$(threads_ns)
	t0=$(uptime_ns)
	sleep "$IDLE_S"
	c1=$(threads_ns)
	t1=$(uptime_ns)
	# One read after the pause, then 200 back to back (fio's own clock).
	fio --name=first --filename="$ns" --ioengine=psync --direct=1 \
		--rw=randread --bs=4k --size=64M --number_ios=1 \
		--output-format=json >/tmp/first.json 2>/dev/null ||
		fail "fio first read"
	fio --name=next --filename="$ns" --ioengine=psync --direct=1 \
		--rw=randread --bs=4k --size=64M --number_ios=200 \
		--output-format=json >/tmp/next.json 2>/dev/null ||
		fail "fio reads"
	first=$(clat_us /tmp/first.json mean)
	med=$(clat_us /tmp/next.json 50.000000)
	rmmod vflash || fail "rmmod"
	echo "$name $(((c1 - c0) * 10000 / (t1 - t0))) $iops $first $med"
}

bench_idle() {
	local r out
	[ -f /vflash/base.ko ] || fail "no /vflash/base.ko (make bench-idle builds it)"
	: >/tmp/idle.out
	for r in $(seq "$ROUNDS"); do
		if [ $((r % 2)) = 1 ]; then
			arm base /vflash/base.ko >>/tmp/idle.out
			arm head "$KO" >>/tmp/idle.out
		else
			arm head "$KO" >>/tmp/idle.out
			arm base /vflash/base.ko >>/tmp/idle.out
		fi
	done
	report "BENCH arm idle_cpu_pct qd1_iops first_read_us median_read_us"
	while read -r name pct iops first med; do
		out=$(printf '%s %d.%02d %s %s %s' "$name" $((pct / 100)) \
			$((pct % 100)) "$iops" "$first" "$med")
		report "BENCH $out"
	done </tmp/idle.out
}

run_test bench-idle bench_idle
