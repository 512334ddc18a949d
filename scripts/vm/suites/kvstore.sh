# SPDX-License-Identifier: GPL-2.0
# scripts/bench/study/kvstore, the CXL study's key-value workload, on
# frontend=cxl with its heap about 2.5x the device DRAM cache: every YCSB
# mix with --verify exits 0 and its run phase misses and evicts (update
# and insert mixes write dirty pages back, a read-only one no more than
# the load left); the device's own fill/verify passes afterwards; two
# threads under policy switches; a corrupted value is caught (exit 1,
# naming the key); every mix on a regular file, the same operations for
# the same seed; bad arguments exit 2.
# vmtest-mem: 2G
# vmtest-timeout: 240
# vmtest-once: a key-value store driving mmap faults, eviction and writeback, which cxl and cxlrace run there
# vmtest-debug-skip: a key-value store on /dev/vflash0; its kernel paths (mmap faults, eviction, writeback) run under the debug kernel in cxl and cxlrace, and CI's time is near its budget

DEV=/dev/vflash0
SYS=/sys/class/vflash/vflash0
SIZE=$((64 << 20))
CACHE=$((4 << 20))
# 10000 records of 1000 bytes: about 10 MB of values and nodes, in a
# mapping of 16 MB.
HEAP=$((16 << 20))
RECORDS=10000
OPS=10000

stat() { cat $SYS/stats/$1; }

# znand: the fastest NAND reads, so the suite spends its time in faults
# and evictions rather than in waits.
load_cxl() {
	load frontend=cxl size=$SIZE cache_size=$CACHE profile=znand
	wait_for $DEV
}

# field LINE NAME: the value of NAME=... in kvstore's output line
field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

kv() {
	kvstore --dev $DEV --heap $HEAP --records $RECORDS --value-size 1000 "$@"
}

# The device's own check afterwards: cxl_check's pattern over the heap's
# pages (4x the cache, so every page of the store is evicted) reads back,
# and the cache holds no more pages than its slots.
device_ok() {
	cxl_check fill $DEV $HEAP "$1" || fail "cxl_check fill after kvstore"
	cxl_check verify $DEV $HEAP "$1" || fail "cxl_check verify after kvstore"
	[ "$(stat resident_pages)" -le $((CACHE / 4096)) ] ||
		fail "more resident pages than slots"
}

# mix MIX EVICTION PREFETCH: one mix with --verify under these policies
mix() {
	local out heap n
	load_cxl
	echo "$2" >$SYS/policy/eviction
	echo "$3" >$SYS/policy/prefetch
	n=$OPS
	# A scan reads 50 records on average, each of another page.
	[ "$1" != e ] || n=$((OPS / 40))
	out=$(kv --ops $n --mix "$1" --seed 1 --verify) || fail "kvstore --mix $1 exited $?"
	echo "$out"
	expect_eq "$(field "$out" mix)" "$1" "mix"
	expect_eq "$(field "$out" verify)" ok "verify"
	expect_eq "$(field "$out" ops)" $n "operations done"
	heap=$(field "$out" heap_bytes)
	if [ "$heap" -lt $((2 * CACHE)) ] || [ "$heap" -gt $((4 * CACHE)) ]; then
		fail "heap_bytes $heap is not 2-4x the cache ($CACHE)"
	fi
	[ "$(field "$out" tree_height)" -ge 2 ] || fail "a one-leaf tree"
	# The run phase's own counters (kvstore reads stats/ around it).
	n=$(field "$out" dev_misses)
	[ "$n" -gt 0 ] || fail "the run caused no miss"
	[ "$(stat misses)" -ge "$n" ] || fail "stats/misses below the run's"
	[ "$(field "$out" dev_evictions)" -gt 0 ] || fail "the run caused no eviction"
	# Dirty pages written back during the run: a read-only run only
	# those the load left in the cache (at most one per slot); the mixes
	# that write, some; 50% updates, more than the load can have left.
	n=$(field "$out" dev_dirty_writebacks)
	case $1 in
	a) [ "$n" -gt $((CACHE / 4096)) ] || fail "mix a wrote back only $n pages" ;;
	b | d | e) [ "$n" -gt 0 ] || fail "mix $1 wrote nothing back" ;;
	c) [ "$n" -le $((CACHE / 4096)) ] || fail "mix c (reads) wrote back $n pages" ;;
	esac
	device_ok 7
	unload
	expect_gone
}

# Two threads, while the eviction and prefetch policies switch under them.
test_threads() {
	local out pid n
	load_cxl
	kv --ops $OPS --mix a --seed 2 --threads 2 --verify >/tmp/kv.out &
	pid=$!
	switch_policies_while $pid "clock lru s3fifo random fifo" \
		"next-n stride none"
	n=$ROUNDS
	wait $pid || fail "kvstore --threads 2 exited $?"
	out=$(cat /tmp/kv.out)
	echo "$out"
	echo "$n switch rounds"
	expect_eq "$(field "$out" threads)" 2 "threads"
	expect_eq "$(field "$out" verify)" ok "verify"
	[ "$(field "$out" dev_evictions)" -gt 0 ] || fail "no eviction"
	device_ok 8
	unload
}

# A byte of the hottest record's value flipped through a second mapping
# between the load and the run: the run's first read of it fails.
test_corruption_caught() {
	local rc=0 key
	load_cxl
	kv --ops $OPS --mix c --seed 1 --verify --corrupt-rank 0 \
		>/tmp/kv.out 2>/tmp/kv.err || rc=$?
	cat /tmp/kv.out /tmp/kv.err
	expect_eq $rc 1 "kvstore's exit status with a corrupted value"
	key=$(sed -n 's/.*corrupted key \(0x[0-9a-f]*\) .*/\1/p' /tmp/kv.err)
	[ -n "$key" ] || fail "kvstore did not say what it corrupted"
	grep -q "verify: key $key .*byte" /tmp/kv.err || fail "the failure does not name key $key"
	[ ! -s /tmp/kv.out ] || fail "a result line despite the failure"
	unload
}

# ops LINE: what a run did, its timings left out
ops() {
	echo "$1" | tr ' ' '\n' | grep -E '^(reads|updates|inserts|scans|scan_records|heap_bytes|nodes)='
}

# The same store on a regular file (tmpfs): all mixes, verified; a seed
# gives the same operations twice.
test_regular_file() {
	local m out1 out2
	for m in a b c d e; do
		kvstore --dev /tmp/kv.heap --heap $HEAP --records $RECORDS \
			--ops $((OPS / 10)) --mix $m --verify ||
			fail "kvstore --mix $m on a file"
	done
	out1=$(kvstore --dev /tmp/kv.heap --heap $HEAP --records $RECORDS \
		--ops 500 --mix e --seed 5)
	out2=$(kvstore --dev /tmp/kv.heap --heap $HEAP --records $RECORDS \
		--ops 500 --mix e --seed 5)
	expect_eq "$(ops "$out2")" "$(ops "$out1")" "the second run of --seed 5"
	rm -f /tmp/kv.heap
}

# bad ARGS...: kvstore exits 2 with a message on stderr
bad() {
	local rc=0
	kvstore "$@" >/tmp/kv.out 2>/tmp/kv.err || rc=$?
	cat /tmp/kv.err
	expect_eq $rc 2 "exit status of kvstore $*"
	[ -s /tmp/kv.err ] || fail "no message for kvstore $*"
}

test_bad_arguments() {
	local ok="--dev /tmp/kv.heap --heap 1M --records 100 --ops 10"
	bad
	bad $ok
	bad $ok --mix f
	bad $ok --mix a --zipf 1
	bad $ok --mix a --zipf -0.5
	bad $ok --mix a --threads 0
	bad $ok --mix a --value-size 8
	bad $ok --mix a --records 12x
	bad $ok --mix a --bogus
	bad $ok --mix a --seed
	bad $ok --mix a stray
	bad --dev /tmp/kv.heap --heap 64K --records 1000 --ops 10 --mix a
	# --help is not an error.
	kvstore --help | grep -q '^usage: kvstore' || fail "--help"
	[ ! -e /tmp/kv.heap ] || fail "a rejected run created its heap"
}

run_test mix_a_lru mix a lru none
run_test mix_b_clock mix b clock next-n
run_test mix_c_s3fifo mix c s3fifo none
run_test mix_d_fifo mix d fifo stride
run_test mix_e_random mix e random none
run_test threads test_threads
run_test corruption_caught test_corruption_caught
run_test regular_file test_regular_file
run_test bad_arguments test_bad_arguments
