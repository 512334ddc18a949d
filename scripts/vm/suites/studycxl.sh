# SPDX-License-Identifier: GPL-2.0
# The CXL cache study (scripts/bench/study/cxl.sh) at a tiny scale: it runs end
# to end on 8 cells x 3 seeds (znand; fifo; next-n, none; seq, rand; 0.5x
# and 2x a 512 KiB cache) with every mechanism check passing, and, when
# the VM has kvstore, the YCSB part on two mixes; the CSVs go to
# the host, where report-cxl.py -t makes the tables and plots and shows
# that its checks can fail (the vmtest-host line). Each mechanism check
# fails a run in which its mechanism cannot run (cxl.sh -I: the cell asks
# for next-n but runs none, asks for 2x the cache but runs a quarter of
# it, asks for stores but makes none), naming the cell and the counter.
# Bad options are refused. make study-cxl runs the full study.
# vmtest-mem: 2G
# vmtest-once: the study scripts do not depend on the kernel line; the paths they drive run there in cxl and cxlrace
# vmtest-debug-skip: the study is scripts driving mmap misses, prefetch and policy switches that cxl and cxlrace run under the debug kernel; CI's time is near its budget
# vmtest-smp: 2
# vmtest-timeout: 300
# vmtest-host: scripts/bench/study/report-cxl.py -t

STUDY=/vflash/bench/study/cxl.sh

# tiny EXTRA ARGS...: the smallest grid that has every check's trigger (a
# working set larger than the cache, stores, next-n on a sequential scan).
# The next-n cell is the first after each load and has no warm-up (-u 0),
# so its timed accesses start on an empty cache. (Before bd5c5f3, prefetch
# on a full cache got nothing in some runs: docs/studies.md, study-cxl.)
tiny() {
	local extra=$1
	shift
	# shellcheck disable=SC2086
	$STUDY -k "$KO" -g tiny -p znand -e fifo -f "next-n none" -u 0 \
		-a "seq rand" -w "0.5 2" -P 100000 $extra "$@"
}

study_tiny() {
	local rc=0 kv=none

	[ -x /usr/bin/kvstore ] && kv=/usr/bin/kvstore
	tiny "" -s "1 2 3" -o /tmp/tiny -K "$kv" \
		-Y "znand 2M 1000 300 a;c fifo;lifo none" || rc=$?
	[ -f /tmp/tiny/cxl.csv ] && save_file cxl.csv /tmp/tiny/cxl.csv
	[ -f /tmp/tiny/kv.csv ] && save_file kv.csv /tmp/tiny/kv.csv
	cat /tmp/tiny/mechanism.txt
	expect_eq "$rc" 0 "cxl.sh's exit status"
	expect_eq "$(grep -c . /tmp/tiny/cxl.csv)" 25 "CSV lines (8 cells x 3 seeds + the header)"
	[ ! -s /tmp/tiny/mechanism.txt ] || fail "a mechanism check failed"
	if [ "$kv" != none ]; then
		expect_eq "$(grep -c . /tmp/tiny/kv.csv)" 13 "kv.csv lines (2 mixes x 2 policies x 3 seeds + the header)"
	else
		echo "no kvstore in the VM: its part was skipped"
	fi
	[ ! -d /sys/module/vflash ] || fail "vflash left loaded"
}

# catches WHAT COUNTER FAILS: one cell (next-n, seq over 2x the cache,
# stores) with the mechanism WHAT kept from running: exit 3, FAILS
# MECHANISM-FAIL lines, one of them naming the cell and COUNTER=0
catches() {
	local rc=0 out

	out=$(tiny "-I $1" -f next-n -a seq -w 2 -s 5 -o "/tmp/$1" -K none) || rc=$?
	echo "$out"
	expect_eq "$rc" 3 "cxl.sh -I $1's exit status"
	echo "$out" | grep -q "^MECHANISM-FAIL profile=znand seed=5 pattern=seq ws=2x eviction=fifo prefetch=next-n: $2=0 " ||
		fail "no MECHANISM-FAIL line for $2"
	expect_eq "$(grep -c MECHANISM-FAIL "/tmp/$1/mechanism.txt")" "$3" "failed checks"
	[ ! -d /sys/module/vflash ] || fail "vflash left loaded"
}

study_catches() {
	catches prefetch prefetch_issued 1
	# a quarter of the cache: nothing evicted, missed, written back or
	# prefetched
	catches evict evictions 4
	catches writeback dirty_writebacks 1
}

# bad_usage ARGS...: the study refuses them (exit 2, a message)
bad_usage() {
	expect_usage_error study-cxl $STUDY "$@"
}

study_usage() {
	$STUDY -h | grep -q '^usage:' || fail "-h prints no usage"
	bad_usage -k "$KO" -p nosuch
	bad_usage -k "$KO" -e "fifo mru"
	bad_usage -k "$KO" -a zigzag
	bad_usage -k "$KO" -s "1 x"
	bad_usage -k "$KO" -x 101
	bad_usage -k "$KO" -g huge
	bad_usage -k "$KO" -q
	bad_usage -k "$KO" extra
	bad_usage -k /nonexistent.ko
	[ ! -d /sys/module/vflash ] || fail "a refused study loaded vflash"
	# Nor does it touch a vflash that is already loaded.
	load frontend=none size=16M
	bad_usage -k "$KO"
	expect_eq "$(cat /sys/class/vflash/vflash0/frontend)" none "the loaded device"
	unload
}

run_test study-cxl-tiny study_tiny
run_test study-cxl-catches study_catches
run_test study-cxl-usage study_usage
