# SPDX-License-Identifier: GPL-2.0
# frontend=cxl: /dev/vflash0 mmap'd through the device DRAM cache. Data
# through evictions with every eviction policy, prefetch on and off;
# sharing between processes; mremap/munmap under eviction; mmap rules;
# rmmod while mapped; Accessed-bit sampling (clock and lru keep a page
# that is only re-read by loads, fifo evicts it); exact miss counts of a
# sequential sweep; policy switches under load; set associativity
# (conflict misses, data, switches of ways under load); fio's mmap engine.
# vmtest-mem: 2G
# vmtest-timeout: 600

DEV=/dev/vflash0
SYS=/sys/class/vflash/vflash0
SIZE=$((16 << 20))
CACHE=$((1 << 20))

stat() { cat $SYS/stats/$1; }

load_cxl() {
	load frontend=cxl size=$SIZE cache_size=$CACHE "$@"
	[ -c $DEV ] || fail "$DEV is not a character device"
}

# expect_policy KIND NAME: NAME is the current policy of KIND
expect_policy() {
	grep -q "\[$2\]" $SYS/policy/$1 || fail "policy/$1 is '$(cat $SYS/policy/$1)', want [$2]"
}

test_device() {
	local majmin
	load_cxl
	expect_eq "$(cat $SYS/frontend)" cxl "frontend"
	majmin=$(cat $SYS/dev)
	expect_eq "$(cat /sys/dev/char/$majmin/size)" $SIZE "/sys/dev/char/$majmin/size"
	expect_eq "$(ls -l $DEV | awk '{ print $5 $6 }')" "${majmin%:*},${majmin#*:}" "device numbers of $DEV"
	expect_eq "$(stat resident_pages)" 0 "resident pages before any access"
	cxl_check fill $DEV $((64 << 10)) 1
	cxl_check verify $DEV $((64 << 10)) 1
	expect_eq "$(stat misses)" 16 "misses of 16 pages written then read"
	expect_eq "$(stat resident_pages)" 16 "resident pages"
	[ "$(stat miss_latency_p50_ns)" -gt 0 ] || fail "no miss latency recorded"
	[ "$(stat miss_latency_p999_ns)" -ge "$(stat miss_latency_p50_ns)" ] ||
		fail "p99.9 below p50"
	unload
	expect_gone
	[ ! -e $DEV ] || fail "$DEV left behind"
}

# Data written over 8x the cache reads back through
# evictions with every eviction policy, prefetch on and off, switching
# policies between rounds.
test_integrity() {
	# Eight cachefuls: each pass evicts at least six (CI's time).
	local ev pf seed=1 ev0 i=0 span=$((8 * CACHE))
	load_cxl
	for pf in none next-n stride; do
		for ev in fifo lifo clock lru s3fifo random; do
			# The debug kernel runs each eviction policy once, each
			# prefetch policy with two of them (6 of the 18 pairs).
			i=$((i + 1))
			! debug_kernel || [ $((i % 3)) -eq $(((i - 1) / 6)) ] || continue
			echo $ev >$SYS/policy/eviction
			echo $pf >$SYS/policy/prefetch
			expect_policy eviction $ev
			expect_policy prefetch $pf
			ev0=$(stat evictions)
			cxl_check fill $DEV $span $seed || fail "fill ($ev, $pf)"
			cxl_check verify $DEV $span $seed || fail "verify ($ev, $pf)"
			# A pass over N pages starting with S resident and
			# S free evicts at least N - 2S.
			[ $(($(stat evictions) - ev0)) -ge $((2 * (span - 2 * CACHE) / 4096)) ] ||
				fail "too few evictions with $ev, $pf"
			[ "$(stat resident_pages)" -le $((CACHE / 4096)) ] ||
				fail "more resident pages than slots"
			seed=$((seed + 1))
		done
	done
	[ "$(stat prefetch_issued)" -gt 0 ] || fail "next-n issued no prefetch"
	[ "$(stat prefetch_hits)" -gt 0 ] || fail "no prefetch was used"
	[ "$(stat dirty_writebacks)" -gt 0 ] || fail "no dirty writeback"
	# Some evictions are the misses' own, never more than all of them.
	[ "$(stat direct_evictions)" -le "$(stat evictions)" ] ||
		fail "more direct evictions than evictions"
	unload
}

test_share() {
	load_cxl
	echo fifo >$SYS/policy/eviction
	cxl_check share $DEV
	unload
}

test_remap_under_eviction() {
	load_cxl
	cxl_check remap $DEV $SIZE
	[ "$(stat evictions)" -gt 0 ] || fail "nothing was evicted"
	unload
}

test_bad_mmap() {
	local out

	load_cxl
	out=$(cxl_check bad $DEV $SIZE) || fail "cxl_check bad"
	echo "$out"
	# Before 6.12 the mapping must grow in place (vfc_close() is there
	# for it); 6.12 grows no VM_SPECIAL mapping in place.
	case $(uname -r) in
	6.1.*) expect_match "$out" 'grown in place' "mremap growth" ;;
	*) expect_match "$out" 'grown (in place|by moving)' "mremap growth" ;;
	esac
	unload
}

test_rmmod_while_mapped() {
	local n=0
	load_cxl
	# An open file alone holds the module.
	exec 4<$DEV
	if rmmod vflash 2>/dev/null; then
		fail "rmmod succeeded with $DEV open"
	fi
	exec 4<&-
	rm -f /tmp/ctl /tmp/ready
	mkfifo /tmp/ctl
	cxl_check hold $DEV </tmp/ctl >/tmp/ready &
	exec 3>/tmp/ctl
	while ! grep -q ready /tmp/ready && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	grep -q ready /tmp/ready || fail "cxl_check hold did not map"
	# The file is closed; only the mapping holds the module.
	if rmmod vflash 2>/tmp/err; then
		fail "rmmod succeeded while mapped"
	fi
	cat /tmp/err
	[ -d /sys/module/vflash ] || fail "module gone while mapped"
	exec 3>&-
	wait
	unload
	expect_gone
}

# hot POLICY ROUNDS MS: refaults while page 0 is re-read by loads, MS ms
# apart (for the sampler), between sweeps of an eighth of the cache in
# cold pages (each touched once), ROUNDS times
hot() {
	load_cxl
	echo none >$SYS/policy/prefetch
	echo "$1" >$SYS/policy/eviction
	cxl_check hot $DEV $SIZE $CACHE "$2" "$3" >/dev/null || fail "cxl_check hot"
	stat refaults
	unload
}

# fifo over 5x the cache: it evicts page 0 every cacheful whatever the
# sampler saw, so no pause (the pauses were 12 s of the test). clock and
# lru keep it through 5x the cache (3x on a light run), the sampler given
# 100 ms (5 periods) to see each load's Accessed bit.
test_accessed_bits() {
	local fifo clock lru rounds
	rounds=$(light 40 24)
	fifo=$(hot fifo 40 0)
	clock=$(hot clock "$rounds" 100)
	lru=$(hot lru "$rounds" 100)
	echo "refaults: fifo $fifo clock $clock lru $lru"
	[ "$fifo" -ge 3 ] || fail "fifo kept the hot page ($fifo refaults)"
	expect_eq "$clock" 0 "refaults under clock"
	expect_eq "$lru" 0 "refaults under lru"
}

# Two sequential sweeps of 2x the cache under fifo without prefetch: one
# miss per page per sweep, the second sweep's all refaults. A page the
# background evictor has chosen stays mapped until the evictor unmaps it;
# if the host stalls the evictor's vCPU across a quarter of the run (a
# 6.12 CI run: 25 ms), the sweep's next visit to that page finds it still
# mapped and does not fault (1023 of 1024). Each such hit needs the
# evictor's one victim held from its choice (256 faults after its fill) to
# the next visit (256 faults on), so at most 3 fit in the 1024 faults; the
# counters add up exactly whatever the stalls.
test_sweep_misses() {
	local pages=$((2 * CACHE / 4096)) misses i ev res
	load_cxl
	echo fifo >$SYS/policy/eviction
	echo none >$SYS/policy/prefetch
	cxl_check sweep $DEV $((2 * CACHE)) 2 >/dev/null
	misses=$(stat misses)
	[ "$misses" -le $((2 * pages)) ] && [ "$misses" -ge $((2 * pages - 3)) ] ||
		fail "misses: got $misses, want $((2 * pages)) (at least $((2 * pages - 3)) if the evictor stalled)"
	[ "$misses" -eq $((2 * pages)) ] ||
		echo "sweep_misses: $misses misses, $((2 * pages - misses)) visits met a page the stalled evictor had not unmapped yet"
	expect_eq "$(stat refaults)" $((misses - pages)) "refaults (every miss of the second sweep)"
	# The evictor may still be restoring its free slots: read a pair it
	# did not change in between.
	for i in 1 2 3 4 5; do
		ev=$(stat evictions)
		res=$(stat resident_pages)
		[ "$ev" != "$(stat evictions)" ] || break
		sleep 0.2
	done
	expect_eq "$ev" $((misses - res)) "evictions (misses less resident pages)"
	expect_eq "$(stat prefetch_issued)" 0 "prefetches"
	echo 0 >$SYS/stats/reset
	expect_eq "$(stat misses)" 0 "misses after a reset"
	unload
}

# Pages first read (mapped read-only), then written (pfn_mkwrite marks them
# dirty), then evicted by a fifo sweep: exactly those are written back.
test_mkwrite_writeback() {
	local pages=$((CACHE / 2 / 4096))
	load_cxl
	echo fifo >$SYS/policy/eviction
	echo none >$SYS/policy/prefetch
	cxl_check rw $DEV $((CACHE / 2))
	expect_eq "$(stat misses)" $pages "misses of the read-then-written pages"
	expect_eq "$(stat dirty_writebacks)" 0 "writebacks before eviction"
	cxl_check sweep $DEV $((4 * CACHE)) 1 >/dev/null
	expect_eq "$(stat dirty_writebacks)" $pages "dirty writebacks"
	unload
}

test_switch_under_load() {
	local pid n
	load_cxl
	# 5000 touches per thread still see thousands of switch rounds
	# (20000 took 115 s of the suite's 210 under TCG and saw 10,000+).
	# A light run: 1000 over 4 MiB, 4x the cache (stamping and checking
	# every page of 16 MiB was most of the debug kernel's time).
	cxl_check stress $DEV "$(light $SIZE $((4 * CACHE)))" 4 \
		"$(light 5000 1000)" &
	pid=$!
	switch_policies_while $pid "fifo clock lru s3fifo random lifo" \
		"next-n stride none"
	n=$ROUNDS
	wait $pid || fail "data changed under policy switches"
	echo "$n switch rounds"
	[ $n -gt 0 ] || fail "no switch happened during the load"
	unload
}

# With the knobs set, data written over the device (16x the cache; 4 MiB,
# 4x, on a light run) reads back; then on a 32-page cache.
test_knobs() {
	local sz
	sz=$(light $SIZE $((4 * CACHE)))
	load_cxl
	if echo 2 >$SYS/config/cache_free_low_pct 2>/dev/null &&
	   echo 1 >$SYS/config/cache_free_high_pct 2>/dev/null; then
		fail "low above high accepted"
	fi
	expect_eq "$(cat $SYS/config/cache_free_high_pct)" 3 "high watermark"
	! echo 51 >$SYS/config/cache_free_high_pct 2>/dev/null || fail "51% accepted"
	! echo 0 >$SYS/config/prefetch_degree 2>/dev/null || fail "degree 0 accepted"
	! echo 65 >$SYS/config/prefetch_degree 2>/dev/null || fail "degree 65 accepted"
	! echo 0 >$SYS/config/sample_period_ms 2>/dev/null || fail "period 0 accepted"
	! echo 0 >$SYS/config/sample_batch 2>/dev/null || fail "batch 0 accepted"
	! echo 536870912 >$SYS/config/sample_batch 2>/dev/null ||
		fail "batch 2^29 accepted"
	! echo 2 >$SYS/config/precondition 2>/dev/null || fail "precondition 2 accepted"
	echo 8 >$SYS/config/prefetch_degree
	echo 5 >$SYS/config/sample_period_ms
	echo 16 >$SYS/config/sample_batch
	echo 0 >$SYS/config/wait_spin_ns
	echo 2 >$SYS/config/cache_free_high_pct
	expect_eq "$(cat $SYS/config/cache_free_high_pct)" 2 "high watermark"
	cxl_check fill $DEV "$sz" 9
	cxl_check verify $DEV "$sz" 9
	unload
	# A 32-page cache: 50% free would leave no room for the young ring
	# (16 slots with 2 CPUs).
	load frontend=cxl size=$SIZE cache_size=128K
	! echo 50 >$SYS/config/cache_free_high_pct 2>/dev/null ||
		fail "a watermark that leaves no room accepted"
	echo 10 >$SYS/config/cache_free_high_pct
	cxl_check fill $DEV "$sz" 10
	cxl_check verify $DEV "$sz" 10
	unload
}

# Set associativity (config/cache_ways): bad values refused; a page of a
# full set evicts its set's page while other sets have room (a conflict
# miss) only with ways; data verified through evictions with every
# policy direct-mapped and 4-way; ways and policies switched under load.
test_ways() {
	local w b ev pid fsz pf0 rounds=0 seed=20
	# Pages 0 and 256 (the cache's slots) share a set direct-mapped:
	# pages 1-32 push page 0 out of the young ring (16 slots with 2 CPUs,
	# at most 32 with 8) first. Fully associative, nothing is evicted.
	# (Each load is a new device; a debug kernel's load and unload take
	# seconds, so the bad values go to the first and the fills to the
	# second.)
	for w in 0 1; do
		load_cxl
		if [ $w = 0 ]; then
			expect_eq "$(cat $SYS/config/cache_ways)" 0 "default cache_ways"
			for b in 3 5 6 7 12 17 32 64 -1 abc; do
				! echo $b >$SYS/config/cache_ways 2>/dev/null ||
					fail "cache_ways=$b accepted"
			done
			expect_eq "$(cat $SYS/config/cache_ways)" 0 \
				"cache_ways after bad values"
		fi
		pf0=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $SYS/policy/prefetch)
		echo none >$SYS/policy/prefetch
		echo $w >$SYS/config/cache_ways
		cxl_check fillat $DEV 0 4096 $w
		cxl_check fillat $DEV 1 $((32 * 4096)) $w
		cxl_check fillat $DEV $((CACHE / 4096)) 4096 $w
		expect_eq "$(stat evictions)" $w "evictions with $w ways"
		expect_eq "$(stat conflict_misses)" $w "conflict misses with $w ways"
		expect_eq "$(stat direct_evictions)" $w "direct evictions with $w ways"
		expect_eq "$(stat resident_pages)" $((34 - w)) "resident pages with $w ways"
		cxl_check verifyat $DEV 0 4096 $w || fail "page 0, ways $w"
		[ $w = 1 ] || unload
	done
	# The fills with the new device's prefetch policy.
	echo "$pf0" >$SYS/policy/prefetch
	expect_policy prefetch "$pf0"
	# Four times the cache (CI's time): every fill evicts three
	# cachefuls.
	fsz=$((4 * CACHE))
	for w in 1 4; do
		echo $w >$SYS/config/cache_ways
		for ev in fifo lifo clock lru s3fifo random; do
			echo $ev >$SYS/policy/eviction
			cxl_check fill $DEV $fsz $seed || fail "fill ($w ways, $ev)"
			cxl_check verify $DEV $fsz $seed || fail "verify ($w ways, $ev)"
			seed=$((seed + 1))
		done
	done
	echo next-n >$SYS/policy/prefetch
	cxl_check stress $DEV "$(light $SIZE $((4 * CACHE)))" 4 \
		"$(light 5000 1000)" &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		for w in 1 2 4 8 16 0; do
			echo $w >$SYS/config/cache_ways || break 2
		done
		for ev in lru s3fifo random fifo; do
			echo $ev >$SYS/policy/eviction || break 2
		done
		rounds=$((rounds + 1))
	done
	kill -0 $pid 2>/dev/null && { kill $pid; fail "a switch was refused"; }
	wait $pid || fail "data changed under switches of ways"
	echo "$rounds switch rounds"
	[ $rounds -gt 0 ] || fail "no switch happened during the load"
	[ "$(stat resident_pages)" -le $((CACHE / 4096)) ] ||
		fail "more resident pages than slots"
	unload
}

# Unwritten pages read without a NAND read; after precondition, they pay it.
test_precondition() {
	load_cxl
	cxl_check sweep $DEV $((64 << 10)) 1 >/dev/null
	expect_eq "$(stat nand_read_pages)" 0 "NAND reads of unwritten pages"
	expect_eq "$(cat $SYS/config/precondition)" 0 "precondition before"
	echo 1 >$SYS/config/precondition
	expect_eq "$(cat $SYS/config/precondition)" 1 "precondition after"
	echo 0 >$SYS/stats/reset
	cxl_check sweep $DEV $SIZE 1 >/dev/null
	[ "$(stat nand_read_pages)" -ge $((SIZE / 4096 - 16)) ] ||
		fail "preconditioned pages read without NAND reads ($(stat nand_read_pages))"
	unload
}

test_fio_verify() {
	load_cxl
	fio --name=cxl --ioengine=mmap --filename=$DEV --size=$SIZE --bs=4k \
		--rw=randwrite --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output=/tmp/fio.out || { cat /tmp/fio.out; fail "fio"; }
	grep -q 'err= 0' /tmp/fio.out || { cat /tmp/fio.out; fail "fio error"; }
	[ "$(stat evictions)" -gt 0 ] || fail "fio caused no eviction"
	unload
}

test_mmap_lat() {
	load_cxl
	mmap_lat --target $DEV --ws $((4 * CACHE)) --threads 2 --mode rand \
		--accesses 2000 || fail "mmap_lat"
	echo clock >$SYS/policy/eviction
	mmap_lat --target $DEV --ws $((4 * CACHE)) --threads 2 --mode seq \
		--write --accesses 2000 || fail "mmap_lat --write"
	unload
}

run_test device test_device
run_test integrity test_integrity
run_test share test_share
run_test remap_under_eviction test_remap_under_eviction
run_test bad_mmap test_bad_mmap
run_test rmmod_while_mapped test_rmmod_while_mapped
run_test accessed_bits test_accessed_bits
run_test sweep_misses test_sweep_misses
run_test mkwrite_writeback test_mkwrite_writeback
run_test switch_under_load test_switch_under_load
run_test knobs test_knobs
run_test_full_debug ways "integrity and remap_under_eviction" test_ways
run_test precondition test_precondition
run_test fio_verify test_fio_verify
run_test_full_debug mmap_lat "sweep_misses and integrity (the fault path, hits and misses)" test_mmap_lat
