# SPDX-License-Identifier: GPL-2.0
# frontend=nvme: the controller's lifecycle under the host's hand:
# controller reset and PCI remove + rescan during fio with verify, resets
# and clean shutdowns during Copy, Verify and Write Uncorrectable (4 KiB
# LBAs store=full, 512-byte store=sparse), a
# controller disable during a whole-device Dataset Management, Bus Master
# cleared through the config space, driver unbind and bind.
# vmtest-mem: 2G
# vmtest-timeout: 360

DEV=/dev/nvme0n1
CTRL=/sys/class/nvme/nvme0
# Bounds on how long a step may take before it counts as hung are three
# times longer under the debug kernel (KASAN, lockdep). They are hang
# detectors, not timing checks: a reset usually takes well under a
# second, but with another VM beside this one on a 2-core host (make
# check runs two) the guest can be stalled for seconds.
SLOW=1
if debug_kernel; then
	SLOW=3
fi

# bdf: the PCI address of our function, from the controller's device link
bdf() {
	basename "$(readlink -f $CTRL/device)"
}

# wait_live SECONDS: the controller is live and its namespace readable
# within SECONDS (the driver waits CAP.TO, 10 s, before giving up on a
# controller that does not become ready)
wait_live() {
	local n=0 max=$(($1 * 10 * SLOW))

	while [ $n -lt $max ]; do
		if [ "$(cat $CTRL/state 2>/dev/null)" = live ] && [ -b $DEV ] &&
			dd if=$DEV of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null; then
			echo "live after $((n * 100)) ms"
			return 0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	fail "controller not live within $(($1 * SLOW)) s (state: $(cat $CTRL/state 2>/dev/null || echo gone))"
}

# fio_job RW OFFSET SIZE [ARGS...]: crc32c-tagged I/O of SIZE at OFFSET;
# the same job with --verify_only checks what the first one wrote (never
# a regular file in place of a device that went away)
fio_job() {
	local rw=$1 off=$2 size=$3
	shift 3
	fio --name=job --filename=$DEV --ioengine=libaio --direct=1 --rw="$rw" \
		--bs=4k --iodepth=16 --offset="$off" --size="$size" \
		--randseed=1234 --verify=crc32c --verify_fatal=1 \
		--allow_file_create=0 \
		--output-format=terse "$@"
}

# reset_ctrl SECONDS: the driver's reset (CC.EN 1 -> 0 -> 1, queues
# deleted and re-created, I/O requeued) through sysfs, which returns when
# the controller is live again: it must, within SECONDS
reset_ctrl() {
	local pid n=0

	echo 1 >$CTRL/reset_controller &
	pid=$!
	while kill -0 $pid 2>/dev/null && [ $n -lt $(($1 * 10 * SLOW)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	kill -0 $pid 2>/dev/null && fail "reset still running after $(($1 * SLOW)) s"
	wait $pid || fail "reset_controller failed"
	wait_live 1
}

# Resets in the middle of a verified random write by two jobs at queue
# depth 32 each: the controller is back within a few seconds every time,
# fio finishes without an error, every block it wrote verifies, and no
# completion counts as early.
test_reset_during_fio() {
	local pid i size=16M

	# Under the debug kernel fio writes 4 KiB at about 1.3 MiB/s: its
	# 2 x 16 MiB ran some 14 s past the last reset (6 s in); 2 x 8 MiB
	# still outlast the resets.
	! debug_kernel || size=8M
	load frontend=nvme size=128M
	wait_for $DEV
	fio_job randwrite 0 $size --do_verify=0 --numjobs=2 \
		--offset_increment=16M --iodepth=32 >/tmp/fio.out 2>&1 &
	pid=$!
	for i in 1 2 3 4; do
		sleep 0.4
		kill -0 $pid 2>/dev/null || echo "(fio had ended before reset $i)"
		echo "reset $i"
		reset_ctrl 20
	done
	wait $pid || { cat /tmp/fio.out; fail "fio across resets"; }
	fio_job randwrite 0 $size --verify_only --numjobs=2 \
		--offset_increment=16M >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "verify after resets"; }
	# The driver deletes its queues with commands in flight: those are
	# posted before their due time on purpose, not early completions.
	[ "$(cat /sys/class/vflash/vflash0/stats/early_completions)" = 0 ] ||
		fail "early_completions: $(cat /sys/class/vflash/vflash0/stats/early_completions)"
	unload
	expect_gone
}

# copy_load N BPP: N rounds of one Copy (with FUA every other round) of
# a 16-page source slot to a destination slot of its own, a Verify of the
# source and a Write Uncorrectable of one page of its own, by nvme-cli;
# a command that succeeds is logged to /tmp/acked (what the host saw
# acknowledged), one that fails (the reset or unbind in its way) is not.
copy_load() {
	local i n=$1 bpp=$2 fua after=0

	: >/tmp/acked
	for i in $(seq 0 $((n - 1))); do
		# A light run: two rounds once the resets and shutdowns are
		# over (/tmp/cycles.done) are enough: those are acknowledged.
		if [ -e /tmp/cycles.done ]; then
			after=$((after + 1))
			if light_run && [ $after -gt 2 ]; then
				break
			fi
		fi
		echo $((i + 1)) >/tmp/rounds
		fua=
		[ $((i % 2)) = 0 ] || fua=--force-unit-access
		# shellcheck disable=SC2086 # fua: a word or none
		nvme copy $DEV --sdlba=$(((1024 + 16 * i) * bpp)) \
			--slbs=$((16 * (i % 8) * bpp)) --blocks=$((16 * bpp - 1)) \
			$fua >/dev/null 2>&1 && echo "copy $i" >>/tmp/acked
		nvme verify $DEV --start-block=$((16 * (i % 8) * bpp)) \
			--block-count=$((16 * bpp - 1)) >/dev/null 2>&1 &&
			echo "verify $i" >>/tmp/acked
		nvme write-uncor $DEV --start-block=$(((4096 + i) * bpp)) \
			--block-count=$((bpp - 1)) >/dev/null 2>&1 &&
			echo "uncor $i" >>/tmp/acked
	done
}

# Controller resets and clean shutdowns (unbind, bind) while nvme-cli
# runs Copy, Verify and Write Uncorrectable (LBAs of LBA_SIZE bytes,
# store=STORE): nothing acknowledged is lost (every acknowledged Copy's
# destination holds its source, every acknowledged mark still fails a
# read, no Verify of the never-marked sources failed, or was acknowledged
# after failing), no command completes twice (the driver would say
# "invalid id ... completed on queue"), the pages around the marks read.
test_copy_uncor() {
	local lbs=$1 bpp=$(($1 == 512 ? 8 : 1)) b i n pid cycles
	local acked_copies=0 acked_marks=0

	# A light run (lib.sh): at most 16 rounds and one reset and one
	# shutdown, and no more than two rounds after them (copy_load); under
	# the debug kernel at most 8 rounds (its 16 took 70 s; the cycle
	# comes in the first seconds, so rounds after it are acknowledged
	# anyway).
	n=$(light 40 16)
	! debug_kernel || n=8
	cycles=$(light 3 1)

	load frontend=nvme size=64M lba_size="$lbs" store="$2"
	wait_for $DEV
	b=$(bdf)
	# Sources: pages 0..127, random
	dd if=/dev/urandom of=/tmp/src bs=4096 count=128 2>/dev/null
	dd if=/tmp/src of=$DEV bs=4096 oflag=direct 2>/dev/null || fail "sources"
	dmesg -c >/dev/null
	rm -f /tmp/cycles.done
	echo 0 >/tmp/rounds
	copy_load $n $bpp &
	pid=$!
	for i in $(seq "$cycles"); do
		sleep 0.5
		echo "reset $i"
		reset_ctrl 20
		sleep 0.3
		echo "shutdown $i"
		echo "$b" >/sys/bus/pci/drivers/nvme/unbind
		echo "$b" >/sys/bus/pci/drivers/nvme/bind
		wait_live 15
	done
	touch /tmp/cycles.done
	wait $pid
	echo "acknowledged: $(grep -c copy /tmp/acked) copies, $(grep -c verify /tmp/acked) verifies, $(grep -c uncor /tmp/acked) marks of $(cat /tmp/rounds) rounds (at most $n)"
	for i in $(seq 0 $(($(cat /tmp/rounds) - 1))); do
		if grep -qx "copy $i" /tmp/acked; then
			dd if=$DEV of=/tmp/dst bs=4096 skip=$((1024 + 16 * i)) count=16 \
				iflag=direct 2>/dev/null || fail "reading copy $i"
			dd if=/tmp/src of=/tmp/want bs=4096 skip=$((16 * (i % 8))) count=16 \
				2>/dev/null
			cmp /tmp/dst /tmp/want || fail "acknowledged copy $i lost"
			acked_copies=$((acked_copies + 1))
		fi
		if grep -qx "uncor $i" /tmp/acked; then
			! dd if=$DEV of=/dev/null bs=4096 skip=$((4096 + i)) count=1 \
				iflag=direct 2>/dev/null || fail "acknowledged mark $i lost"
			acked_marks=$((acked_marks + 1))
		fi
	done
	[ "$acked_copies" -gt 0 ] || fail "no Copy acknowledged"
	[ "$acked_marks" -gt 0 ] || fail "no Write Uncorrectable acknowledged"
	# the sources were never marked: every Verify of them succeeds now
	nvme verify $DEV --start-block=0 --block-count=$((128 * bpp - 1)) \
		>/dev/null || fail "verify of the sources"
	# the pages beside the marks read
	dd if=$DEV of=/dev/null bs=4096 skip=$((4096 + n)) count=16 iflag=direct \
		2>/dev/null || fail "a page beside the marks"
	! dmesg | grep -q "completed on queue" || fail "a command completed twice"
	unload
	expect_gone
}

# PCI remove while fio writes, then rescan: the function comes back
# with the same BAR, the driver binds and brings the controller up
# within a few seconds, what was written and acknowledged before the
# remove verifies, new I/O verifies, and the module unloads cleanly.
test_remove_rescan_during_fio() {
	local pid b sz

	# what is verified before and after: 8 MiB, 4 MiB on a light run
	sz=$(light 8M 4M)
	load frontend=nvme size=128M
	wait_for $DEV
	fio_job write 0 "$sz" --do_verify=0 >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio before remove"; }
	b=$(bdf)
	fio_job randwrite 32M 32M --do_verify=0 --time_based --runtime=30 \
		>/tmp/fio2.out 2>&1 &
	pid=$!
	sleep 1
	echo 1 >/sys/bus/pci/devices/"$b"/remove
	# fio fails once its device is gone: that is expected.
	wait $pid && fail "fio survived the removal of its device"
	[ ! -e /sys/bus/pci/devices/"$b" ] || fail "$b still there after remove"
	echo 1 >/sys/bus/pci/rescan
	wait_for /sys/bus/pci/devices/"$b"
	wait_live 15
	grep -q "$b" /proc/iomem && fail "BAR0 claimed after rescan"
	fio_job write 0 "$sz" --verify_only >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "data written before the remove"; }
	fio_job randwrite 64M "$sz" >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio after rescan"; }
	# Twice more, idle: each rescan finds the function as the first did.
	for i in 1 2; do
		echo 1 >/sys/bus/pci/devices/"$b"/remove
		echo 1 >/sys/bus/pci/rescan
		wait_live 15
	done
	fio_job write 0 "$sz" --verify_only >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "data after three rescans"; }
	unload
	expect_gone
}

# The host disables the controller while one CPU's Dataset Management
# deallocates the whole namespace 256 times over and another CPU reads:
# vflash acknowledges the disable (CSTS.RDY = 0) well within CAP.TO, so
# the driver's reset succeeds instead of giving the controller up; the
# read completes or is retried, never lost.
test_disable_during_dsm() {
	local blocks slbs nlbs i pid_dsm pid_rd reads=2000

	# The read only has to be in flight at the reset: under the debug
	# kernel its 2000 x 64 KiB went on some 15 s after it.
	! debug_kernel || reads=500
	load frontend=nvme size=512M
	wait_for $DEV
	blocks=$(($(cat /sys/block/nvme0n1/size) / 8))
	fio_job write 0 8M --do_verify=0 >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio before DSM"; }
	slbs=0
	nlbs=$blocks
	for i in $(seq 2 256); do
		slbs="$slbs,0"
		nlbs="$nlbs,$blocks"
	done
	echo "256 ranges of $blocks blocks"
	taskset 1 nvme dsm $DEV --namespace-id=1 --ad --slbs=$slbs \
		--blocks=$nlbs >/tmp/dsm.out 2>&1 &
	pid_dsm=$!
	taskset 2 dd if=$DEV of=/dev/null bs=64k count=$reads iflag=direct \
		2>/dev/null &
	pid_rd=$!
	sleep 0.2
	kill -0 $pid_rd 2>/dev/null || echo "(the read had ended before the reset)"
	reset_ctrl 30
	wait $pid_rd || echo "read ended with an error (cancelled by the reset)"
	wait $pid_dsm || echo "dsm: $(cat /tmp/dsm.out)"
	dmesg | grep -q "Device not ready" && fail "the driver gave up on the disable"
	fio_job randwrite 16M "$(light 8M 4M)" >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio after the disable"; }
	unload
	expect_gone
}

# cfg_byte OFFSET [VALUE]: read (or write) one byte of our config space
# through sysfs, as setpci would
cfg_byte() {
	local f=/sys/bus/pci/devices/$(bdf)/config

	if [ $# -eq 1 ]; then
		dd if="$f" bs=1 skip="$1" count=1 2>/dev/null | od -An -tu1 | tr -d ' '
	else
		printf "\\$(printf %03o "$2")" | dd of="$f" bs=1 seek="$1" \
			count=1 conv=notrunc 2>/dev/null
	fi
}

# Bus Master Enable cleared in the config space: no command is fetched
# and no completion posted while it is off (a read stays outstanding);
# set again, the controller goes on where it stopped.
test_bus_master_off() {
	local cmd pid

	load frontend=nvme size=64M
	wait_for $DEV
	fio_job write 0 4M --do_verify=0 >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio before"; }
	dmesg -c >/dev/null
	cmd=$(cfg_byte 4)
	expect_eq $((cmd & 4)) 4 "Bus Master after probe"
	cfg_byte 4 $((cmd & ~4))
	expect_eq "$(cfg_byte 4)" $((cmd & ~4)) "command register"
	dd if=$DEV of=/tmp/blk bs=4096 count=1 iflag=direct 2>/dev/null &
	pid=$!
	sleep 1
	kill -0 $pid 2>/dev/null || fail "a read completed with Bus Master off"
	cfg_byte 4 "$cmd"
	wait $pid || fail "the read after Bus Master came back"
	fio_job write 0 4M --verify_only >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "verify after Bus Master off and on"; }
	unload
	expect_gone
}

# The nvme driver unbinds (freeing its MSI-X vectors and their devres
# data) and binds again, between and during reads: interrupts keep
# working for each new binding and nothing is raised on freed vectors.
test_unbind_bind() {
	local b i pid

	load frontend=nvme size=64M
	wait_for $DEV
	b=$(bdf)
	fio_job write 0 4M --do_verify=0 >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio before"; }
	for i in 1 2 3 4; do
		dd if=$DEV of=/dev/null bs=4k count=100000 iflag=direct \
			2>/dev/null &
		pid=$!
		sleep 0.3
		echo "$b" >/sys/bus/pci/drivers/nvme/unbind
		wait $pid || true
		echo "$b" >/sys/bus/pci/drivers/nvme/bind
		wait_live 15
	done
	fio_job write 0 4M --verify_only >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "verify after unbind and bind"; }
	unload
	expect_gone
}

run_test reset_during_fio test_reset_during_fio
run_test_full_debug copy_uncor_across_resets_4k "nvme's uncor_verify_copy, and reset_during_fio" test_copy_uncor 4096 full
run_test_full_debug copy_uncor_across_resets_512 "nvme's uncor_verify_copy, and reset_during_fio" test_copy_uncor 512 sparse
run_test_full_debug remove_rescan_during_fio "reset_during_fio and unbind_bind" test_remove_rescan_during_fio
run_test disable_during_dsm test_disable_during_dsm
run_test bus_master_off test_bus_master_off
run_test unbind_bind test_unbind_bind
