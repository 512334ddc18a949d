# SPDX-License-Identifier: GPL-2.0
# `make bench-cxl`: scripts/bench/cxl.sh in the project's VM, on vflash
# (frontend=cxl) and on a plain devdax device in the same boot: a legacy
# pmem region from memmap=1G!4G, turned into /dev/dax0.0 by ndctl. Not a
# test: it lives outside scripts/vm/suites/, so `make check` skips it.
# The report goes to the results port as "BENCH " lines, and each CDF
# point as "CDF NAME LATENCY_NS FRACTION" (the Makefile plots them).
# Three vCPUs: two for the two-thread miss run, one for vflash's evictor.
# NAND waits are spun whole (wait_spin_ns 100 us > cylon's 41 us): waking
# a halted vCPU from an hrtimer sleep costs tens of us or more in TCG
# (the sleeping variant is printed too, for comparison).
# vmtest-mem: 6G
# vmtest-smp: 3
# vmtest-append: memmap=1G!4G
# vmtest-timeout: 1200

bench_cxl() {
	local f name
	modprobe nd_e820 || fail "modprobe nd_e820"
	modprobe nd_pmem || fail "modprobe nd_pmem"
	modprobe dax_pmem || fail "modprobe dax_pmem"
	modprobe device_dax || fail "modprobe device_dax"
	ndctl list -N -R || true
	ndctl create-namespace -f -e namespace0.0 -m devdax -a 4096 ||
		fail "ndctl create-namespace"
	wait_for /dev/dax0.0
	/vflash/bench/cxl.sh -k "$KO" -x /dev/dax0.0 -w 100000 -o /tmp/bench \
		>/tmp/bench.out || { cat /tmp/bench.out; fail "scripts/bench/cxl.sh"; }
	while IFS= read -r line; do
		report "BENCH $line"
	done </tmp/bench.out
	for f in /tmp/bench/cdf-*.txt; do
		name=${f#/tmp/bench/cdf-}
		name=${name%.txt}
		grep -v '^#' "$f" | while read -r ns frac; do
			report "CDF $name $ns $frac"
		done
	done
}

run_test bench-cxl bench_cxl
