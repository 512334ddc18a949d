# SPDX-License-Identifier: GPL-2.0
# `make bench-threads`: the NVMe frontend's thread layouts side by side in
# one boot (docs/performance.md). Not a test: make check skips it.
# Each layout, loaded afresh for every round (frontend=nvme profile=tlc
# size=1G spin_us=500 and its cpus= and workers=): the first 256 MiB
# written sequentially, then fio 4 KiB random reads over them for RUNTIME
# seconds after a 1 s ramp at QD1 (psync) and QD32 (libaio), fio on vCPUs
# 0-1. Prints per round and layout the IOPS and fio's completion-latency
# median, then per layout the median of the rounds' IOPS relative to the
# first layout's (x1000).
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 1200

ROUNDS=${ROUNDS:-3}
RUNTIME=${RUNTIME:-5}
# name:parameters (commas in cpus= lists are the module's own)
LAYOUTS="c3w1:cpus=3,workers=1 c3w0:cpus=3,workers=0 c23w1:cpus=2,3,workers=1 c23w2:cpus=2,3,workers=2"

# fio_read NS ENGINE DEPTH: "IOPS P50_US" of one random-read job
fio_read() {
	fio --name=r --filename="$1" --ioengine="$2" --iodepth="$3" \
		--direct=1 --rw=randread --bs=4k --size=256M --time_based \
		--ramp_time=1 --runtime="$RUNTIME" --cpus_allowed=0-1 \
		--output-format=json >/tmp/r.json 2>/dev/null || fail "fio $2 QD$3"
	jq -r '.jobs[0].read | "\(.iops | floor) \(.clat_ns.percentile["50.000000"] / 1000 | floor)"' /tmp/r.json
}

# layout NAME PARAMS: one round of one layout, "NAME qd1 p50 qd32 p50"
layout() {
	local params ns
	# cpus=2,3,workers=1 -> cpus=2,3 workers=1
	params=$(echo "$2" | sed 's/,workers=/ workers=/')
	# shellcheck disable=SC2086 # one word per parameter
	insmod "$KO" frontend=nvme profile=tlc size=1G spin_us=500 $params ||
		fail "insmod $params"
	ns=$(wait_ns)
	fio --name=fill --filename="$ns" --ioengine=libaio --direct=1 \
		--rw=write --bs=128k --iodepth=32 --size=256M \
		--output-format=terse >/tmp/fill.out 2>&1 ||
		{ cat /tmp/fill.out; fail "fio fill"; }
	echo "$1 $(fio_read "$ns" psync 1) $(fio_read "$ns" libaio 32)"
	rmmod vflash || fail "rmmod"
}

bench_threads() {
	local r l name first line
	need_configfs
	report "BENCH threads: profile=tlc size=1G spin_us=500, ${RUNTIME} s a job, $ROUNDS rounds, fio on vCPUs 0-1"
	report "BENCH round layout qd1_iops qd1_p50_us qd32_iops qd32_p50_us"
	for r in $(seq "$ROUNDS"); do
		first=
		for l in $LAYOUTS; do
			name=${l%%:*}
			line=$(layout "$name" "${l#*:}")
			report "BENCH $r $line"
			# shellcheck disable=SC2086 # split the layout's line
			set -- $line
			[ "$2" -gt 0 ] && [ "$4" -gt 0 ] || fail "$name: no IOPS"
			[ -n "$first" ] || first="$2 $4"
			echo "$(($2 * 1000 / ${first% *})) $(($4 * 1000 / ${first#* }))" >>"/tmp/rel-$name"
		done
	done
	for l in $LAYOUTS; do
		name=${l%%:*}
		report "BENCH $name / ${LAYOUTS%%:*} IOPS: QD1 $(cut -d' ' -f1 "/tmp/rel-$name" | median_lower), QD32 $(cut -d' ' -f2 "/tmp/rel-$name" | median_lower) (x1000; rounds: $(tr '\n' ',' <"/tmp/rel-$name" | sed 's/,$//'))"
	done
}

run_test bench-threads bench_threads
