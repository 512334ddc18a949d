# SPDX-License-Identifier: GPL-2.0
# `make bench-fidelity`: scripts/bench/fidelity.sh in the project's VM:
# lateness on the default tlc profile, and measured / predicted ratios of
# jobs that a slowed model (tR 1-5 ms) makes device-bound, on vflash's
# NVMe and CXL frontends. Not a test: it lives outside scripts/vm/suites/,
# so `make check` skips it. The report goes to the results port as
# "BENCH " lines.
# As bench-nvme: the NVMe frontend's threads on the last vCPU, spinning
# for completions due within 500 us (waking a halted vCPU costs tens to
# hundreds of us in TCG). The CXL part spins each miss's whole NAND wait
# (wait_spin_ns 2 ms > the slowed 1 ms read) for the same reason.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 1800

bench_fidelity() {
	/vflash/bench/fidelity.sh -k "$KO" -a "cpus=$(($(nproc) - 1)) spin_us=500" \
		-w 2000000 -o /tmp/fidelity >/tmp/fidelity.out ||
		{ cat /tmp/fidelity.out; fail "scripts/bench/fidelity.sh"; }
	while IFS= read -r line; do
		report "BENCH $line"
	done </tmp/fidelity.out
}

run_test bench-fidelity bench_fidelity
