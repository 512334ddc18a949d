# SPDX-License-Identifier: GPL-2.0
# `make bench-icount-kernel [BASE=REV]`: bench-icount's phases with the
# icount.so plugin over every kernel address, not only vflash.ko's, and
# the guest's /proc/kallsyms sent to the host to name the blocks:
# scripts/bench/icount/kernel-report.py gives, per QD1 read and write,
# the instructions in vflash.ko and in the rest of the kernel (the block
# layer, the nvme driver, the interrupt's delivery, the scheduler), the
# dispatcher's idle polling subtracted. Run once per build to compare two
# (the Makefile target boots BASE's module, then this one). Not a test.
# bench-icount.sh does the work; this file is its header.
# vmtest-mem: 2G
# vmtest-smp: 2
# vmtest-timeout: 900
# vmtest-append: nokaslr
# vmtest-prep: scripts/bench/icount/prep.sh
# vmtest-qemu: -plugin @DIR@/icount.so,lo=ffffffff80000000,hi=ffffffffff000000,out=@DIR@/icount.out

# shellcheck source=scripts/bench/vm/bench-icount.sh
. /vflash/suites/bench-icount.sh
