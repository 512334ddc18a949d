# SPDX-License-Identifier: GPL-2.0
# frontend=nvme,cxl: both frontends on one medium (docs/dual.md). Data
# written through either side reads back through the other, before and
# after eviction; an NVMe read or write of a page resident in the device
# DRAM cache is a cache hit (counters, no NAND read or program); a
# Deallocate drops a mapped page from the cache (it reads zeros through
# the same mapping, refaulting); fio on /dev/nvme0n1 and mmap writers at
# once, then the counters add up and both sides agree.
# vmtest-mem: 2G
# vmtest-timeout: 300

DEV=/dev/nvme0n1
CXL=/dev/vflash0
SYS=/sys/class/vflash/vflash0
CACHE=$((1 << 20))

stat() {
	cat $SYS/stats/"$1"
}

# load_dual [CACHE_BYTES]: a 64 MiB dual device, fifo eviction, no
# prefetch (so the pages resident are exactly those touched)
load_dual() {
	load frontend=nvme,cxl size=64M cache_size="${1:-$CACHE}"
	wait_for $DEV
	wait_for $CXL
	echo fifo >$SYS/policy/eviction
	echo none >$SYS/policy/prefetch
}

# nvme_rw read|write PAGE FILE [-f]: one 4 KiB NVMe command (FUA with -f)
nvme_rw() {
	[ "$1" = write ] || rm -f "$3"
	nvme "$1" $DEV --start-block="$2" --block-count=0 --data-size=4096 \
		--data="$3" ${4:-} >/dev/null || fail "nvme $1 of page $2"
}

# evict_all: sweep 4x the cache over pages 0.. (reads only): every page
# outside that range leaves the cache under fifo
evict_all() {
	cxl_check sweep $CXL $((4 * CACHE)) 1 || fail "sweep"
}

test_loads() {
	local f

	load_dual
	expect_eq "$(cat $SYS/frontend)" "nvme,cxl" frontend
	expect_eq "$(cat /sys/block/nvme0n1/size)" $((64 << 11)) "size in sectors"
	for f in block_read_hits block_write_hits cache_invalidations; do
		expect_eq "$(stat $f)" 0 "$f when new"
	done
	unload
	expect_gone
}

# Written through one side, read through the other, while resident and
# after eviction (written back, then read from flash).
test_cross_data() {
	local wb

	load_dual
	dd if=/dev/urandom of=/tmp/a bs=4096 count=16 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=4096 count=16 2>/dev/null
	# NVMe -> mmap (the pages are not resident: the mmap reads miss)
	dd if=/tmp/a of=$DEV bs=4096 seek=10000 oflag=direct 2>/dev/null ||
		fail "NVMe write"
	cxl_check dump $CXL 10000 16 >/tmp/back || fail "dump"
	cmp /tmp/a /tmp/back || fail "NVMe write not seen through mmap"
	# mmap -> NVMe (dirty in the cache, not yet written back)
	cxl_check load $CXL 12000 16 </tmp/b || fail "load"
	dd if=$DEV of=/tmp/back bs=4096 skip=12000 count=16 iflag=direct 2>/dev/null ||
		fail "NVMe read"
	cmp /tmp/b /tmp/back || fail "mmap write not seen through NVMe"
	# NVMe overwrite of resident pages: mmap sees it at once.
	dd if=/tmp/a of=$DEV bs=4096 seek=12000 oflag=direct 2>/dev/null ||
		fail "NVMe overwrite"
	cxl_check dump $CXL 12000 16 >/tmp/back || fail "dump"
	cmp /tmp/a /tmp/back || fail "NVMe overwrite not seen through mmap"
	# Evicted (the dirty ones written back): both sides still agree.
	wb=$(stat dirty_writebacks)
	evict_all
	[ "$(stat dirty_writebacks)" -ge $((wb + 16)) ] ||
		fail "dirty pages not written back ($wb -> $(stat dirty_writebacks))"
	dd if=$DEV of=/tmp/back bs=4096 skip=12000 count=16 iflag=direct 2>/dev/null ||
		fail "NVMe read after eviction"
	cmp /tmp/a /tmp/back || fail "NVMe read after eviction"
	cxl_check dump $CXL 10000 16 >/tmp/back || fail "dump after eviction"
	cmp /tmp/a /tmp/back || fail "mmap read after eviction"
	unload
	expect_gone
}

# An NVMe read of a resident page is a cache hit: block_read_hits rises,
# the backend reads nothing; a page that is not resident goes to flash.
test_read_hit() {
	local h r n m

	load_dual
	dd if=/dev/urandom of=/tmp/a bs=4096 count=2 2>/dev/null
	dd if=/tmp/a of=$DEV bs=4096 seek=5000 oflag=direct conv=fsync 2>/dev/null ||
		fail "write"
	cxl_check dump $CXL 5000 1 >/dev/null || fail "dump"
	m=$(stat misses)
	h=$(stat block_read_hits)
	r=$(stat host_read_pages)
	n=$(stat nand_read_pages)
	nvme_rw read 5000 /tmp/back
	dd if=/tmp/a bs=4096 count=1 2>/dev/null | cmp - /tmp/back ||
		fail "data of the hit"
	expect_eq "$(stat block_read_hits)" $((h + 1)) "block_read_hits after a hit"
	expect_eq "$(stat host_read_pages)" "$r" "host_read_pages after a hit"
	expect_eq "$(stat nand_read_pages)" "$n" "nand_read_pages after a hit"
	# The neighbour is not resident: a flash read, no hit.
	nvme_rw read 5001 /tmp/back
	expect_eq "$(stat block_read_hits)" $((h + 1)) "block_read_hits after a miss"
	expect_eq "$(stat host_read_pages)" $((r + 1)) "host_read_pages after a miss"
	# An NVMe miss does not fill the cache; the mmap fault there misses.
	cxl_check dump $CXL 5001 1 >/dev/null || fail "dump"
	expect_eq "$(stat misses)" $((m + 1)) "misses"
	unload
}

# An NVMe write to a resident page is absorbed by the cache (dirty, no
# program now), seen by the mapping without a refault, and written back
# by its eviction; a FUA write goes to flash.
test_write_hit() {
	local h w m wb

	load_dual
	dd if=/dev/urandom of=/tmp/a bs=4096 count=3 2>/dev/null
	cxl_check dump $CXL 6000 2 >/dev/null || fail "dump"
	h=$(stat block_write_hits)
	w=$(stat host_write_pages)
	m=$(stat misses)
	wb=$(stat dirty_writebacks)
	dd if=/tmp/a of=$DEV bs=4096 seek=6000 count=1 oflag=direct 2>/dev/null ||
		fail "write"
	expect_eq "$(stat block_write_hits)" $((h + 1)) "block_write_hits"
	expect_eq "$(stat host_write_pages)" "$w" "host_write_pages after a hit"
	cxl_check dump $CXL 6000 1 >/tmp/back || fail "dump"
	dd if=/tmp/a bs=4096 count=1 2>/dev/null | cmp - /tmp/back ||
		fail "the mapping does not see the write"
	expect_eq "$(stat misses)" "$m" "misses (the page stayed resident)"
	# FUA: durable at completion, so to flash, not absorbed.
	dd if=/tmp/a of=/tmp/p2 bs=4096 skip=1 count=1 2>/dev/null
	nvme_rw write 6001 /tmp/p2 -f
	expect_eq "$(stat block_write_hits)" $((h + 1)) "block_write_hits after FUA"
	expect_eq "$(stat host_write_pages)" $((w + 1)) "host_write_pages after FUA"
	# Eviction writes back exactly the absorbed (dirty) page.
	evict_all
	expect_eq "$(stat dirty_writebacks)" $((wb + 1)) "dirty_writebacks"
	dd if=$DEV of=/tmp/back bs=4096 skip=6000 count=2 iflag=direct 2>/dev/null ||
		fail "read back"
	dd if=/tmp/a bs=4096 count=2 2>/dev/null | cmp - /tmp/back ||
		fail "data after writeback"
	unload
}

# A Deallocate of a page a process has mapped (dirty) unmaps it first and
# drops it without a writeback: the process's next read faults (a miss)
# and sees zeros.
test_deallocate_mapped() {
	local m i wb t pid n=0

	load_dual
	dd if=/dev/urandom of=/tmp/a bs=4096 count=1 2>/dev/null
	cxl_check load $CXL 7000 1 </tmp/a || fail "load"
	rm -f /tmp/hold /tmp/hold.out
	mkfifo /tmp/hold
	cxl_check zeroafter $CXL 7000 </tmp/hold >/tmp/hold.out &
	pid=$!
	exec 3>/tmp/hold
	while ! grep -q ready /tmp/hold.out && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	expect_eq "$(cat /tmp/hold.out)" "ready data" "the holder's first read"
	m=$(stat misses)
	i=$(stat cache_invalidations)
	wb=$(stat dirty_writebacks)
	t=$(stat host_trim_pages)
	nvme dsm $DEV --namespace-id=1 --ad --slbs=7000 --blocks=1 ||
		fail "nvme dsm"
	expect_eq "$(stat cache_invalidations)" $((i + 1)) "cache_invalidations"
	expect_eq "$(stat host_trim_pages)" $((t + 1)) "host_trim_pages"
	exec 3>&-
	wait $pid || fail "the holder did not read zeros"
	expect_eq "$(stat misses)" $((m + 1)) "misses (the holder refaulted)"
	evict_all
	expect_eq "$(stat dirty_writebacks)" "$wb" "dirty_writebacks (dropped, not written back)"
	cxl_check dump $CXL 7000 1 >/tmp/back || fail "dump"
	dd if=/dev/zero of=/tmp/zero bs=4096 count=1 2>/dev/null
	cmp /tmp/back /tmp/zero || fail "not zeros through a new mapping"
	nvme_rw read 7000 /tmp/back
	cmp /tmp/back /tmp/zero || fail "not zeros through NVMe"
	unload
}

# An NVMe Copy whose destination page is resident and mapped through CXL
# (dirty: a CXL store put it there): a process holding that mapping reads
# the copied data through it, as do a new mapping, NVMe, and both again
# after eviction (the stale CXL data is not written back over the copy).
# Then Write Uncorrectable on it: NVMe reads fail (Unrecovered Read
# Error), the CXL view still reads the data beneath (docs/dual.md: the
# marks are the NVMe command set's; the `poison` rule makes a CXL load
# fail), and a CXL store neither fails nor clears the mark.
test_copy_mapped() {
	local pid n=0 lbs bpp

	load_dual
	lbs=$(cat /sys/block/nvme0n1/queue/logical_block_size)
	bpp=$((4096 / lbs))
	dd if=/dev/urandom of=/tmp/a bs=4096 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=4096 count=1 2>/dev/null
	nvme_rw write $((300 * bpp)) /tmp/a
	cxl_check load $CXL 7100 1 </tmp/b || fail "load"
	rm -f /tmp/hold /tmp/hold.out
	mkfifo /tmp/hold
	cxl_check sameafter $CXL 7100 /tmp/a </tmp/hold >/tmp/hold.out &
	pid=$!
	exec 3>/tmp/hold
	while ! grep -q ready /tmp/hold.out && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	expect_eq "$(cat /tmp/hold.out)" "ready data" "the holder's first read"
	nvme copy $DEV --sdlba=$((7100 * bpp)) --slbs=$((300 * bpp)) \
		--blocks=$((bpp - 1)) >/dev/null || fail "nvme copy"
	exec 3>&-
	wait $pid || fail "the holder did not read the copied data"
	cxl_check dump $CXL 7100 1 >/tmp/back || fail "dump"
	cmp /tmp/back /tmp/a || fail "not the copy through a new mapping"
	nvme_rw read $((7100 * bpp)) /tmp/back
	cmp /tmp/back /tmp/a || fail "not the copy through NVMe"
	evict_all
	cxl_check dump $CXL 7100 1 >/tmp/back || fail "dump after eviction"
	cmp /tmp/back /tmp/a || fail "not the copy through CXL after eviction"
	nvme_rw read $((7100 * bpp)) /tmp/back
	cmp /tmp/back /tmp/a || fail "not the copy through NVMe after eviction"

	nvme write-uncor $DEV --start-block=$((7100 * bpp)) --block-count=0 \
		>/dev/null || fail "nvme write-uncor"
	rm -f /tmp/back
	! nvme read $DEV --start-block=$((7100 * bpp)) --block-count=0 \
		--data-size="$lbs" --data=/tmp/back >/dev/null 2>&1 ||
		fail "an NVMe read of the marked block succeeded"
	cxl_check dump $CXL 7100 1 >/tmp/back || fail "dump of the marked page"
	cmp /tmp/back /tmp/a || fail "the CXL view of the marked page is not its data"
	cxl_check load $CXL 7100 1 </tmp/b || fail "a CXL store to the marked page"
	! nvme read $DEV --start-block=$((7100 * bpp)) --block-count=0 \
		--data-size="$lbs" --data=/tmp/back >/dev/null 2>&1 ||
		fail "a CXL store cleared the mark"
	# An NVMe write clears it.
	nvme_rw write $((7100 * bpp)) /tmp/a
	nvme_rw read $((7100 * bpp)) /tmp/back
	cmp /tmp/back /tmp/a || fail "the write after the mark"
	unload
}

# fio random read/write with verify on [16 MiB, 20 MiB) of /dev/nvme0n1
# (3 loops; 1 under the debug kernel) while an mmap writer fills and verifies [0, 3 MiB) and a
# reader sweeps the fio range through mmap, so that NVMe I/O meets
# resident pages: 7 MiB of working set over a 4 MiB cache, evicting all
# along. Then: fio passed, every mmap round verified, NVMe reads and
# writes hit the cache, misses + prefetches = evictions + invalidations +
# resident pages, and both sides read the same bytes everywhere.
test_concurrent() {
	local fpid rounds=0 s ok=1 mb=3 fio=4096 loops=3 n lhs rhs

	# KASAN and lockdep: one fio pass is enough (and several minutes).
	debug_kernel && loops=1

	load_dual $((4 << 20))
	echo clock >$SYS/policy/eviction
	echo next-n >$SYS/policy/prefetch
	fio --name=dual --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randrw --bs=4k --iodepth=8 --offset=16M --size=4M \
		--loops=$loops --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse >/tmp/fio.out 2>&1 &
	fpid=$!
	while kill -0 $fpid 2>/dev/null; do
		s=$((rounds + 1))
		cxl_check fillat $CXL 0 $((mb << 20)) $s || { ok=0; break; }
		cxl_check dump $CXL $fio 1024 >/dev/null || { ok=0; break; }
		cxl_check verifyat $CXL 0 $((mb << 20)) $s || { ok=0; break; }
		rounds=$s
	done
	wait $fpid || { cat /tmp/fio.out; fail "fio verify"; }
	[ $ok -eq 1 ] || fail "mmap round $((rounds + 1)) failed"
	echo "mmap rounds during fio: $rounds"
	[ $rounds -ge 1 ] || fail "no mmap round finished during fio"
	# Quiet: the evictor may still be finishing a reclaim, a prefetch
	# may still be in flight; the counters add up once they are done.
	# Wait for that up to 10 s, not a fixed second: with another VM
	# beside this one (make check runs two), a second was not always
	# enough.
	n=0
	while :; do
		lhs=$(($(stat misses) + $(stat prefetch_issued)))
		rhs=$(($(stat evictions) + $(stat cache_invalidations) + $(stat resident_pages)))
		[ "$lhs" -ne "$rhs" ] && [ $n -lt 100 ] || break
		sleep 0.1
		n=$((n + 1))
	done
	echo "counters settled after $((n * 100)) ms"
	for s in misses prefetch_issued evictions cache_invalidations \
		resident_pages block_read_hits block_write_hits dirty_writebacks; do
		echo "$s $(stat $s)"
	done
	[ "$(stat evictions)" -gt 0 ] || fail "nothing was evicted"
	[ "$(stat block_read_hits)" -gt 0 ] || fail "no NVMe read hit the cache"
	[ "$(stat block_write_hits)" -gt 0 ] || fail "no NVMe write hit the cache"
	expect_eq "$lhs" "$rhs" \
		"misses + prefetch_issued vs evictions + invalidations + resident"
	# Both sides agree on every byte of the first 24 MiB.
	cxl_check dump $CXL 0 $((24 * 256)) >/tmp/m || fail "dump all"
	dd if=$DEV of=/tmp/n bs=1M count=24 iflag=direct 2>/dev/null ||
		fail "read all"
	cmp /tmp/m /tmp/n || fail "mmap and NVMe disagree"
	cxl_check verifyat $CXL 0 $((mb << 20)) $rounds || fail "last mmap round"
	unload
	expect_gone
}

run_test loads test_loads
run_test cross_data test_cross_data
run_test read_hit test_read_hit
run_test write_hit test_write_hit
run_test deallocate_mapped test_deallocate_mapped
run_test_full_debug copy_mapped "nvme's uncor_verify_copy runs Copy and Write Uncorrectable, deallocate_mapped and write_hit an NVMe command on a page mapped through CXL" test_copy_mapped
run_test concurrent test_concurrent
