# SPDX-License-Identifier: GPL-2.0
# frontend=nvme's load-time options and health log: 512-byte blocks
# (lba_size=) with I/O that splits the backend's 4 KiB pages, completion
# workers (workers=) bound to CPUs (cpus=), and SMART wear and spare from
# the backend's erase counts and free blocks.
# vmtest-mem: 4G
# vmtest-timeout: 300

DEV=/dev/nvme0n1
SYS=/sys/class/vflash/vflash0

# sectors FROM COUNT FILE: COUNT 512-byte sectors of the device from FROM
sectors() {
	dd if=$DEV of="$3" bs=512 skip="$1" count="$2" iflag=direct 2>/dev/null ||
		fail "reading sectors $1+$2"
}

# expect_zero_sectors FROM COUNT WHAT
expect_zero_sectors() {
	sectors "$1" "$2" /tmp/got
	dd if=/dev/zero of=/tmp/zeros bs=512 count="$2" 2>/dev/null
	cmp /tmp/got /tmp/zeros || fail "$3 do not read as zeros"
}

# expect_pattern_sectors FROM COUNT PATTERN_OFFSET WHAT: sectors FROM.. hold
# /tmp/pattern from sector PATTERN_OFFSET on
expect_pattern_sectors() {
	sectors "$1" "$2" /tmp/got
	dd if=/tmp/pattern of=/tmp/want bs=512 skip="$3" count="$2" 2>/dev/null
	cmp /tmp/got /tmp/want || fail "$4 changed"
}

test_lba_512() {
	load frontend=nvme size=64M lba_size=512
	wait_for $DEV
	expect_eq "$(cat /sys/block/nvme0n1/queue/logical_block_size)" 512 "LBA size"
	expect_eq "$(cat /sys/block/nvme0n1/queue/physical_block_size)" 4096 \
		"physical block size (NPWG, AWUPF)"
	expect_eq "$(cat /sys/block/nvme0n1/size)" $((64 << 11)) "size in sectors"
	nvme id-ns $DEV | tee /tmp/idns | grep -E '^(nsze|ncap|lbaf)'
	grep -Eq '^nsze *: *(0x20000|131072)$' /tmp/idns || fail "nsze"
	grep -Eq 'lbaf +0 *: *ms:0 +lbads:9 .*in use' /tmp/idns || fail "LBA format"

	# Three sectors inside one backend page leave their neighbours alone.
	dd if=/dev/urandom of=/tmp/pattern bs=512 count=24 2>/dev/null
	dd if=/tmp/pattern of=$DEV bs=512 seek=3 count=3 oflag=direct \
		conv=notrunc 2>/dev/null || fail "3-sector write"
	expect_pattern_sectors 3 3 0 "the sectors written"
	expect_zero_sectors 0 3 "sectors before the write"
	expect_zero_sectors 6 10 "sectors after the write"

	# Three pages; then deallocate and zero ranges that split pages.
	dd if=/tmp/pattern of=$DEV bs=512 seek=16 count=24 oflag=direct \
		conv=notrunc 2>/dev/null || fail "3-page write"
	nvme dsm $DEV --namespace-id=1 --ad --slbs=19 --blocks=10 ||
		fail "nvme dsm"
	expect_pattern_sectors 16 3 0 "sectors before the deallocated range"
	expect_zero_sectors 19 10 "deallocated sectors"
	expect_pattern_sectors 29 11 13 "sectors after the deallocated range"
	nvme write-zeroes $DEV --namespace-id=1 --start-block=33 \
		--block-count=4 || fail "write zeroes"
	expect_pattern_sectors 29 4 13 "sectors before the zeroed range"
	expect_zero_sectors 33 5 "zeroed sectors"
	expect_pattern_sectors 38 2 22 "sectors after the zeroed range"
	nvme write-zeroes $DEV --namespace-id=1 --start-block=17 \
		--block-count=0 --deac || fail "write zeroes, deallocate"
	expect_pattern_sectors 16 1 0 "the sector before the deallocated one"
	expect_zero_sectors 17 1 "the deallocated sector"
	expect_pattern_sectors 18 1 2 "the sector after the deallocated one"

	# Verified I/O of single sectors, and of 4 KiB straddling pages.
	fio --name=s512 --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=512 --iodepth=16 --offset=1M --size="$(light 2M 128K)" \
		--verify=crc32c --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio 512"; }
	fio --name=straddle --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --offset=$((4 << 20)) --offset_increment=0 \
		--size="$(light 4M 256K)" --iodepth=8 --blockalign=512 --verify=crc32c \
		--verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio 4k at 512"; }
	unload
	expect_gone
}

# comm_pids NAME: pids of the threads called NAME. Each comm is read by
# the shell: a cat for each of the guest's hundred-odd tasks took about
# 10 s a call under the debug kernel (most of workers_bound_to_cpus' 55 s).
comm_pids() {
	local p c

	for p in /proc/[0-9]*; do
		IFS= read -r c 2>/dev/null <"$p/comm" || continue
		if [ "$c" = "$1" ]; then
			echo "${p#/proc/}"
		fi
	done
}

test_no_workers() {
	load frontend=nvme size=64M workers=0
	wait_for $DEV
	[ -n "$(comm_pids vflash0-nvme)" ] || fail "no dispatcher thread"
	[ -z "$(comm_pids vflash0-nvme-c1)" ] || fail "a worker with workers=0"
	fio --name=w0 --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randrw --bs=4k --iodepth=32 --size="$(light 16M 4M)" --verify=crc32c \
		--verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio, workers=0"; }
	unload
	expect_gone
}

test_workers_bound_to_cpus() {
	local k pid

	load frontend=nvme size=64M workers=3 cpus=1
	wait_for $DEV
	for k in "" -c1 -c2 -c3; do
		pid=$(comm_pids vflash0-nvme$k)
		[ -n "$pid" ] || fail "no thread vflash0-nvme$k"
		expect_eq "$(sed -n 's/^Cpus_allowed_list:\t*//p' /proc/$pid/status)" \
			1 "CPUs of vflash0-nvme$k"
	done
	fio --name=w3 --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randrw --bs=4k --iodepth=16 --numjobs=2 --size="$(light 8M 2M)" \
		--offset_increment=8M --verify=crc32c --verify_fatal=1 \
		--output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio, workers=3"; }
	unload
	expect_gone
	# Round-robin over a list: the dispatcher on CPU 0, workers on 1, 0.
	load frontend=nvme size=64M workers=2 cpus=0-1
	wait_for $DEV
	expect_eq "$(sed -n 's/^Cpus_allowed_list:\t*//p' \
		/proc/$(comm_pids vflash0-nvme-c2)/status)" 0 "CPUs of worker 2"
	dd if=$DEV of=/dev/null bs=64k count=64 iflag=direct 2>/dev/null ||
		fail "read, cpus=0-1"
	unload
	expect_gone
}

test_smart_wear_and_spare() {
	local used spare

	# znand's 1 MiB blocks: 128 MiB is past the per-die minimum, so
	# writing it three times makes the backend clean and erase (67 %
	# used at 1 rated cycle, 3 writes and 16 MiB scattered, debug kernel).
	# A light run writes it twice and scatters 8 MiB: one overwrite of
	# the device, about a third of that wear, still well above 10 %.
	load frontend=nvme size=128M profile=znand
	wait_for $DEV
	smart_log
	cat /tmp/smart
	expect_eq "$(smart_field percentage_used)" 0 "percentage used when new"
	expect_eq "$(smart_field available_spare)" 100 "available spare when new"
	expect_eq "$(smart_field power_on_hours)" 0 "power-on hours"
	expect_eq "$(smart_field critical_warning)" 0 "critical warning when new"

	# Rated for one cycle, the erases become a visible share of the life.
	echo 1 >$SYS/config/main_pe_cycles
	echo 1 >$SYS/config/slc_pe_cycles
	fio --name=fill --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=write --bs=128k --iodepth=8 --loops="$(light 3 2)" \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio fill"; }
	fio --name=scatter --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=32 --io_size="$(light 16M 8M)" \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio scatter"; }
	[ "$(cat $SYS/stats/nand_erase_blocks)" -gt 0 ] || fail "nothing erased"
	smart_log
	cat /tmp/smart
	used=$(smart_field percentage_used)
	spare=$(smart_field available_spare)
	[ "$used" -ge 10 ] && [ "$used" -le 255 ] ||
		fail "percentage used $used after the writes at 1 rated cycle"
	# Available spare follows the spare blocks: wear retires none.
	expect_eq "$spare" 100 "available spare without bad blocks"
	# Back to the data sheet: the same erases are a sliver of the life.
	echo 1000000 >$SYS/config/main_pe_cycles
	echo 1000000 >$SYS/config/slc_pe_cycles
	smart_log
	expect_eq "$(smart_field percentage_used)" 1 "percentage used at 10^6 cycles"
	unload
	expect_gone
}

# Regression: SMART data units once came from the backend's page counters,
# so Write Zeroes counted as data written and stats/reset zeroed them.
test_smart_units_are_the_controllers() {
	local w0 w1

	load frontend=nvme size=64M
	wait_for $DEV
	dd if=/dev/urandom of=/tmp/blk bs=4096 count=1 2>/dev/null
	nvme write $DEV --start-block=0 --block-count=0 --data-size=4096 \
		--data=/tmp/blk >/dev/null || fail "nvme write"
	smart_log
	w0=$(smart_field "Data Units Written")
	[ "$w0" -ge 1 ] || fail "data units written $w0 after a write"
	nvme write-zeroes $DEV --namespace-id=1 --start-block=100 \
		--block-count=127 || fail "write zeroes"
	smart_log
	expect_eq "$(smart_field "Data Units Written")" "$w0" \
		"data units written after Write Zeroes"
	echo 0 >$SYS/stats/reset
	smart_log
	expect_eq "$(smart_field "Data Units Written")" "$w0" \
		"data units written after stats/reset"
	w1=$(smart_field host_write_commands)
	[ "$w1" -ge 1 ] || fail "host write commands $w1 after stats/reset"
	nvme id-ns $DEV | grep -Eq '^dlfeat *: *9$' ||
		fail "DLFEAT does not say deallocated blocks read as zeros"
	unload
	expect_gone
}

run_test lba_512 test_lba_512
run_test no_workers test_no_workers
run_test_full_debug workers_bound_to_cpus "no_workers, and every NVMe load's completion workers" test_workers_bound_to_cpus
run_test_full_debug smart_wear_and_spare "flashfaults' spare_exhaustion (spare and wear in the SMART log), and powercut's cut_after_restore (its counters over a restore)" test_smart_wear_and_spare
run_test_full_debug smart_units_are_the_controllers "powercut's cut_after_restore reads the SMART log's counters (power cycles, unsafe shutdowns) over a restore" test_smart_units_are_the_controllers
