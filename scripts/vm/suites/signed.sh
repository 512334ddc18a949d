# SPDX-License-Identifier: GPL-2.0
# Secure Boot as a user has it (issue 40; docs/install.md, "Secure Boot
# and lockdown"): the project's debug kernel, booted with
# lockdown=integrity (what Secure Boot sets on Debian and Ubuntu), loads
# only signed modules. make check-debug signs its vflash.ko with the key
# that kernel's build made (certs/signing_key.pem) and keeps the unsigned
# build beside it. Here: lockdown is on from the boot, the unsigned
# module is refused with the kernel's lockdown line, the signed one is
# installed and loaded with modprobe, and fault rules are armed, the
# power cut and what survived checked through sysfs alone (crashcheck,
# whose rules are sysfs's), while debugfs's read-only copy stays readable
# and refuses writes. (No kmemleak scan at the end: lockdown refuses the
# debugfs write that starts it.)
# vmtest-mem: 1G
# vmtest-timeout: 240
# vmtest-append: lockdown=integrity vflash_suite_alone=signed
# vmtest-debug-only: Debian's kernel loads only modules signed by Debian's key or an enrolled MOK (docs/install.md); the debug kernel has the project's own key

SYS=/sys/class/vflash/vflash0
D=/sys/kernel/debug/vflash/vflash0/faults

test_unsigned_refused() {
	mount | grep -q ' /sys/kernel/security ' ||
		mount -t securityfs none /sys/kernel/security
	expect_eq "$(cat /sys/kernel/security/lockdown 2>/dev/null)" \
		"none [integrity] confidentiality" "the lockdown state"
	expect_match "$(dmesg)" "Kernel is locked down from command line" \
		"lockdown from the command line"
	[ -f /vflash/vflash-unsigned.ko ] || fail "no unsigned build in the initramfs"
	dmesg -c >/dev/null
	need_configfs
	insmod /vflash/vflash-unsigned.ko frontend=nvme size=16M 2>/dev/null &&
		fail "lockdown loaded an unsigned module"
	[ ! -e /sys/module/vflash ] || fail "vflash is loaded"
	expect_match "$(dmesg)" "Lockdown: insmod: unsigned module loading is restricted" \
		"the kernel's lockdown line"
}

test_modprobe_signed() {
	local dev out rc=0

	tail -c 28 "$KO" | grep -q '~Module signature appended~' ||
		fail "$KO carries no signature"
	mkdir -p "/lib/modules/$(uname -r)/extra"
	cp "$KO" "/lib/modules/$(uname -r)/extra/vflash.ko"
	/sbin/depmod -a
	need_configfs
	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout
	modprobe vflash frontend=nvme size=16M profile=tlc ||
		fail "modprobe vflash (signed) under lockdown"
	expect_eq "$(cat /sys/module/vflash/taint 2>/dev/null)" O "taint: out of tree only (not E: signature verified)"
	dev=$(wait_ns)
	[ -n "$dev" ] || fail "no namespace"
	mount | grep -q ' /sys/kernel/debug ' ||
		mount -t debugfs none /sys/kernel/debug
	# debugfs's read-only copy: readable under lockdown, never writable
	expect_eq "$(cat $D/read_error/armed)" 0 "debugfs read_error/armed"
	echo 1 >$D/read_error/armed 2>/dev/null && fail "debugfs took a write"
	# arm, cut, check: crashcheck sets its rules in sysfs
	crashcheck --cuts 3 --ops 8 --threads 8 >/tmp/cc.out 2>&1 || rc=$?
	grep -v '^round' /tmp/cc.out | tail -n 5
	expect_eq "$rc" 0 "crashcheck's exit status under lockdown"
	out=$(tail -n 1 /tmp/cc.out)
	expect_match "$out" '^crashcheck: cuts 3, LBAs checked [1-9][0-9]*, violations 0$' "crashcheck's last line"
	grep -q '^crashcheck: taken back [1-9]' /tmp/cc.out || fail "nothing taken back"
	[ "$(cat $SYS/stats/fault_power_cuts)" -ge 3 ] || fail "fewer than 3 cuts counted"
	modprobe -r vflash || fail "modprobe -r vflash"
	expect_gone
}

if debug_kernel; then
	run_test unsigned_refused test_unsigned_refused
	run_test modprobe_signed test_modprobe_signed
else
	# named on the command line under Debian's kernel
	for t in unsigned_refused modprobe_signed; do
		report "SKIP $t (Debian's kernel: vflash.ko is not signed with a key it trusts)"
	done
fi
