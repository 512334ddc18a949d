# SPDX-License-Identifier: GPL-2.0
# Power loss and a failing controller (docs/faults.md) on frontend=nvme:
# faults/power_cut takes back exactly the writes a drive's write buffer
# held and had not programmed (not those made durable by a flush or FUA,
# nothing with power-loss protection), the function vanishes as on a
# surprise removal and comes back powered up; a CXL store on a dual
# device is never taken back; a cut under load keeps
# every write acknowledged before a completed flush (plcheck); ext4 is
# clean after a cut and its journal's replay; faults/fatal stops the
# controller with CSTS.CFS until the driver resets it; a read-only rule
# refuses Deallocate; bad values are refused with one dmesg line.
# vmtest-mem: 2G
# vmtest-timeout: 400

SYS=/sys/class/vflash/vflash0
F=/sys/class/vflash/vflash0/faults

stat() { cat $SYS/stats/$1; }

rule() {
	echo "$3" >"$F/$1/$2" || fail "$F/$1/$2 refused $3"
}

# ns and wait_ns (vflash's namespace, back after a cut) are in lib.sh.

load_nvme() {
	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout ||
		fail "cannot set nvme_core's io_timeout"
	load frontend=nvme size=64M profile=tlc "$@"
	DEV=$(wait_ns)
}

# put FILE LBA [fua]: write FILE's 4 KiB at block LBA, direct; with fua
# a Write with Force Unit Access through nvme-cli (O_DSYNC would add a
# flush: the kernel follows a synchronous block-device write with one)
put() {
	if [ "${3:-}" = fua ]; then
		nvme write "$DEV" -s "$2" -c 0 -z 4096 -d "$1" -f >/dev/null ||
			fail "FUA write of block $2"
	else
		dd if="$1" of="$DEV" bs=4096 seek="$2" count=1 oflag=direct \
			conv=notrunc 2>/dev/null || fail "writing block $2"
	fi
}

# expect_block LBA FILE: block LBA reads back as FILE
expect_block() {
	dd if="$DEV" of=/tmp/got bs=4096 skip="$1" count=1 iflag=direct \
		2>/dev/null || fail "reading block $1"
	cmp -s /tmp/got "$2" || fail "block $1 is not $2"
}

# smart FIELD: a number from nvme smart-log's JSON
smart() {
	nvme smart-log "$DEV" -o json >/tmp/smart.json || fail "nvme smart-log"
	sed -n "s/.*\"$1\" *: *\"\{0,1\}\([0-9]*\).*/\1/p" /tmp/smart.json
}

cut_power() {
	echo 1 >$F/power_cut/cut || fail "the cut failed"
}

# Old data flushed, new data written after it, with and without FUA; a
# cut takes back exactly the new writes that were neither flushed nor
# FUA (one 4 KiB write never fills its die's 32 KiB program unit on
# profile tlc, so it is still in the write buffer), the device comes
# back as a new controller, and SMART counts the unsafe shutdown.
cut_once() {
	local plp=$1 lost
	load_nvme
	for i in 1 2; do
		dd if=/dev/urandom of=/tmp/old$i bs=4096 count=1 2>/dev/null
		dd if=/dev/urandom of=/tmp/new$i bs=4096 count=1 2>/dev/null
	done
	put /tmp/old1 100
	put /tmp/old2 200
	sync "$DEV"	# a flush
	rule power_cut armed 0
	echo "$plp" >$F/plp || fail "plp=$plp refused"
	# Probability 0: only the cut file cuts.
	rule power_cut probability 0
	rule power_cut armed 1
	put /tmp/new1 100		# acknowledged, not flushed
	put /tmp/new2 200 fua
	expect_block 100 /tmp/new1
	dmesg -c >/dev/null
	cut_power
	expect_eq "$(cat $F/power_cut/armed)" 0 "armed after the cut"
	DEV=$(wait_ns)
	dmesg | grep -Ei 'nvme|vflash' | head -n 8
	expect_eq "$(stat fault_power_cuts)" 1 "fault_power_cuts"
	lost=$(stat power_cut_lost_writes)
	expect_block 200 /tmp/new2
	if [ "$plp" = 1 ]; then
		expect_eq "$lost" 0 "power_cut_lost_writes with plp"
		expect_block 100 /tmp/new1
	else
		[ "$lost" -ge 1 ] || fail "power_cut_lost_writes $lost"
		expect_block 100 /tmp/old1
	fi
	expect_eq "$(smart unsafe_shutdowns)" 1 "SMART unsafe shutdowns"
	expect_eq "$(smart power_cycles)" 2 "SMART power cycles"
	# The device works on: a new write reads back.
	put /tmp/new1 300
	expect_block 300 /tmp/new1
	unload
}

test_cut() {
	cut_once 0
}

test_cut_plp() {
	cut_once 1
}

# Regression: on frontend=nvme,cxl a CXL store was never logged, so a
# cut put back the copy an earlier, unflushed NVMe write of the page had
# logged: the store was lost. CXL stores are never taken back
# (docs/faults.md); an NVMe write after the store is (it was not
# flushed), back to the stored data.
test_cxl_store_survives() {
	modprobe nvme_core 2>/dev/null || true
	load frontend=nvme,cxl size=64M profile=tlc
	DEV=$(wait_ns)
	dd if=/dev/urandom of=/tmp/nv bs=4096 count=1 2>/dev/null
	rule power_cut probability 0
	rule power_cut armed 1
	put /tmp/nv 5			# acknowledged, not flushed
	cxl_check fill /dev/vflash0 32768 7 || fail "CXL stores"
	put /tmp/nv 6			# after the stores, not flushed
	cut_power
	DEV=$(wait_ns)
	[ "$(stat power_cut_lost_writes)" -ge 1 ] ||
		fail "the unflushed write after the stores was kept"
	cxl_check verify /dev/vflash0 32768 7 ||
		fail "CXL stores taken back by the cut"
	unload
}

# reserve_all_but PAGES: the store's reserve (debugfs store_reserve_pages)
# raised to all but PAGES 4 KiB pages of the memory available now
reserve_all_but() {
	local avail
	avail=$(($(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' \
		/proc/meminfo) / 4))
	echo $((avail - $1)) \
		>/sys/kernel/debug/vflash/vflash0/store_reserve_pages ||
		fail "store_reserve_pages"
}

# Regression: the power-loss log's copies ignored the memory the store
# leaves to the system (and could wake the OOM killer: a 65,536-block
# Write Zeroes needs 256 MiB of them). Now a write whose copies do not
# fit above the reserve is refused with an NVMe status, nothing
# changed, one dmesg line, no OOM kill; with the reserve back it works.
test_log_memory_refused() {
	load_nvme store=sparse
	dd if=/dev/urandom of=/tmp/d bs=4096 count=256 2>/dev/null
	dd if=/tmp/d of="$DEV" bs=4096 oflag=direct 2>/dev/null ||
		fail "writing 1 MiB"
	rule power_cut probability 0
	rule power_cut armed 1
	reserve_all_but 64
	dmesg -c >/dev/null
	if nvme write-zeroes "$DEV" -s 0 -c 255 >/dev/null 2>&1; then
		fail "Write Zeroes of 256 blocks logged with room for 64 copies"
	fi
	dmesg | grep -q 'power-loss log: no memory' ||
		fail "no dmesg line about the log's memory"
	! dmesg | grep -Eqi 'out of memory|oom-kill|invoked oom' ||
		fail "the OOM killer ran"
	echo 0 >/sys/kernel/debug/vflash/vflash0/store_reserve_pages
	dd if="$DEV" of=/tmp/got bs=4096 count=256 iflag=direct 2>/dev/null ||
		fail "reading back"
	cmp -s /tmp/got /tmp/d || fail "the refused Write Zeroes changed data"
	nvme write-zeroes "$DEV" -s 0 -c 255 >/dev/null ||
		fail "Write Zeroes with the reserve back"
	rule power_cut armed 0
	unload
}

# Regression: a cut that had to give a store=sparse page memory again to
# put its old data back (the page lost its memory to a Write Zeroes)
# failed when memory was short and left the page as the unflushed Write
# Zeroes had made it. The cut allocates nothing now: the log's copy of
# the page becomes its memory.
test_cut_restores_without_memory() {
	load_nvme store=sparse
	dd if=/dev/urandom of=/tmp/old bs=4096 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/new bs=4096 count=1 2>/dev/null
	put /tmp/old 7
	sync "$DEV"
	rule power_cut probability 0
	rule power_cut armed 1
	put /tmp/new 7				# not flushed
	nvme write-zeroes "$DEV" -s 7 -c 0 >/dev/null ||
		fail "Write Zeroes"		# not flushed: frees the page
	reserve_all_but 0
	cut_power
	DEV=$(wait_ns)
	echo 0 >/sys/kernel/debug/vflash/vflash0/store_reserve_pages
	expect_block 7 /tmp/old
	unload
}

# plcheck under load: 4 writers (10 % O_DSYNC) and a flusher every 20 ms,
# the power cut after 2 s (by hand) or at the rule's 3000th write (600th
# under the debug kernel); then
# every block holds a well-formed record no older than its last flushed
# write (with plp: its last acknowledged one).
cut_under_load() {
	local plp=$1 how=$2 pid
	load_nvme
	echo "$plp" >$F/plp || fail "plp=$plp refused"
	if [ "$how" = rule ]; then
		# KASAN makes each write several times slower.
		if debug_kernel; then
			rule power_cut after 600
		else
			rule power_cut after 3000
		fi
	else
		rule power_cut probability 0
	fi
	rule power_cut armed 1
	plcheck load "$DEV" /tmp/state -p 4096 -t 4 -f 10 -F 20 -s 120 &
	pid=$!
	if [ "$how" = file ]; then
		sleep 2
		cut_power
	fi
	wait $pid || fail "plcheck load"
	expect_eq "$(stat fault_power_cuts)" 1 "fault_power_cuts"
	DEV=$(wait_ns)
	dmesg | grep 'power cut' | tail -n 1
	if [ "$plp" = 1 ]; then
		plcheck verify "$DEV" /tmp/state plp || fail "plcheck verify plp"
		expect_eq "$(stat power_cut_lost_writes)" 0 "power_cut_lost_writes"
	else
		plcheck verify "$DEV" /tmp/state || fail "plcheck verify"
	fi
	unload
}

test_load_cut() {
	cut_under_load 0 file
}

test_load_cut_rule() {
	cut_under_load 0 rule
}

test_load_cut_plp() {
	cut_under_load 1 rule
}

# ext4 with its journal, under a metadata-heavy load (files created,
# appended, renamed, removed; an fsync now and then) and direct writes
# into a file (never flushed by themselves, so the cut takes some back),
# loses power; the old file system goes away with the function; on the
# device that comes back, mounting replays the journal and e2fsck -fn
# then finds nothing.
test_ext4() {
	local pid pid2
	load_nvme
	mkfs.ext4 -q "$DEV" || fail "mkfs.ext4"
	mkdir -p /mnt/pc
	# commit=60: the journal reaches the device at the load's fsyncs, not
	# on a 5 s timer, so that the direct writes just before the cut are
	# surely not flushed (the check at the end needs a write taken back).
	mount -t ext4 -o commit=60 "$DEV" /mnt/pc || fail "mount"
	rule power_cut probability 0
	rule power_cut armed 1
	rm -f /tmp/pc.stop
	(
		i=0
		while [ $i -lt 100000 ] && [ ! -e /tmp/pc.stop ]; do
			d=/mnt/pc/d$((i % 16))
			mkdir -p $d 2>/dev/null || exit 0
			echo "$i $i $i" >>$d/f$((i % 97)) 2>/dev/null || exit 0
			mv $d/f$((i % 97)) $d/g$i 2>/dev/null || exit 0
			rm -f $d/g$((i - 40)) 2>/dev/null
			[ $((i % 50)) = 0 ] && sync $d/g$i 2>/dev/null
			i=$((i + 1))
		done
	) &
	pid=$!
	(
		while dd if=/dev/urandom of=/mnt/pc/direct bs=64k count=16 \
			oflag=direct conv=notrunc 2>/dev/null; do :; done
	) &
	pid2=$!
	sleep 3
	# The metadata load stops (no fsync after this), one more burst of
	# direct writes lands, and the power goes while the direct loop runs.
	# The loop is told to stop and waited for, not killed: a kill left
	# its sync running, and on a slow guest that sync's flush could land
	# after the last write below and make it durable.
	touch /tmp/pc.stop
	wait $pid || true
	dd if=/dev/urandom of=/mnt/pc/direct bs=64k count=16 oflag=direct \
		conv=notrunc 2>/dev/null || fail "direct writes before the cut"
	# One page just before the cut: it never fills its die's 32 KiB
	# program unit, so the cut takes it back. (The 64 KiB bursts fill
	# whole units; under the debug kernel with another VM beside it the
	# loop's last burst was durable before the cut, and a sync the killed
	# loop had started could flush the rest: "took back no write".)
	dd if=/dev/urandom of=/mnt/pc/direct bs=4k count=1 seek=100 \
		oflag=direct conv=notrunc 2>/dev/null || fail "the last write before the cut"
	cut_power
	wait $pid2 || true
	dmesg | grep -E 'power cut|EXT4-fs' | tail -n 4
	umount /mnt/pc || umount -l /mnt/pc || fail "umount after the cut"
	DEV=$(wait_ns)
	mount -t ext4 "$DEV" /mnt/pc || fail "mount after the cut"
	ls /mnt/pc | head -n 3
	umount /mnt/pc || fail "umount"
	e2fsck -fn "$DEV" || fail "e2fsck found errors after the journal's replay"
	# The journal had something to cope with.
	[ "$(stat power_cut_lost_writes)" -ge 1 ] ||
		fail "the cut took back no write"
	unload
}

# A command of the fatal rule's range: the controller reports CSTS.CFS and
# stops; the driver times the command out, sees the fatal status, resets
# the controller and retries: the read succeeds, late.
test_fatal() {
	load_nvme
	dd if=/dev/urandom of=/tmp/blk bs=4096 count=1 2>/dev/null
	put /tmp/blk 7
	dmesg -c >/dev/null
	rule fatal range 7-7
	rule fatal times 1
	rule fatal armed 1
	expect_block 7 /tmp/blk
	dmesg | grep -i nvme | head -n 5
	dmesg | grep -Eqi 'controller is down|CSTS=0x[0-9a-f]*[3]|reset' ||
		fail "no controller reset in the kernel log"
	expect_eq "$(stat fault_fatal)" 1 "fault_fatal"
	expect_block 7 /tmp/blk
	unload
}

# Deallocate of a write-protected range is refused, the data stay.
test_read_only_discard() {
	load_nvme
	dd if=/dev/urandom of=/tmp/blk bs=4096 count=1 2>/dev/null
	put /tmp/blk 60
	rule read_only range 60-60
	rule read_only armed 1
	! blkdiscard -o $((60 * 4096)) -l 4096 "$DEV" 2>/dev/null ||
		fail "the discard succeeded"
	expect_block 60 /tmp/blk
	rule read_only armed 0
	blkdiscard -o $((60 * 4096)) -l 4096 "$DEV" || fail "discard after disarming"
	dd if=/dev/zero of=/tmp/zero bs=4096 count=1 2>/dev/null
	expect_block 60 /tmp/zero
	unload
}

# expect_refused ERRNO_TEXT WHY FILE VALUE: the write fails with
# ERRNO_TEXT and one dmesg line matching WHY
expect_refused() {
	expect_write_refused "$3" "$4" "$2" "$1"
}

test_bad_input() {
	load_nvme
	expect_refused "Invalid argument" "faults/power_cut/cut=1: arm the rule first" \
		$F/power_cut/cut 1
	expect_refused "Invalid argument" "faults/plp=2: not 0 or 1" $F/plp 2
	rule power_cut armed 1
	expect_refused "Invalid argument" "faults/power_cut/cut=2: only 1" \
		$F/power_cut/cut 2
	expect_refused "busy" "faults/plp=1: power_cut is armed" $F/plp 1
	rule power_cut armed 0
	unload
	load frontend=cxl size=16M cache_size=1M
	rule power_cut armed 1
	expect_refused "not supported" "faults/power_cut/cut=1: .*no power to cut" \
		$F/power_cut/cut 1
	rule power_cut armed 0
	unload
	expect_gone
}

# ctrl_of DEV: the sysfs directory of DEV's controller
ctrl_of() {
	local b=${1#/dev/}

	readlink -f "/sys/block/$b/device"
}

# Issue 37 (1): with FDP, two writes on two handles at the same unit
# offset of one die (die-affinity: LBAs 0 and 1 share a die), then a
# Flush: a cut keeps both (the log's waiting records were one per die,
# so the Flush stamped only one of them and the cut took the other back).
test_fdp_flush_keeps_both_handles() {
	load_nvme fdp=1 fdp_ruhs=2
	echo die-affinity >$SYS/policy/placement || fail "placement"
	dd if=/dev/urandom of=/tmp/a bs=4096 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=4096 count=1 2>/dev/null
	rule power_cut probability 0
	rule power_cut armed 1
	nvme write "$DEV" -s 0 -c 0 -z 4096 -d /tmp/a --dir-type=2 \
		--dir-spec=0 >/dev/null || fail "placed write, handle 0"
	nvme write "$DEV" -s 1 -c 0 -z 4096 -d /tmp/b --dir-type=2 \
		--dir-spec=1 >/dev/null || fail "placed write, handle 1"
	nvme flush "$DEV" >/dev/null || fail "nvme flush"
	dmesg -c >/dev/null
	cut_power
	DEV=$(wait_ns)
	dmesg | grep 'power cut:'
	expect_eq "$(stat power_cut_lost_writes)" 0 "writes taken back"
	expect_block 0 /tmp/a
	expect_block 1 /tmp/b
	unload
}

# Issue 37 (2): a Flush in flight (programs of 4 s) when the controller
# resets: its success may reach the host only once its programs ended,
# so a cut right after it returned keeps the data. A Delete I/O SQ
# posted it at once, and the cut took the write back.
test_reset_keeps_flush_honest() {
	local rc ctrl

	load_nvme
	echo 30 >/sys/module/nvme_core/parameters/io_timeout
	ctrl=$(ctrl_of "$DEV")
	dd if=/dev/urandom of=/tmp/a bs=4096 count=1 2>/dev/null
	rule power_cut probability 0
	rule power_cut armed 1
	echo 4000000000 >$SYS/config/main_prog_ns || fail "main_prog_ns"
	put /tmp/a 100			# acknowledged, in the write buffer
	(nvme flush "$DEV" >/dev/null 2>&1; echo $? >/tmp/flush.rc) &
	sleep 0.5
	echo 1 >"$ctrl/reset_controller" || fail "reset_controller"
	wait
	rc=$(cat /tmp/flush.rc)
	echo "the Flush returned $rc"
	cut_power
	DEV=$(wait_ns)
	echo 10000000 >$SYS/config/main_prog_ns
	if [ "$rc" = 0 ]; then
		expect_block 100 /tmp/a
	else
		echo "the Flush failed: nothing to hold the cut to"
	fi
	echo 2 >/sys/module/nvme_core/parameters/io_timeout
	unload
}

# Issue 37 (3): a write without FUA, then the driver unbinds (a clean
# shutdown: CC.SHN, and Linux sends no Flush), then a cut: the shutdown
# committed the write cache, so nothing is taken back, and SMART counts
# no unsafe shutdown; a cut without a shutdown before it counts one.
test_shutdown_commits_cache() {
	local ctrl b

	load_nvme
	ctrl=$(ctrl_of "$DEV")
	b=$(basename "$(readlink -f "$ctrl/device")")
	dd if=/dev/urandom of=/tmp/a bs=4096 count=1 2>/dev/null
	rule power_cut probability 0
	rule power_cut armed 1
	put /tmp/a 100			# acknowledged, in the write buffer
	echo "$b" >/sys/bus/pci/drivers/nvme/unbind || fail "unbind"
	cut_power
	DEV=$(wait_ns)
	expect_eq "$(stat power_cut_lost_writes)" 0 "writes taken back"
	expect_block 100 /tmp/a
	expect_eq "$(smart unsafe_shutdowns)" 0 "SMART unsafe shutdowns"
	rule power_cut probability 0
	rule power_cut armed 1
	cut_power
	DEV=$(wait_ns)
	expect_eq "$(smart unsafe_shutdowns)" 1 "SMART unsafe shutdowns"
	unload
}

# zone_at ZONE FIELD: Report Zones' FIELD (wp, state) of zone ZONE
zone_at() {
	nvme zns report-zones "$DEV" -o json >/tmp/zones.json ||
		fail "nvme zns report-zones"
	jq -r ".zone_list[$1].$2" /tmp/zones.json
}

# Issue 37 (6): after a cut a zone is durable as a prefix (docs/faults.md):
# zone 0 keeps its flushed blocks and its write pointer goes back to the
# first block taken back; zone 1, written but never flushed, is Empty;
# the blocks beyond the pointers read zeros. The pointers stayed where
# they were, over blocks the cut had zeroed.
test_zoned_cut_rewinds() {
	local zsz

	load_nvme zoned=1 zone_size=1M
	zsz=256
	dd if=/dev/urandom of=/tmp/z bs=4096 count=8 2>/dev/null
	dd if=/dev/zero of=/tmp/zero bs=4096 count=1 2>/dev/null
	rule power_cut probability 0
	rule power_cut armed 1
	nvme write "$DEV" -s 0 -c 3 -z 16384 -d /tmp/z >/dev/null ||
		fail "zone 0, blocks 0-3"
	nvme flush "$DEV" >/dev/null || fail "nvme flush"
	nvme write "$DEV" -s 4 -c 1 -z 8192 -d /tmp/z >/dev/null ||
		fail "zone 0, blocks 4-5"
	nvme write "$DEV" -s $zsz -c 1 -z 8192 -d /tmp/z >/dev/null ||
		fail "zone 1, blocks 0-1"
	expect_eq "$(zone_at 0 wp)" 6 "zone 0's pointer before the cut"
	dmesg -c >/dev/null
	cut_power
	DEV=$(wait_ns)
	dmesg | grep 'power cut:'
	[ "$(stat power_cut_lost_writes)" -ge 3 ] ||
		fail "the unflushed writes were kept"
	expect_eq "$(zone_at 0 wp)" 4 "zone 0's pointer after the cut"
	expect_eq "$(zone_at 0 state)" CLOSED "zone 0's state"
	expect_eq "$(zone_at 1 wp)" $zsz "zone 1's pointer"
	expect_eq "$(zone_at 1 state)" EMPTY "zone 1's state"
	dd if=/tmp/z of=/tmp/z4 bs=4096 count=1 skip=3 2>/dev/null
	expect_block 3 /tmp/z4
	expect_block 4 /tmp/zero
	expect_block $zsz /tmp/zero
	# Zone 0 takes a write at its pointer again.
	nvme write "$DEV" -s 4 -c 0 -z 4096 -d /tmp/z >/dev/null ||
		fail "zone 0 at its pointer after the cut"
	unload
}

# A restored device (docs/images.md) keeps power loss's guarantees: data
# written before the save reads back after the restore; a cut then takes
# back exactly the unflushed write made after it (to the restored data),
# keeps the FUA one, and SMART counts the unsafe shutdown over the saved
# counters.
test_cut_after_restore() {
	local pc lost

	load_nvme
	dd if=/dev/urandom of=/tmp/old1 bs=4096 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/new1 bs=4096 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/new2 bs=4096 count=1 2>/dev/null
	put /tmp/old1 100
	pc=$(smart power_cycles)
	image_round_trip frontend=nvme size=64M profile=tlc
	echo running >$SYS/state || fail "running after the restore"
	DEV=$(wait_ns)
	expect_block 100 /tmp/old1
	expect_eq "$(smart power_cycles)" $((pc + 1)) "SMART power cycles"
	rule power_cut probability 0
	rule power_cut armed 1
	put /tmp/new1 100		# acknowledged, not flushed
	put /tmp/new2 200 fua
	cut_power
	DEV=$(wait_ns)
	lost=$(stat power_cut_lost_writes)
	[ "$lost" -ge 1 ] || fail "power_cut_lost_writes $lost"
	expect_block 100 /tmp/old1
	expect_block 200 /tmp/new2
	expect_eq "$(smart unsafe_shutdowns)" 1 "SMART unsafe shutdowns"
	expect_eq "$(smart power_cycles)" $((pc + 2)) "SMART power cycles"
	unload
}

run_test cut test_cut
run_test_full_debug cut_plp "cut and load_cut_plp" test_cut_plp
run_test cut_after_restore test_cut_after_restore
run_test cxl_store_survives test_cxl_store_survives
run_test fdp_flush_keeps_both_handles test_fdp_flush_keeps_both_handles
run_test reset_keeps_flush_honest test_reset_keeps_flush_honest
run_test shutdown_commits_cache test_shutdown_commits_cache
run_test_not_debug zoned_cut_rewinds "built without CONFIG_BLK_DEV_ZONED: no zoned namespace" test_zoned_cut_rewinds
run_test log_memory_refused test_log_memory_refused
run_test cut_restores_without_memory test_cut_restores_without_memory
run_test_full_debug load_cut "load_cut_plp (the same load, cut)" test_load_cut
# The debug kernel runs the rule's cut once, with plp (about 3 minutes
# per load there).
run_test_not_debug load_cut_rule "load_cut_plp cuts the same load" test_load_cut_rule
run_test load_cut_plp test_load_cut_plp
run_test ext4 test_ext4
run_test_not_debug fatal "lockdep in the nvme driver's timeout and reset path" test_fatal
run_test read_only_discard test_read_only_discard
run_test bad_input test_bad_input
