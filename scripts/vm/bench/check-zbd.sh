# SPDX-License-Identifier: GPL-2.0
# `make check-zbd FIO_SRC=DIR BLKTESTS=DIR`: two outside conformance
# suites for zoned block devices on vflash's zoned namespace, in the
# project's VM: fio's t/zbd/test-zbd-support (at the tag of the guest's
# fio) and blktests' zbd group with the namespace as TEST_DEVS. Neither
# is packaged by Debian 12; scripts/bench/zbd-prep.sh (the prep step)
# takes them from the checkouts given. Not part of `make check` (it
# lives outside scripts/vm/suites/ and needs the checkouts).
# Each test of each suite is a PASS, FAIL or SKIP line of its own
# ("zbd-fio-NN", "zbd-blktests-zbd/NNN"), the suites' own output goes to
# the console and to the files fio-zbd.log and blktests.log.
# vmtest-mem: 2G
# vmtest-smp: 2
# vmtest-prep: scripts/bench/zbd-prep.sh
# vmtest-timeout: 3000

ZDEV=/dev/nvme0n1
# the device: 1 GiB of 4 MiB zones (256: fio's tests want up to 130), 8
# open and 12 active at most, so that fio's tests of open-zone limits
# have a limit to meet
ZBD_LOAD="frontend=nvme size=1G zoned=1 zone_size=4M zone_max_open=8"

# zbd_load: vflash with the zoned namespace (and /dev/fd, for bash's
# process substitution, which both suites use)
zbd_load() {
	[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
	# shellcheck disable=SC2086 # one word per parameter
	load $ZBD_LOAD
	wait_for $ZDEV
}

# fio_zbd: test-zbd-support -r (every zone reset first) on the namespace;
# a line per test
fio_zbd() {
	local line n st ran=0 rc

	[ -x /zbd/fio/t/zbd/test-zbd-support ] || { report "SKIP zbd-fio (no FIO_SRC checkout given)"; return 0; }
	zbd_load
	report "BENCH fio t/zbd $(cat /zbd/fio/version), vflash $ZBD_LOAD"
	cd /tmp || return 1
	rc=0
	# shellcheck disable=SC2046 # the prep's FIO_ZBD_ARGS: one word each
	PATH=/zbd/bin:$PATH bash /zbd/fio/t/zbd/test-zbd-support -r $(cat /zbd/fio/args) $ZDEV \
		>/tmp/fio-zbd.log 2>&1 || rc=$?
	echo "test-zbd-support exit $rc" >>/tmp/fio-zbd.log
	cat /tmp/fio-zbd.log
	# each failed test's own log (fio's output) after the summary
	for line in $(sed 's/\x1b\[[0-9;]*m//g' /tmp/fio-zbd.log |
		sed -n 's/^Running test \([0-9]*\) \.\.\. FAIL.*/\1/p'); do
		echo "=== test $line: /zbd/fio/t/zbd/test-zbd-support.log.$line"
		tail -n 60 "/zbd/fio/t/zbd/test-zbd-support.log.$line"
	done >/tmp/fio-zbd-failed.log 2>&1
	cat /tmp/fio-zbd-failed.log >>/tmp/fio-zbd.log
	while IFS= read -r line; do
		case $line in
		"Running test "*)
			n=${line#Running test }
			n=${n%% *}
			st=${line##*... }
			st=${st%%[ ]*}
			# colour codes of the script's terminal output
			st=$(echo "$st" | sed 's/\x1b\[[0-9;]*m//g')
			ran=$((ran + 1))
			case $st in
			PASS | FAIL | SKIP) report "$st zbd-fio-$n" ;;
			*) report "FAIL zbd-fio-$n (no result: $st)" ;;
			esac
			;;
		esac
	done </tmp/fio-zbd.log
	save_file fio-zbd.log /tmp/fio-zbd.log
	unload
	[ "$ran" -gt 0 ] || fail "test-zbd-support ran no test"
}

# blktests_zbd: ./check zbd with the namespace as its test device; a line
# per test (blktests' own status: pass, fail, not run)
blktests_zbd() {
	local t st line ran=0 rc

	[ -x /zbd/blktests/check ] || { report "SKIP zbd-blktests (no BLKTESTS checkout given)"; return 0; }
	zbd_load
	report "BENCH blktests $(cat /zbd/blktests/version), vflash $ZBD_LOAD"
	cd /zbd/blktests || return 1
	echo "TEST_DEVS=($ZDEV)" >config
	rc=0
	# zbd/012 runs on a scsi_debug device of its own (not TEST_DEVS), and
	# the VM has no scsi_debug module: without it the test fails
	report "SKIP zbd-blktests-zbd/012 (its device is scsi_debug's, which the VM does not carry)"
	PATH=/zbd/bin:$PATH bash ./check -x zbd/012 zbd >/tmp/blktests.log 2>&1 || rc=$?
	echo "check exit $rc" >>/tmp/blktests.log
	cat /tmp/blktests.log
	sed 's/\x1b\[[0-9;]*m//g; s/\r/\n/g' /tmp/blktests.log >/tmp/blktests.txt
	# "zbd/001 (nvme0n1) (sysfs and ioctl)  [passed]" and the like
	while IFS= read -r line; do
		case $line in
		zbd/[0-9]*)
			t=${line%% *}
			ran=$((ran + 1))
			st=$(echo "$line" | sed -n 's/.*\[\([a-z ]*\)\]$/\1/p')
			case $st in
			passed) report "PASS zbd-blktests-$t" ;;
			"not run") report "SKIP zbd-blktests-$t ($(echo "$line" | sed 's/  */ /g'))" ;;
			failed) report "FAIL zbd-blktests-$t" ;;
			esac
			;;
		esac
	done </tmp/blktests.txt
	tar -c -C /zbd/blktests results 2>/dev/null | gzip >/tmp/blktests-results.tgz &&
		save_file blktests-results.tgz /tmp/blktests-results.tgz
	save_file blktests.log /tmp/blktests.log
	unload
	[ "$ran" -gt 0 ] || fail "blktests ran no test"
}

run_test zbd-fio fio_zbd
run_test zbd-blktests blktests_zbd
