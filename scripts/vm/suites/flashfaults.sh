# SPDX-License-Identifier: GPL-2.0
# Flash-level faults (docs/faults.md) on frontend=nvme: program_fail and
# erase_fail under fio write load retire blocks (stats/ bad_blocks and
# spare_blocks, SMART available spare) while fio's verify finds every
# block it wrote; every program failing eats the spare until the device
# goes read-only (writes fail with Namespace Is Write Protected, EIO, the
# kernel's error line; SMART critical warning bits 0 and 3) and reads go
# on; read retries are counted once their knobs are on; bad values are
# refused with one dmesg line.
# vmtest-mem: 2G
# vmtest-timeout: 300

DEV=/dev/nvme0n1
SYS=/sys/class/vflash/vflash0
F=/sys/class/vflash/vflash0/faults

# The debug kernel (KASAN) moves data several times slower: each load
# writes and verifies a quarter as much there (IO, the random writes;
# the sequential fills stay, they seal the blocks the tests need).
IO=32M
! light_run || IO=8M

stat() { cat $SYS/stats/$1; }

# rule FAULT FILE VALUE
rule() {
	echo "$3" >"$F/$1/$2" || fail "$F/$1/$2 refused $3"
}

# critical_warning: the critical warning byte of the log smart_log
# (lib.sh) read, as a number (the text output prints it in hex)
critical_warning() {
	local v
	v=$(sed -n 's/^critical_warning[[:space:]]*: *\([0-9a-fx]*\).*/\1/p' /tmp/smart)
	[ -n "$v" ] || fail "no critical_warning in nvme smart-log"
	echo $((v))
}

# expect_spare_pct SPARE_NEW: SMART's available spare (of the log
# smart_log read) is the spare left, as a percentage of the new device's,
# rounded up
expect_spare_pct() {
	local left
	left=$(stat spare_blocks)
	expect_eq "$(smart_field available_spare)" \
		$(((left * 100 + $1 - 1) / $1)) "available spare ($left of $1 blocks)"
}

# fio_verify NAME ARGS...: fio with crc32c verify of what it wrote
fio_verify() {
	local name=$1
	shift
	fio --name="$name" --filename=$DEV --ioengine=libaio --direct=1 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse "$@" >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio $name"; }
}

# Failed programs under a random write load: each retires the block the
# page went to, and the data written (the page whose program failed
# among them) reads back.
test_program_fail_under_load() {
	local spare0

	load frontend=nvme size=64M profile=tlc
	wait_for $DEV
	spare0=$(stat spare_blocks)
	[ "$spare0" -gt 10 ] || fail "only $spare0 spare blocks when new"
	expect_eq "$(stat bad_blocks)" 0 "bad blocks when new"
	smart_log
	expect_eq "$(smart_field available_spare)" 100 "available spare when new"
	rule program_fail probability 20000
	rule program_fail times 8
	rule program_fail armed 1
	fio_verify pf --rw=randwrite --bs=4k --iodepth=16 --size=32M --io_size=$IO

	expect_eq "$(cat $F/program_fail/injected)" 8 "program_fail injected"
	expect_eq "$(stat fault_program_fails)" 8 "fault_program_fails"
	expect_eq "$(stat bad_blocks)" 8 "bad_blocks"
	expect_eq "$(stat spare_blocks)" $((spare0 - 8)) "spare_blocks"
	smart_log
	expect_spare_pct "$spare0"
	expect_eq "$(critical_warning)" 0 "critical warning"
	# Everything written once more, read back after the retirements.
	fio_verify again --rw=write --bs=128k --iodepth=8 --size=$IO
	echo "1 2000" >/sys/kernel/debug/vflash/vflash0/torture ||
		fail "FTL invariants: $(cat /sys/kernel/debug/vflash/vflash0/torture)"
	unload
}

# The same on the SLC/QLC default: host writes land in SLC, whose bad
# blocks shrink the SLC cache, not the spare of the main region.
test_program_fail_hybrid() {
	local spare0

	load frontend=nvme size=64M profile=qlc-hybrid
	wait_for $DEV
	spare0=$(stat spare_blocks)
	rule program_fail probability 50000
	rule program_fail times 12
	rule program_fail armed 1
	fio_verify pfh --rw=randwrite --bs=4k --iodepth=16 --size=16M \
		--io_size=$IO
	expect_eq "$(stat fault_program_fails)" 12 "fault_program_fails"
	expect_eq "$(stat bad_blocks)" 12 "bad_blocks"
	[ "$(stat spare_blocks)" -le "$spare0" ] || fail "spare grew"
	smart_log
	expect_spare_pct "$spare0"
	unload
}

# Failed erases: GC (watermarks raised so that it runs at once) empties
# a block, its erase fails, the block is retired; fio verifies.
test_erase_fail_under_load() {
	local spare0

	load frontend=nvme size=64M profile=znand
	wait_for $DEV
	spare0=$(stat spare_blocks)
	echo 90 >$SYS/config/gc_high_pct
	echo 50 >$SYS/config/gc_low_pct
	rule erase_fail times 5
	rule erase_fail armed 1
	fio_verify fill --rw=write --bs=128k --iodepth=8 --size=32M
	fio_verify ef --rw=randwrite --bs=4k --iodepth=16 --size=32M \
		--io_size=$IO --loops="$(light 2 1)"
	[ "$(stat nand_erase_blocks)" -gt 5 ] || fail "GC erased $(stat nand_erase_blocks) blocks"
	expect_eq "$(stat fault_erase_fails)" 5 "fault_erase_fails"
	expect_eq "$(stat bad_blocks)" 5 "bad_blocks"
	expect_eq "$(stat spare_blocks)" $((spare0 - 5)) "spare_blocks"
	smart_log
	expect_spare_pct "$spare0"
	expect_eq "$(cat $F/erase_fail/armed)" 0 "erase_fail armed after its 5 times"
	fio_verify more --rw=randwrite --bs=4k --iodepth=16 --size=32M \
		--io_size=$IO
	expect_eq "$(stat bad_blocks)" 5 "bad_blocks after more GC"
	unload
}

# Every program failing: each 4 KiB write retires one block until no
# spare is left; then writes fail (20h, EIO), even with the rule
# disarmed, SMART says spare below threshold and read-only, and
# everything written before still reads back.
test_spare_exhaustion() {
	local spare0 n1 ok

	load frontend=nvme size=64M profile=znand
	wait_for $DEV
	dd if=/dev/urandom of=/tmp/pattern bs=4096 count=64 2>/dev/null
	dd if=/tmp/pattern of=$DEV bs=4096 oflag=direct 2>/dev/null ||
		fail "writing the pattern"
	dd if=/dev/urandom of=/tmp/more bs=4096 count=200 2>/dev/null
	spare0=$(stat spare_blocks)
	[ "$spare0" -ge 12 ] || fail "only $spare0 spare blocks when new"
	smart_log
	expect_eq "$(critical_warning)" 0 "critical warning when new"
	rule program_fail armed 1
	dmesg -c >/dev/null
	# The 4 KiB writes one at a time (QD 1, O_DIRECT), page 100 on, until
	# one fails: one dd each side of the point where the spare falls
	# below SMART's threshold of 10 % (a dd per write cost the debug
	# kernel seconds); dd stops at the first error.
	n1=$((spare0 - spare0 * 9 / 100))
	dd if=/tmp/more of=$DEV bs=4096 seek=100 count=$n1 oflag=direct \
		conv=notrunc 2>/tmp/dd.err || true
	ok=$(sed -n 's/^\([0-9]*\)+[0-9]* records out$/\1/p' /tmp/dd.err)
	if [ "$ok" -eq $n1 ]; then
		# Below the threshold, still writable.
		smart_log
		expect_spare_pct "$spare0"
		[ "$(smart_field available_spare)" -lt 10 ] ||
			fail "available spare not below 10 %"
		expect_eq "$(critical_warning)" 1 \
			"critical warning at $(stat spare_blocks) spare"
		dd if=/tmp/more of=$DEV bs=4096 skip=$n1 seek=$((100 + n1)) \
			count=$((200 - n1)) oflag=direct conv=notrunc \
			2>/tmp/dd.err || true
		ok=$((ok + $(sed -n 's/^\([0-9]*\)+[0-9]* records out$/\1/p' /tmp/dd.err)))
	fi
	cat /tmp/dd.err
	expect_eq "$ok" "$spare0" "writes before the spare ran out"
	grep -q 'Input/output error' /tmp/dd.err || fail "dd did not get EIO"
	dmesg | grep -E 'nvme0n1|I/O error' | head -n 3
	dmesg | grep -q 'sc 0x20' ||
		fail "no Namespace Is Write Protected (sc 0x20) in the kernel log"
	expect_eq "$(stat spare_blocks)" 0 "spare_blocks"
	expect_eq "$(stat bad_blocks)" "$spare0" "bad_blocks"
	[ "$(stat worn_out_writes)" -ge 1 ] || fail "worn_out_writes 0"
	smart_log
	expect_eq "$(smart_field available_spare)" 0 "available spare"
	expect_eq "$(critical_warning)" 9 "critical warning (spare, read-only)"
	# Worn out for good: the rule's state does not matter any more.
	rule program_fail armed 0
	! dd if=/tmp/more of=$DEV bs=4096 seek=10 count=1 oflag=direct \
		conv=notrunc 2>/dev/null || fail "a write succeeded when worn out"
	! nvme write-zeroes $DEV --namespace-id=1 --start-block=20 \
		--block-count=0 2>/dev/null || fail "write zeroes succeeded"
	# Reads go on: the pattern and every write that succeeded.
	dd if=$DEV of=/tmp/got bs=4096 count=64 iflag=direct 2>/dev/null ||
		fail "reading the pattern"
	cmp -s /tmp/got /tmp/pattern || fail "the pattern does not read back"
	dd if=$DEV of=/tmp/got bs=4096 skip=100 count="$ok" iflag=direct \
		2>/dev/null || fail "reading the writes"
	dd if=/tmp/more of=/tmp/want bs=4096 count="$ok" 2>/dev/null
	cmp -s /tmp/got /tmp/want || fail "the writes do not read back"
	fio --name=readback --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randread --bs=4k --iodepth=16 --size=64M --io_size=$IO \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio reads when worn out"; }
	unload
	# A new device is new again.
	load frontend=nvme size=64M profile=znand
	wait_for $DEV
	expect_eq "$(stat bad_blocks)" 0 "bad blocks after a reload"
	dd if=/tmp/more of=$DEV bs=4096 count=1 oflag=direct 2>/dev/null ||
		fail "a write after a reload"
	unload
}

# Read retries: off by default; with the age term on, reads of data a
# while old take retries (counted), with the knobs back at 0 none. znand's
# 1 MiB blocks: writing 32 MiB seals the first block of each of its 32
# dies, which holds the first 8192 pages (an open block's data is
# fresh).
test_read_retries() {
	load frontend=nvme size=64M profile=znand
	wait_for $DEV
	fio_verify seed --rw=write --bs=128k --iodepth=8 --size=32M
	dd if=$DEV of=/dev/null bs=4096 count=2000 iflag=direct 2>/dev/null
	expect_eq "$(stat read_retries)" 0 "read retries by default"
	echo 1 >$SYS/config/read_retry_age_unit_ms
	echo 2000 >$SYS/config/read_retry_age_milli
	sleep 1
	dd if=$DEV of=/dev/null bs=4096 count=2000 iflag=direct 2>/dev/null
	[ "$(stat read_retries)" -ge 2000 ] ||
		fail "read_retries $(stat read_retries) after 2000 reads of old data"
	echo 3 >$SYS/config/read_retry_max
	echo 0 >$SYS/stats/reset
	dd if=$DEV of=/dev/null bs=4096 count=100 iflag=direct 2>/dev/null
	expect_eq "$(stat read_retries)" 300 "read retries capped at 3 per read"
	echo 0 >$SYS/config/read_retry_age_milli
	echo 0 >$SYS/stats/reset
	dd if=$DEV of=/dev/null bs=4096 count=100 iflag=direct 2>/dev/null
	expect_eq "$(stat read_retries)" 0 "read retries with the knob off"
	fio_verify seed --rw=write --bs=128k --iodepth=8 --size=32M \
		--verify_only=1
	unload
}

# bad VALUE FILE WHY: refused, one dmesg line naming it
bad() {
	expect_write_refused "$2" "$1" "$3"
}

test_bad_input() {
	load frontend=nvme size=64M profile=tlc
	wait_for $DEV
	bad 1-2 $F/erase_fail/range "faults/erase_fail/range=1-2: an erase has no range"
	bad 2000000 $F/program_fail/probability "faults/program_fail/probability=2000000"
	bad 256 $SYS/config/read_retry_max "config/read_retry_max=256: not in 0-255"
	bad 0 $SYS/config/read_retry_age_unit_ms "config/read_retry_age_unit_ms=0"
	bad 1000001 $SYS/config/read_retry_pe_milli "config/read_retry_pe_milli=1000001"
	expect_eq "$(cat $F/erase_fail/range)" all "erase_fail range"
	expect_eq "$(cat $SYS/config/read_retry_max)" 16 "read_retry_max"
	expect_eq "$(cat $SYS/config/read_retry_age_unit_ms)" 1000 \
		"read_retry_age_unit_ms"
	unload
	expect_gone
}

run_test program_fail_under_load test_program_fail_under_load
run_test_full_debug program_fail_hybrid "program_fail_under_load and spare_exhaustion run program failures, block retirement and the rewrite" test_program_fail_hybrid
run_test_full_debug erase_fail_under_load "program_fail_under_load" test_erase_fail_under_load
run_test spare_exhaustion test_spare_exhaustion
run_test read_retries test_read_retries
run_test bad_input test_bad_input
