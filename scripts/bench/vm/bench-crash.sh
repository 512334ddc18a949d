# SPDX-License-Identifier: GPL-2.0
# `make bench-crash`: the crash suite's long version (docs/crashcheck.md):
# every cell of crash.sh's device matrix with BC_CUTS cuts each (9 cells,
# 5,130 cuts in all): conventional 4 KiB store=full and 512 B
# store=sparse (flash faults, GC from the start), FDP (4 handles), zoned
# with 4 KiB and with 512-byte LBAs, three namespaces with a
# delete and create every third round, qlc-hybrid with migration, plp,
# dual with CXL stores; every cell's rounds end by a cut, a controller
# reset or a clean shutdown, one cell's also by an injected timeout and
# three by an injected delay (a timeout round costs two io_timeouts and a
# reset, about 6 s); each cell's --tamper run; then ext4 with sqlite3
# through 100 cuts. The tests are crash.sh's (sourced for its functions).
# The report goes to the results port as "BENCH " lines: per cell its
# module parameters, seed, cuts, LBAs checked, violations, operations,
# LBAs taken back and endings.
# vmtest-mem: 2G
# vmtest-timeout: 6000
# vmtest-debug-skip: a benchmark, run on the Debian kernel
# vmtest-env: BC_CUTS BC_SECONDS BC_FS_CUTS BC_CELLS CRASH_ROTATION

BC_CUTS=${BC_CUTS:-570}
FS_CUTS=${BC_FS_CUTS:-100}
CRASH_FUNCTIONS_ONLY=1
. /vflash/suites/crash.sh
CUTS=$BC_CUTS
# No cell starts a round after 9 minutes (the bench's time on a loaded
# host); the report gives each cell's cuts.
CC_SECONDS=${BC_SECONDS:-540}

# bench NAME TEST: run crash.sh's TEST, then report crashcheck's summary
bench() {
	local t0
	rm -f /tmp/cc.out /tmp/cc.params
	t0=$(date +%s)
	run_test "$1" "$2"
	if [ -f /tmp/cc.out ]; then
		report "BENCH crash $1: $(cat /tmp/cc.params); $(sed -n 's/^crashcheck: \(seed [0-9]*\) .*/\1/p' /tmp/cc.out), $(tail -n 1 /tmp/cc.out | sed 's/^crashcheck: //'), $(($(date +%s) - t0)) s"
		report "BENCH crash $1: $(grep '^crashcheck: [0-9]* ops' /tmp/cc.out | sed 's/^crashcheck: //')"
		report "BENCH crash $1: $(grep '^crashcheck: endings' /tmp/cc.out | sed 's/^crashcheck: //'); $(grep '^crashcheck: taken back' /tmp/cc.out | sed 's/^crashcheck: //')"
		report "BENCH crash $1: rounds with violations: $(grep -c '^round .* [1-9][0-9]* violations' /tmp/cc.out)$(grep '^round .* [1-9][0-9]* violations' /tmp/cc.out | head -n 3 | sed 's/^/; /' | cut -c1-200 | tr -d '\n')"
	fi
}

# The bench's variants: each cell its fixed choice, the endings spread
# so that the slow ones (timeout, delay) stay within the time.
TO_CELL=none
DL_CELL=none
HANDLES=4
NSK=3
test_fdp() {
	ENDINGS=cut,reset,shutdown
	cell fdp none "--fdp $HANDLES" frontend=nvme size="$SIZE" profile=tlc \
		lba_size=512 fdp=1 fdp_ruhs="$HANDLES"
}
test_zoned() {
	ENDINGS=cut,reset,shutdown,delay
	cell zoned none "" frontend=nvme size="$SIZE" profile=tlc \
		lba_size=4096 zoned=1 zone_size=128K
}
test_zoned_512() {
	ENDINGS=cut,reset,shutdown,timeout
	cell zoned none "" frontend=nvme size="$SIZE" profile=tlc \
		lba_size=512 zoned=1 zone_size=128K
}
test_ns() {
	ENDINGS=cut,reset,shutdown
	cell ns none "--namespaces $NSK" frontend=nvme size=$((NSK * 8))M profile=tlc \
		lba_size=4096 store=sparse ns1_size=8M
}
test_qlc() {
	ENDINGS=cut,reset,shutdown
	cell qlc qlc_setup "" frontend=nvme size=32M profile=qlc-hybrid store=full
}
test_plp() {
	ENDINGS=cut,reset,shutdown,delay
	cell plp plp_setup "--plp" frontend=nvme size="$SIZE" profile=tlc lba_size=512
}
test_dual() {
	ENDINGS=cut,reset,shutdown
	cell dual none "--cxl" frontend=nvme,cxl size="$SIZE" cache_size=1M profile=tlc \
		lba_size=4096
}

report "BENCH crash: $CUTS cuts a cell (and a --tamper cut), $OPS ops per thread per round at most, 32 threads a namespace, $FS_CUTS ext4+sqlite cuts; $(nproc) vCPUs, $(uname -r)"
t_all=$(date +%s)
# BC_CELLS=qlc,plp: only those cells (and ext4_sqlite unless BC_FS_CUTS=0)
for c in $(echo "${BC_CELLS:-conv_4k conv_512 fdp zoned zoned_512 ns qlc plp dual}" | tr , ' '); do
	bench "$c" "test_$c"
done
rm -f /tmp/cc.out
t0=$(date +%s)
if [ "$FS_CUTS" -gt 0 ]; then
	run_test ext4_sqlite test_ext4_sqlite
	report "BENCH crash ext4_sqlite: $FS_CUTS cuts in $(($(date +%s) - t0)) s, $(grep -c '^cut [0-9]* after' /tmp/fs.out 2>/dev/null || echo 0) checked clean (e2fsck -fn, integrity_check, no committed row lost)"
fi
report "BENCH crash: all cells and ext4_sqlite in $(($(date +%s) - t_all)) s"
