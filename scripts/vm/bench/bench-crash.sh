# SPDX-License-Identifier: GPL-2.0
# `make bench-crash`: the crash suite's long version (docs/crashcheck.md).
# crashcheck on 64 MiB devices, BC_CUTS cuts each: frontend=nvme with
# 4 KiB and 512-byte LBAs, frontend=nvme,cxl (CXL stores) with 4 KiB and
# 512-byte LBAs, program and erase faults armed in part (GC from the
# start); then ext4 with sqlite3 (WAL, synchronous=FULL) through 100
# cuts. The tests are crash.sh's (sourced for its functions); the report
# goes to the results port as "BENCH " lines: per run its seed, cuts, LBAs
# checked, violations, operations and time per cut.
# vmtest-mem: 2G
# vmtest-timeout: 3600
# vmtest-debug-skip: a benchmark, run on the Debian kernel

CUTS=250
FS_CUTS=100
OPS=200
SIZE=64M
CRASH_FUNCTIONS_ONLY=1
. /vflash/suites/crash.sh

# bench NAME TEST: run crash.sh's TEST, then report crashcheck's summary
bench() {
	rm -f /tmp/cc.out
	run_test "$1" "$2"
	if [ -f /tmp/cc.out ]; then
		report "BENCH crash $1: $(sed -n 's/^crashcheck: \(seed [0-9]*\) .*/\1/p' /tmp/cc.out), $(tail -n 1 /tmp/cc.out | sed 's/^crashcheck: //')"
		report "BENCH crash $1: $(grep '^crashcheck: [0-9]* ops' /tmp/cc.out | sed 's/^crashcheck: //')"
	fi
}

report "BENCH crash: $CUTS cuts per crashcheck run on $SIZE devices, $OPS ops per thread per round at most, $FS_CUTS ext4+sqlite cuts; $(nproc) vCPUs, $(uname -r)"
bench nvme_4k test_nvme_4k
bench nvme_512 test_nvme_512
bench dual_4k test_dual_4k
bench dual_512 test_dual_512
rm -f /tmp/cc.out
t0=$(date +%s)
run_test ext4_sqlite test_ext4_sqlite
report "BENCH crash ext4_sqlite: $FS_CUTS cuts in $(($(date +%s) - t0)) s, $(grep -c '^cut [0-9]* after' /tmp/fs.out 2>/dev/null || echo 0) checked clean (e2fsck -fn, integrity_check, no committed row lost)"
