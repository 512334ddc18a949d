# SPDX-License-Identifier: GPL-2.0
# Fault injection (core/faults.c, docs/faults.md) on frontend=nvme: each
# rule of /sys/class/vflash/vflash0/faults/ injects what the host
# then sees (the I/O error and the kernel's message, the data left as it
# was, the stats/ counter), only on its range, after N commands, N times,
# at a probability; a read-only namespace refuses writes and says so in
# SMART; a timeout is recovered by the driver (abort, reset)
# and the command retried; a delay delays; the device keeps serving
# other I/O (with workers=0 too); a poisoned CXL page gets SIGBUS with
# BUS_MCEERR_AR, also when armed during its fault or stored to through a
# read-only mapping; bad
# values are refused with one dmesg line naming the file.
# vmtest-mem: 2G
# vmtest-timeout: 300

DEV=/dev/nvme0n1
SYS=/sys/class/vflash/vflash0
F=/sys/class/vflash/vflash0/faults

stat() { cat $SYS/stats/$1; }

# The driver gives up on a command after io_timeout seconds (30 by
# default): 2 here, so that a timeout test takes seconds. nvme_core is
# built into Debian's cloud kernel; the value applies to controllers
# probed afterwards.
load_nvme() {
	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout ||
		fail "cannot set nvme_core's io_timeout"
	load frontend=nvme size=64M profile=tlc
	wait_for $DEV
	# A known pattern on the first 64 blocks.
	dd if=/dev/urandom of=/tmp/pattern bs=4096 count=64 2>/dev/null
	dd if=/tmp/pattern of=$DEV bs=4096 oflag=direct 2>/dev/null ||
		fail "writing the pattern"
}

# rule FAULT FILE VALUE
rule() {
	echo "$3" >"$F/$1/$2" || fail "$F/$1/$2 refused $3"
}

# arm FAULT RANGE TIMES [AFTER [PROBABILITY]]
arm() {
	rule "$1" armed 0
	rule "$1" range "$2"
	rule "$1" times "$3"
	rule "$1" after "${4:-0}"
	rule "$1" probability "${5:-1000000}"
	rule "$1" armed 1
}

# read_lba N: read block N (direct) into /tmp/got; fails like dd
read_lba() {
	dd if=$DEV of=/tmp/got bs=4096 skip="$1" count=1 iflag=direct 2>/tmp/dd.err
}

# expect_block N: block N reads back as the pattern's block N
expect_block() {
	read_lba "$1" || fail "reading block $1: $(cat /tmp/dd.err)"
	dd if=/tmp/pattern of=/tmp/want bs=4096 skip="$1" count=1 2>/dev/null
	cmp -s /tmp/got /tmp/want || fail "block $1 does not read back"
}

test_read_error() {
	load_nvme
	dmesg -c >/dev/null
	arm read_error 10-10 1
	! read_lba 10 || fail "the armed read succeeded"
	dmesg | grep -E 'nvme0n1|I/O error|medium' | head -n 3
	dmesg | grep -Eq 'critical medium error|Unrecovered Read Error|sc 0x81' ||
		fail "no medium error in the kernel log"
	expect_eq "$(stat fault_read_errors)" 1 "fault_read_errors"
	expect_eq "$(cat $F/read_error/injected)" 1 "injected"
	expect_eq "$(cat $F/read_error/armed)" 0 "armed after times 1"
	# Other blocks, and then the same one, read as written.
	expect_block 9
	expect_block 11
	expect_block 10
	expect_eq "$(stat fault_read_errors)" 1 "fault_read_errors"
	unload
}

# after 5: five reads pass, the sixth fails; then with probability one
# half, about half of 100 reads fail, exactly as many as were injected.
test_after_and_probability() {
	local i failed=0
	load_nvme
	arm read_error all 1 5
	for i in 1 2 3 4 5; do
		read_lba $i || fail "read $i of 5 failed"
	done
	! read_lba 6 || fail "the sixth read succeeded"
	expect_eq "$(cat $F/read_error/matched)" 6 "matched"
	arm read_error 0-63 0 0 500000
	for i in $(seq 0 99); do
		read_lba $((i % 64)) || failed=$((failed + 1))
	done
	echo "$failed of 100 reads failed"
	expect_eq "$(cat $F/read_error/matched)" 100 "matched"
	expect_eq "$(cat $F/read_error/injected)" $failed "injected"
	[ $failed -gt 0 ] && [ $failed -lt 100 ] || fail "$failed of 100 failed"
	rule read_error armed 0
	expect_block 33
	unload
}

test_write_fault() {
	load_nvme
	dmesg -c >/dev/null
	arm write_fault 20-20 1
	dd if=/dev/urandom of=/tmp/new bs=4096 count=1 2>/dev/null
	! dd if=/tmp/new of=$DEV bs=4096 seek=20 count=1 oflag=direct 2>/dev/null ||
		fail "the armed write succeeded"
	dmesg | grep -Eq 'critical (target|medium|I/O) error|Write Fault|sc 0x80|I/O error' ||
		fail "no write error in the kernel log"
	expect_eq "$(stat fault_write_faults)" 1 "fault_write_faults"
	# The failed write stored nothing; the next one does.
	expect_block 20
	dd if=/tmp/new of=$DEV bs=4096 seek=21 count=1 oflag=direct 2>/dev/null ||
		fail "a write outside the range failed"
	read_lba 21 && cmp -s /tmp/got /tmp/new || fail "block 21 was not written"
	unload
}

# A command never completed: the driver aborts it (vflash answers "not
# aborted"), then resets the controller and retries: the read succeeds,
# late, and the device keeps working.
test_timeout() {
	load_nvme
	dmesg -c >/dev/null
	arm timeout 30-30 1
	expect_block 30
	dmesg | grep -i nvme | head -n 5
	dmesg | grep -Eqi 'timeout' || fail "no timeout in the kernel log"
	expect_eq "$(stat fault_timeouts)" 1 "fault_timeouts"
	expect_block 31
	expect_block 30
	unload
}

# critical_warning: SMART's critical warning byte, as a number
critical_warning() {
	nvme smart-log /dev/nvme0 -o json >/tmp/smart.json || fail "nvme smart-log"
	sed -n 's/.*"critical_warning" *: *\([0-9]*\).*/\1/p' /tmp/smart.json
}

# Read-only: every write fails (the kernel logs the error), nothing is
# stored, reads go on, SMART says the media is read-only (bit 3); once
# disarmed, writes work and the warning is gone.
test_read_only() {
	load_nvme
	expect_eq "$(critical_warning)" 0 "critical warning before"
	arm read_only all 0
	dd if=/dev/urandom of=/tmp/new bs=4096 count=1 2>/dev/null
	! dd if=/tmp/new of=$DEV bs=4096 seek=50 count=1 oflag=direct 2>/dev/null ||
		fail "a write succeeded"
	expect_block 50
	expect_block 51
	expect_eq "$(critical_warning)" 8 "critical warning when read-only"
	[ "$(stat fault_read_only_writes)" -ge 1 ] || fail "fault_read_only_writes 0"
	rule read_only armed 0
	expect_eq "$(critical_warning)" 0 "critical warning after"
	dd if=/tmp/new of=$DEV bs=4096 seek=50 count=1 oflag=direct 2>/dev/null ||
		fail "a write after disarming failed"
	read_lba 50 && cmp -s /tmp/got /tmp/new || fail "block 50 was not written"
	unload
}

# uptime_cs: /proc/uptime in hundredths of a second
uptime_cs() {
	tr -d . </proc/uptime | cut -d' ' -f1
}

# A delay of 1.5 s (under the driver's 2 s timeout): the read takes at
# least that long (a lower bound, whatever the VM's speed), and is counted.
test_delay() {
	local t0 t1
	load_nvme
	rule delay delay_ns 1500000000
	arm delay 40-40 1
	t0=$(uptime_cs)
	expect_block 40
	t1=$(uptime_cs)
	echo "the delayed read took $((t1 - t0))0 ms"
	[ $((t1 - t0)) -ge 149 ] || fail "the read took $((t1 - t0))0 ms"
	expect_eq "$(stat fault_delays)" 1 "fault_delays"
	expect_eq "$(stat early_completions)" 0 "early_completions"
	unload
}

# workers=0 (issue 23): the dispatcher posts every completion itself, and
# a completion delayed 10 s must not stop it polling the doorbells. While
# the delayed read is outstanding (the rule has matched it), admin
# commands (id-ctrl, smart-log) and a read of another block complete, and
# the delayed read is still outstanding when they have: an order, not a
# time. (Before the fix the dispatcher slept to the delayed completion,
# and id-ctrl came back only with it.)
test_delay_workers0() {
	local pid n=0
	modprobe nvme_core 2>/dev/null || true
	echo 30 >/sys/module/nvme_core/parameters/io_timeout ||
		fail "cannot set nvme_core's io_timeout"
	load frontend=nvme size=64M profile=tlc workers=0
	wait_for $DEV
	rule delay delay_ns 10000000000
	arm delay 40-40 1
	rm -f /tmp/delayed.done
	# The file appears only once the read is over.
	(if read_lba 40; then r=ok; else r=failed; fi; echo $r >/tmp/delayed.done) &
	pid=$!
	while [ "$(cat $F/delay/matched)" != 1 ] && [ $n -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	expect_eq "$(cat $F/delay/matched)" 1 "the delayed read was fetched"
	nvme id-ctrl /dev/nvme0 >/dev/null || fail "id-ctrl"
	nvme smart-log /dev/nvme0 >/dev/null || fail "smart-log"
	dd if=$DEV of=/dev/null bs=4096 skip=41 count=1 iflag=direct 2>/dev/null ||
		fail "reading block 41"
	[ ! -e /tmp/delayed.done ] ||
		fail "the delayed read completed ($(cat /tmp/delayed.done)) before the admin commands and the other read (fault_delays $(stat fault_delays), early_completions $(stat early_completions))"
	wait $pid
	expect_eq "$(cat /tmp/delayed.done)" ok "the delayed read"
	expect_eq "$(stat fault_delays)" 1 "fault_delays"
	unload
}

# CXL: a poisoned page, mapped when the rule is armed, gets SIGBUS with
# BUS_MCEERR_AR at its address on every access (cxl_check poison); its
# neighbour reads; disarmed, the device's data are all there.
test_cxl_poison() {
	load frontend=cxl size=16M cache_size=1M profile=znand
	wait_for /dev/vflash0
	cxl_check fill /dev/vflash0 $((2 << 20)) 7 || fail "fill"
	rule poison range 5-5
	rule poison times 0
	cxl_check poison /dev/vflash0 $((2 << 20)) 5 $F/poison/armed ||
		fail "cxl_check poison"
	expect_eq "$(stat fault_poison_signals)" 3 "fault_poison_signals"
	expect_eq "$(cat $F/poison/injected)" 3 "injected"
	rule poison armed 0
	cxl_check verify /dev/vflash0 $((2 << 20)) 7 || fail "verify after poison"
	unload
}

# CXL (issue 23): poison armed while a fault sleeps on the page's NAND
# read (main_read_ns 2 s): the fault does not map the page afterwards,
# the load gets SIGBUS BUS_MCEERR_AR (cxl_check poisonrace waits until the
# loading thread sleeps in the fault, then arms). A store to a page mapped
# read-only gets it too, whether mapped before the arming or by a load
# the rule let through (`after` 1: that store goes through pfn_mkwrite).
test_cxl_poison_race() {
	local read_ns
	load frontend=cxl size=16M cache_size=1M profile=znand
	wait_for /dev/vflash0
	# Written, then evicted by the rest (a 1 MiB cache): page 9's next
	# access reads NAND (a page never written reads none).
	cxl_check fill /dev/vflash0 $((2 << 20)) 7 || fail "fill"
	read_ns=$(cat $SYS/config/main_read_ns)
	echo 2000000000 >$SYS/config/main_read_ns || fail "main_read_ns"
	rule poison range 9-9
	rule poison times 0
	rule poison after 0
	cxl_check poisonrace /dev/vflash0 $((2 << 20)) 9 $F/poison/armed ||
		fail "cxl_check poisonrace"
	[ "$(cat $F/poison/injected)" -ge 1 ] || fail "injected 0 after the race"
	rule poison armed 0
	echo "$read_ns" >$SYS/config/main_read_ns
	rule poison range 12-12
	cxl_check poisonwrite /dev/vflash0 $((2 << 20)) 12 $F/poison/armed 1 ||
		fail "cxl_check poisonwrite, mapped before arming"
	expect_eq "$(cat $F/poison/injected)" 1 "injected (mapped before arming)"
	rule poison armed 0
	rule poison range 14-14
	rule poison after 1
	cxl_check poisonwrite /dev/vflash0 $((2 << 20)) 14 $F/poison/armed 0 ||
		fail "cxl_check poisonwrite, a load let through"
	expect_eq "$(cat $F/poison/matched)" 2 "matched (a load, a store)"
	expect_eq "$(cat $F/poison/injected)" 1 "injected (the store)"
	rule poison armed 0
	unload
}

# bad VALUE FAULT FILE WHY: refused, one dmesg line naming the file
bad() {
	expect_write_refused "$F/$2/$3" "$1" "faults/$2/$3=$1: $4"
}

test_bad_input() {
	load_nvme
	bad 5-2 read_error range "FIRST is after LAST"
	bad 0-16384 read_error range "past the device"
	bad 7 read_error range "not FIRST-LAST"
	bad 2000000 timeout probability "more than 1000000"
	bad x write_fault times "not a number"
	bad 2 delay armed "not 0 or 1"
	bad 61000000000 delay delay_ns "more than 60 s"
	expect_eq "$(cat $F/read_error/range)" all "range after refusals"
	[ ! -e $F/read_error/delay_ns ] || fail "delay_ns on read_error"
	! echo 1 2>/dev/null >$F/read_error/injected || fail "injected is writable"
	# An armed rule is not edited.
	arm read_error 0-0 1
	bad 1-1 read_error range "the rule is armed"
	expect_eq "$(cat $F/read_error/range)" 0-0 "range of the armed rule"
	expect_block 1
	unload
	# Unloaded with a rule armed: a fresh load has none.
	load_nvme
	expect_eq "$(cat $F/read_error/armed)" 0 "armed after a reload"
	expect_block 0
	unload
	expect_gone
}

# The kernel rate-limits its I/O error lines (10 per 5 s): the tests that
# look for them run before the one that makes a hundred errors.
run_test read_error test_read_error
run_test write_fault test_write_fault
# The kernel's own nvme driver makes lockdep report a possible circular
# dependency whenever a command times out and the controller is reset
# after an nvme device was removed (nvme_timeout -> shutdown_lock,
# nvme_remove -> namespaces_rwsem, reset_work's nvme_sync_queues ->
# timeout_work), whatever the device: not a test of vflash.
run_test_not_debug timeout "lockdep in the nvme driver's timeout and reset path" test_timeout
run_test delay test_delay
run_test delay_workers0 test_delay_workers0
run_test read_only test_read_only
run_test_full_debug after_and_probability "read_error and write_fault run the rules' matching and injection" test_after_and_probability
run_test cxl_poison test_cxl_poison
run_test cxl_poison_race test_cxl_poison_race
run_test bad_input test_bad_input
