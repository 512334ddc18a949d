# SPDX-License-Identifier: GPL-2.0
# `make bench-fidelity`: scripts/bench/fidelity.sh in the project's VM:
# lateness on the default tlc profile, and measured / predicted ratios of
# jobs that a slowed model (tR 1-5 ms) makes device-bound, on vflash's
# NVMe and CXL frontends. Not a test: it lives outside scripts/vm/suites/,
# so `make check` skips it. The report goes to the results port as
# "BENCH " lines.
# As bench-nvme: the NVMe frontend's threads on the last vCPU, spinning
# for completions due within 500 us (waking a halted vCPU costs tens to
# hundreds of us in TCG); and the dispatcher never naps between polls
# (poll_idle_us 1 s): with a 5 ms read at QD1 it would otherwise be idle
# for longer than the default 1 ms before each command and fetch it up to
# 1.25 ms late (the model starts a request when it is fetched). With
# workers=0 the dispatcher posts the completions itself: a completion
# worker bound to the same vCPU as a dispatcher that never sleeps can
# wait for the dispatcher's time slice to end (lateness p50 31.7 us at
# QD32 and 3.4 ms at QD128 on one die in a trial, against 2.0 us and
# 37 us with workers=0, on a host this loaded that one boot each is no
# proof); on a vCPU of its own it costs a second spinning vCPU on a
# 2-core host (worse in a trial run). 4 vCPUs did better than 2.
# fio runs on the other vCPUs (-c), so that it never shares the
# dispatcher's. The CXL part
# spins each miss's whole NAND wait (wait_spin_ns 2 ms > the slowed 1 ms
# read): in a trial, sleeping (the default) made the misses slower.
# FID_PARTS=PARTS runs only those parts (fidelity.sh -p; default nvme,cxl).
# vmtest-env: FID_PARTS
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 1800

bench_fidelity() {
	/vflash/bench/fidelity.sh -k "$KO" \
		-a "cpus=$(($(nproc) - 1)) workers=0 spin_us=500 poll_idle_us=1000000" \
		-c "0-$(($(nproc) - 2))" -w 2000000 -o /tmp/fidelity \
		-p "${FID_PARTS:-nvme,cxl}" \
		>/tmp/fidelity.out ||
		{ cat /tmp/fidelity.out; fail "scripts/bench/fidelity.sh"; }
	while IFS= read -r line; do
		report "BENCH $line"
	done </tmp/fidelity.out
}

run_test bench-fidelity bench_fidelity
