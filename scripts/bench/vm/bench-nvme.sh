# SPDX-License-Identifier: GPL-2.0
# `make bench-nvme`: scripts/bench/nvme.sh in the project's VM, on vflash
# (frontend=nvme profile=tlc) and on null_blk in the same boot. Not a
# test: it lives outside scripts/vm/suites/, so `make check` skips it.
# The report goes to the results port as "BENCH " lines.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 1200

BENCH_RUNTIME=15

bench_nvme() {
	# null_blk: blk-mq, one submission queue per CPU like nvme, softirq
	# completion (the completion path of an interrupt-driven device
	# without its device time), no data moved: the block stack's ceiling.
	modprobe configfs
	modprobe null_blk queue_mode=2 irqmode=1 submit_queues="$(nproc)" \
		hw_queue_depth=1024 gb=1 bs=4096 nr_devices=1 ||
		fail "modprobe null_blk"
	wait_for /dev/nullb0
	# The device's threads on the last vCPU, spinning for completions
	# due within 500 us: waking a halted vCPU costs tens to hundreds of
	# us in TCG (docs/performance.md compares this with the defaults).
	load frontend=nvme profile=tlc size=1G cpus=$(($(nproc) - 1)) spin_us=500
	wait_for /dev/nvme0n1
	/vflash/bench/nvme.sh -d /dev/nvme0n1 -n /dev/nullb0 \
		-t "$BENCH_RUNTIME" -s 1G -o /tmp/bench >/tmp/bench.out ||
		{ cat /tmp/bench.out; fail "scripts/bench/nvme.sh"; }
	while IFS= read -r line; do
		report "BENCH $line"
	done </tmp/bench.out
	unload
	rmmod null_blk
}

run_test bench-nvme bench_nvme
