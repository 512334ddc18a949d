# SPDX-License-Identifier: GPL-2.0
# `make bench-icount` (make bench-nvme prints it too): guest instructions
# executed in vflash.ko per 4 KiB read and per 4 KiB write through the
# whole NVMe path, counted by the icount.so QEMU plugin
# (scripts/bench/icount/): QD1 O_DIRECT I/O from ioloop between two
# markers; scripts/bench/icount/report.py attributes the counts to
# vflash's functions and subtracts the dispatcher's idle polling, measured
# in an idle phase first. Not a test: outside scripts/vm/suites/.
# vmtest-mem: 2G
# vmtest-smp: 2
# vmtest-timeout: 900
# vmtest-append: nokaslr
# vmtest-prep: scripts/bench/icount/prep.sh
# vmtest-qemu: -plugin @DIR@/icount.so,lo=ffffffffc0000000,hi=ffffffffff000000,out=@DIR@/icount.out
# vmtest-host: scripts/bench/icount/report.py

ICOUNT_N=${ICOUNT_N:-2000}

bench_icount() {
	local s round

	load frontend=nvme profile=tlc size=256M
	wait_for /dev/nvme0n1
	for s in /sys/module/vflash/sections/.*; do
		report "ICOUNT section ${s##*/} $(cat "$s")"
	done
	# Every LBA read is written first: a read of an unwritten page costs
	# no NAND read and takes another path.
	dd if=/dev/zero of=/dev/nvme0n1 bs=1M count=256 oflag=direct 2>/dev/null ||
		fail "dd"
	# Three rounds; each: the dispatcher's idle polling (shorter than its
	# nap after 250 ms), then the reads, then the writes.
	for round in 1 2 3; do
		report "ICOUNT phase idle 0"
		ioloop --mark
		sleep 0.1
		ioloop --mark
		report "ICOUNT phase read $ICOUNT_N"
		ioloop read /dev/nvme0n1 $((256 << 20)) "$ICOUNT_N" "$round" ||
			fail "ioloop read"
		report "ICOUNT phase write $ICOUNT_N"
		ioloop write /dev/nvme0n1 $((256 << 20)) "$ICOUNT_N" "$round" ||
			fail "ioloop write"
	done
	# bench-icount-kernel: the kernel's symbols, to name its blocks.
	if [ "$suite" = bench-icount-kernel ]; then
		grep -i ' t ' /proc/kallsyms | grep -v '\[' >/tmp/kallsyms
		save_file kallsyms /tmp/kallsyms
	fi
	report "ICOUNT done"
	unload
}

# shellcheck disable=SC2154 # suite: set by the guest's /init
run_test "$suite" bench_icount
