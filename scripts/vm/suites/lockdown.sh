# SPDX-License-Identifier: GPL-2.0
# Fault injection and power cuts under kernel lockdown (issue 40): Secure
# Boot on Debian and Ubuntu locks the kernel down (integrity), which
# refuses every debugfs write; the same rules live in sysfs
# (/sys/class/vflash/vflashN/faults/, docs/faults.md), which lockdown
# leaves writable. vflash is loaded, then lockdown is raised at run time
# (it cannot be lowered, so this suite boots alone: its vmtest-append line
# is its own), and a read error, plp and a power cut are armed, injected
# and checked through sysfs alone; debugfs's read-only copy of the sysfs
# tree refuses every write.
# vmtest-mem: 1G
# vmtest-timeout: 120
# vmtest-append: vflash_suite_alone=lockdown

SYS=/sys/class/vflash/vflash0
S=$SYS/faults
D=/sys/kernel/debug/vflash/vflash0/faults
LD=/sys/kernel/security/lockdown

stat() { cat $SYS/stats/$1; }

# sfs RULE FILE VALUE: write a rule's file through sysfs
sfs() {
	echo "$3" >"$S/$1/$2" || fail "$S/$1/$2 refused $3"
}

# debugfs has a read-only copy of the sysfs tree: the same rules, the
# same files but the write-only power_cut/cut; it refuses every write,
# lockdown or not (issue 40: debugfs only for what is read-only).
test_same_files() {
	local f
	load frontend=nvme size=32M profile=tlc
	mount | grep -q ' /sys/kernel/debug ' ||
		mount -t debugfs none /sys/kernel/debug
	expect_eq "$(cd $S && find . | grep -v '^./power_cut/cut$' | sort)" \
		"$(cd $D && find . | sort)" "sysfs faults/ against debugfs faults/"
	[ ! -e $D/power_cut/cut ] || fail "debugfs has power_cut/cut"
	# A value set through sysfs is read through debugfs.
	sfs delay delay_ns 12345
	expect_eq "$(cat $D/delay/delay_ns)" 12345 "debugfs delay_ns"
	for f in read_error/after read_error/armed power_cut/armed plp; do
		echo 1 >$D/$f 2>/dev/null && fail "debugfs $f took a write"
	done
	expect_eq "$(cat $S/read_error/armed)" 0 "read_error armed after debugfs writes"
	sfs read_error after 777
	expect_eq "$(cat $D/read_error/after)" 777 "debugfs after"
	# Bad values: -EINVAL and one dmesg line naming the file.
	dmesg -c >/dev/null
	echo 2000000 >$S/read_error/probability 2>/dev/null &&
		fail "probability 2000000 taken"
	expect_match "$(dmesg)" "faults/read_error/probability=2000000" \
		"dmesg line of a bad value"
	echo x >$S/plp 2>/dev/null && fail "plp=x taken"
	unload
}

test_lockdown() {
	local dev lost

	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout
	load frontend=nvme size=32M profile=tlc
	dev=$(wait_ns)
	mount | grep -q ' /sys/kernel/debug ' ||
		mount -t debugfs none /sys/kernel/debug
	echo integrity >$LD || fail "cannot raise lockdown"
	expect_match "$(cat $LD)" '\[integrity\]' "lockdown"
	echo 1 >$D/read_error/armed 2>/dev/null &&
		fail "debugfs took a write under lockdown"

	# A read error on block 5, through sysfs.
	dd if=/dev/urandom of=/tmp/a bs=4096 count=1 2>/dev/null
	dd if=/tmp/a of="$dev" bs=4096 seek=5 count=1 oflag=direct \
		conv=notrunc 2>/dev/null || fail "writing block 5"
	sfs read_error range 5-5
	sfs read_error times 1
	sfs read_error armed 1
	dd if="$dev" of=/dev/null bs=4096 skip=5 count=1 iflag=direct \
		2>/dev/null && fail "the read error was not injected"
	expect_eq "$(cat $S/read_error/injected)" 1 "read_error injected"
	expect_eq "$(stat fault_read_errors)" 1 "fault_read_errors"

	# plp off (refused while power_cut is armed), a power cut by hand.
	echo 0 >$S/plp || fail "plp 0 refused"
	sfs power_cut probability 0
	sfs power_cut armed 1
	echo 1 >$S/plp 2>/dev/null && fail "plp changed while armed"
	dd if=/dev/urandom of=/tmp/b bs=4096 count=1 2>/dev/null
	dd if=/tmp/b of="$dev" bs=4096 seek=9 count=1 oflag=direct \
		conv=notrunc 2>/dev/null || fail "writing block 9"
	sfs power_cut cut 1
	dev=$(wait_ns)
	lost=$(stat power_cut_lost_writes)
	[ "$lost" -ge 1 ] || fail "power_cut_lost_writes $lost"
	expect_eq "$(cat $S/power_cut/armed)" 0 "armed after the cut"
	dd if="$dev" of=/tmp/got bs=4096 skip=9 count=1 iflag=direct \
		2>/dev/null || fail "reading block 9"
	cmp -s /tmp/got /tmp/b && fail "the unflushed write survived the cut"
	unload
}

run_test same_files test_same_files
[ -e $LD ] || mount -t securityfs none /sys/kernel/security 2>/dev/null
if [ -e $LD ]; then
	run_test lockdown test_lockdown
else
	report "SKIP lockdown (no lockdown LSM in this kernel)"
fi
