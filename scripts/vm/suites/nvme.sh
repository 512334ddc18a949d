# SPDX-License-Identifier: GPL-2.0
# frontend=nvme: the kernel's nvme driver binds to vflash's virtual
# controller; block I/O, nvme-cli and fio work; unload is clean.
# vmtest-mem: 4G
# vmtest-timeout: 400

DEV=/dev/nvme0n1

wait_for() {
	local n=0

	while [ ! -e "$1" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -e "$1" ] || fail "$1 did not appear"
}

# fio_verify ENGINE RW BS IODEPTH SIZE: I/O with crc32c verification
fio_verify() {
	fio --name=verify --filename=$DEV --ioengine="$1" --direct=1 --rw="$2" \
		--bs="$3" --iodepth="$4" --size="$5" --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio $*"; }
}

# expect_zeros LBA COUNT WHAT: COUNT 4 KiB blocks from LBA read as zeros
expect_zeros() {
	dd if=$DEV of=/tmp/got bs=4096 skip="$1" count="$2" iflag=direct 2>/dev/null ||
		fail "reading $3"
	dd if=/dev/zero of=/tmp/zeros bs=4096 count="$2" 2>/dev/null
	cmp /tmp/got /tmp/zeros || fail "$3 do not read as zeros"
}

test_binds() {
	load frontend=nvme size=256M
	wait_for $DEV
	expect_match "$(cat /sys/class/nvme/nvme0/model)" '^vflash' model
	expect_eq "$(cat /sys/block/nvme0n1/size)" $((256 << 11)) "size in sectors"
	expect_eq "$(cat /sys/block/nvme0n1/queue/logical_block_size)" 4096 "LBA size"
	expect_eq "$(cat /sys/class/vflash/vflash0/frontend)" nvme frontend
	nvme list
	nvme id-ctrl /dev/nvme0 | grep -E '^(mn|sn|mdts|oncs|vwc) '
	unload
	[ ! -e $DEV ] || fail "$DEV still there"
	expect_gone
}

test_data_round_trip() {
	load frontend=nvme size=256M
	wait_for $DEV
	dd if=/dev/urandom of=/tmp/pattern bs=4096 count=300 2>/dev/null
	dd if=/tmp/pattern of=$DEV bs=4096 seek=1000 oflag=direct conv=fsync 2>/dev/null ||
		fail "write"
	dd if=$DEV of=/tmp/back bs=4096 skip=1000 count=300 iflag=direct 2>/dev/null ||
		fail "read"
	cmp /tmp/pattern /tmp/back || fail "data differs"
	# Never-written blocks read as zeros.
	expect_zeros 20000 8 "unwritten blocks"
	[ "$(cat /sys/class/vflash/vflash0/stats/host_write_pages)" -ge 300 ] ||
		fail "backend did not count the writes"
	unload
}

test_fio_verify() {
	load frontend=nvme size=256M
	wait_for $DEV
	fio_verify libaio randwrite 4k 16 64M
	unload
}

test_bad_commands_get_nvme_status() {
	load frontend=nvme size=64M
	wait_for $DEV
	# 64 MiB = 16384 blocks: block 16384 is one past the end.
	out=$(nvme read $DEV --start-block=16384 --block-count=0 \
		--data-size=4096 --data=/dev/null 2>&1) && fail "read past the end: $out"
	echo "$out"
	expect_match "$out" 'LBA_RANGE|LBA Out of Range' "past-the-end read"
	out=$(nvme read $DEV --start-block=16383 --block-count=1 \
		--data-size=8192 --data=/dev/null 2>&1) && fail "read across the end: $out"
	expect_match "$out" 'LBA_RANGE|LBA Out of Range' "read across the end"
	out=$(nvme io-passthru $DEV --opcode=0x7f --namespace-id=1 2>&1) &&
		fail "opcode 0x7f accepted: $out"
	expect_match "$out" 'INVALID_OPCODE|Invalid Command Opcode' "unknown I/O opcode"
	out=$(nvme admin-passthru /dev/nvme0 --opcode=0xc5 2>&1) &&
		fail "admin opcode 0xc5 accepted: $out"
	expect_match "$out" 'INVALID_OPCODE|Invalid Command Opcode' "unknown admin opcode"
	out=$(nvme admin-passthru /dev/nvme0 --opcode=0x06 --namespace-id=7 \
		--cdw10=0 --data-len=4096 --read 2>&1) &&
		fail "identify of namespace 7 accepted: $out"
	expect_match "$out" 'INVALID_NS|Invalid Namespace' "bad namespace"
	# The device still works.
	dd if=$DEV of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null ||
		fail "read after the bad commands"
	unload
}

test_smart_log_counts() {
	load frontend=nvme size=64M
	wait_for $DEV
	dd if=/dev/zero of=$DEV bs=1M count=16 oflag=direct 2>/dev/null
	nvme smart-log /dev/nvme0 | tee /tmp/smart
	grep -Eiq 'data.units.written[^:]*: *[1-9]' /tmp/smart ||
		fail "SMART data units written is zero after 16 MiB"
	# Commands, not pages: MDTS is 512 KiB, so 16 MiB takes at least 32
	# and far fewer than its 4096 pages.
	n=$(sed -n 's/^host_write_commands[^:]*: *\([0-9]*\).*/\1/p' /tmp/smart)
	[ "${n:-0}" -ge 32 ] && [ "$n" -lt 4096 ] ||
		fail "SMART host write commands is '$n'"
	unload
}

test_discard_and_zeroes() {
	load frontend=nvme size=64M
	wait_for $DEV
	dd if=/dev/urandom of=$DEV bs=1M count=4 oflag=direct 2>/dev/null
	blkdiscard -o 0 -l $((1 << 20)) $DEV || fail "blkdiscard"
	[ "$(cat /sys/class/vflash/vflash0/stats/host_trim_pages)" -ge 256 ] ||
		fail "discard did not reach the backend"
	expect_zeros 0 256 "discarded blocks"
	unload
}

test_filesystem() {
	load frontend=nvme size=256M
	wait_for $DEV
	mke2fs -b 4096 $DEV >/dev/null || fail "mkfs"
	mount -t ext4 $DEV /mnt 2>/dev/null || mount -t ext2 $DEV /mnt || fail "mount"
	dd if=/dev/urandom of=/mnt/f bs=1M count=8 2>/dev/null
	sha=$(sha256sum /mnt/f | cut -d' ' -f1)
	umount /mnt
	echo 3 >/proc/sys/vm/drop_caches
	mount -t ext4 $DEV /mnt 2>/dev/null || mount -t ext2 $DEV /mnt || fail "remount"
	expect_eq "$(sha256sum /mnt/f | cut -d' ' -f1)" "$sha" "file after remount"
	umount /mnt
	unload
}

test_io_uring() {
	load frontend=nvme size=128M
	wait_for $DEV
	fio_verify io_uring randrw 4k 32 32M
	unload
}

test_load_unload_cycles() {
	i=0
	while [ $i -lt 10 ]; do
		load frontend=nvme size=64M
		wait_for $DEV
		dd if=/dev/urandom of=$DEV bs=64k count=16 oflag=direct 2>/dev/null ||
			fail "write in cycle $i"
		unload
		[ ! -e $DEV ] || fail "$DEV left after cycle $i"
		i=$((i + 1))
	done
	expect_gone
}

test_every_profile() {
	for p in qlc-hybrid znand cylon tlc; do
		load frontend=nvme size=64M profile=$p
		wait_for $DEV
		expect_match "$(cat /sys/class/nvme/nvme0/model)" "^vflash $p" "model of $p"
		fio_verify libaio randwrite 16k 8 8M
		unload
	done
}

# Every policy kind and several knobs change while fio writes and
# verifies; no data may be lost and the FTL must stay consistent.
test_switch_under_load() {
	S=/sys/class/vflash/vflash0
	load frontend=nvme size=64M
	wait_for $DEV
	fio --name=load --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=16 --size=48M --loops=3 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse >/tmp/fio.out 2>&1 &
	pid=$!
	n=0
	while kill -0 $pid 2>/dev/null; do
		for kind in gc placement migration maintenance; do
			for name in $(tr -d '[]' <$S/policy/$kind); do
				echo "$name" >$S/policy/$kind || fail "switch $kind to $name"
			done
		done
		echo 1000 >$S/config/host_xfer_ns
		echo 20 >$S/config/gc_high_pct
		echo 1219 >$S/config/host_xfer_ns
		echo 15 >$S/config/gc_high_pct
		n=$((n + 1))
		sleep 0.2
	done
	wait $pid || { cat /tmp/fio.out; fail "fio under switching"; }
	echo "switched every policy $n times under load"
	[ $n -ge 2 ] || fail "fio ended before the switching ran"
	[ "$(cat $S/stats/gc_runs)" -gt 0 ] || fail "no GC ran under load"
	unload
}

# rmmod with a mounted filesystem detaches the disk like a hot unplug:
# the filesystem gets I/O errors, nothing crashes, and all can be undone.
test_rmmod_while_mounted() {
	load frontend=nvme size=128M
	wait_for $DEV
	mke2fs -b 4096 $DEV >/dev/null || fail "mkfs"
	mount -t ext4 $DEV /mnt || fail "mount"
	echo hello >/mnt/x
	sync
	rmmod vflash || fail "rmmod with a mounted filesystem"
	[ ! -e $DEV ] || fail "$DEV still there"
	if cat /mnt/x 2>/dev/null; then
		fail "a detached disk still served a read"
	fi
	umount /mnt || fail "umount of the detached filesystem"
	expect_gone
	load frontend=nvme size=64M
	wait_for $DEV
	unload
}

# Regression: the namespace descriptor list once carried the low bytes of
# the namespace size, so a size whose LBA count has a non-zero low byte
# (4097 = 0x1001) made the driver see a bogus descriptor.
test_odd_size_namespace() {
	load frontend=nvme size=16388K
	wait_for $DEV
	expect_eq "$(cat /sys/block/nvme0n1/size)" $((4097 * 8)) "size in sectors"
	nvme ns-descs $DEV | tee /tmp/descs
	grep -qi nguid /tmp/descs || fail "no NGUID descriptor"
	unload
}

run_test binds test_binds
run_test odd_size_namespace test_odd_size_namespace
run_test data_round_trip test_data_round_trip
run_test fio_verify test_fio_verify
run_test bad_commands_get_nvme_status test_bad_commands_get_nvme_status
run_test smart_log_counts test_smart_log_counts
run_test discard_and_zeroes test_discard_and_zeroes
run_test filesystem test_filesystem
run_test io_uring test_io_uring
run_test load_unload_cycles test_load_unload_cycles
run_test every_profile test_every_profile
run_test switch_under_load test_switch_under_load
run_test rmmod_while_mounted test_rmmod_while_mounted
