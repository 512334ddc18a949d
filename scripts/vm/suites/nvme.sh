# SPDX-License-Identifier: GPL-2.0
# frontend=nvme: the kernel's nvme driver binds to vflash's virtual
# controller; block I/O, nvme-cli and fio work; unload is clean.
# vmtest-mem: 4G
# vmtest-timeout: 600

DEV=/dev/nvme0n1
NG=/dev/ng0n1
SYS=/sys/class/vflash/vflash0
# e2fsprogs' programs by path: busybox's mke2fs (ext2 only) comes first.
MKFS_EXT4=/usr/sbin/mkfs.ext4
E2FSCK=/usr/sbin/e2fsck

# The namespace is ready and idle: the driver creates the generic
# device after add_disk(), which has scanned the partition table (the
# only I/O the kernel does on its own) by the time it returns.
wait_ready() {
	wait_for $DEV
	wait_for $NG
}

# json_after KEY: JSON_AFTER is what follows "KEY" and its colon (blanks
# skipped) on the next line holding them of the file the caller opened
# on descriptor 4; false when no line is left. The JSON helpers parse in
# the shell: under the debug kernel every process costs a tenth of a
# second or more, and smart_log_counts alone reads twenty values (sed
# and head for each, 32 s of guest time in all).
json_after() {
	local line v
	while IFS= read -r line <&4 || [ -n "$line" ]; do
		case $line in
		*"\"$1\""*) ;;
		*) line=; continue ;;
		esac
		v=${line##*\"$1\"}
		line=
		v=${v#"${v%%[! ]*}"}
		case $v in
		:*) v=${v#:} ;;
		*) continue ;;
		esac
		JSON_AFTER=${v#"${v%%[! ]*}"}
		return 0
	done
	return 1
}

# json_num FILE KEY: the number KEY has in nvme-cli's JSON output (large
# counters are printed as strings)
json_num() {
	local v
	exec 4<"$1"
	while json_after "$2"; do
		v=${JSON_AFTER#\"}
		v=${v%%[!0-9]*}
		[ -z "$v" ] || { echo "$v"; break; }
	done
	exec 4<&-
}

# json_str FILE KEY: the string KEY has, without the trailing padding
json_str() {
	local v
	exec 4<"$1"
	while json_after "$2"; do
		case $JSON_AFTER in
		\"*\"*) ;;
		*) continue ;;
		esac
		v=${JSON_AFTER#\"}
		v=${v%%\"*}
		echo "${v%"${v##*[! ]}"}"
		break
	done
	exec 4<&-
}

# smart_json FILE: the SMART / health log, as JSON, into FILE
smart_json() {
	nvme smart-log /dev/nvme0 -o json >"$1" || fail "nvme smart-log"
}

# data_units PAGES: SMART data units (thousands of 512-byte units,
# rounded up) for PAGES 4 KiB blocks
data_units() {
	echo $((($1 * 8 + 999) / 1000))
}

# nvme_io read|write START COUNT FILE: one NVMe command through nvme-cli
# (whose read writes into FILE without truncating it)
nvme_io() {
	[ "$1" = write ] || rm -f "$4"
	nvme "$1" $DEV --start-block="$2" --block-count=$(($3 - 1)) \
		--data-size=$(($3 * 4096)) --data="$4" >/dev/null ||
		fail "nvme $1 of $3 blocks at $2"
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

# What nvme-cli reports agrees with the device that was asked for: a
# 64 MiB namespace is 16384 LBAs of 4 KiB.
test_identify_fields() {
	local lbas=16384 fmt mn sn

	load frontend=nvme size=64M
	wait_ready
	nvme id-ns $DEV -o json >/tmp/idns || fail "nvme id-ns"
	cat /tmp/idns
	expect_eq "$(json_num /tmp/idns nsze)" $lbas "id-ns nsze"
	expect_eq "$(json_num /tmp/idns ncap)" $lbas "id-ns ncap"
	# The LBA format in use (FLBAS bits 3:0) has 2^12-byte data, no
	# metadata.
	fmt=$(($(json_num /tmp/idns flbas) & 15))
	nvme id-ns $DEV >/tmp/idns.txt || fail "nvme id-ns (normal)"
	grep '(in use)' /tmp/idns.txt
	expect_eq "$(grep -c '(in use)' /tmp/idns.txt)" 1 "LBA formats in use"
	expect_match "$(grep '(in use)' /tmp/idns.txt)" \
		"^lbaf +$fmt : ms:0 +lbads:12 " "the LBA format in use"

	nvme id-ctrl /dev/nvme0 -o json >/tmp/idctrl || fail "nvme id-ctrl"
	mn=$(json_str /tmp/idctrl mn)
	sn=$(json_str /tmp/idctrl sn)
	expect_eq "$mn" "vflash $(cat $SYS/profile)" "id-ctrl mn"
	expect_eq "$mn" "$(sed 's/ *$//' /sys/class/nvme/nvme0/model)" \
		"model in sysfs"
	expect_match "$sn" '^VFLASH[0-9]+$' "id-ctrl sn"
	expect_eq "$sn" "$(sed 's/ *$//' /sys/class/nvme/nvme0/serial)" \
		"serial in sysfs"
	# NN: the valid NSIDs of Namespace Management (docs/zns.md,
	# Namespaces); one namespace, over the whole device, is attached.
	expect_eq "$(json_num /tmp/idctrl nn)" 32 "id-ctrl nn"
	expect_eq "$(json_num /tmp/idctrl tnvmcap)" $((64 << 20)) "id-ctrl tnvmcap"
	expect_eq "$(json_num /tmp/idctrl unvmcap)" 0 "id-ctrl unvmcap"
	expect_eq "$(nvme list-ns /dev/nvme0 | wc -l)" 1 "active namespaces"
	# MDTS 7: 2^7 pages of 4 KiB, the 512 KiB the driver then uses.
	expect_eq "$(json_num /tmp/idctrl mdts)" 7 "id-ctrl mdts"
	expect_eq "$(cat /sys/block/nvme0n1/queue/max_hw_sectors_kb)" 512 \
		"largest transfer"
	# ONCS: Compare, Dataset Management, Write Zeroes.
	expect_eq "$(($(json_num /tmp/idctrl oncs) & 0xd))" $((0xd)) "id-ctrl oncs"

	nvme list -o json >/tmp/list || fail "nvme list"
	cat /tmp/list
	expect_eq "$(grep -c '"DevicePath"' /tmp/list)" 1 "namespaces listed"
	expect_eq "$(json_str /tmp/list DevicePath)" $DEV "nvme list device"
	expect_eq "$(json_str /tmp/list ModelNumber)" "$mn" "nvme list model"
	expect_eq "$(json_str /tmp/list SerialNumber)" "$sn" "nvme list serial"
	expect_eq "$(json_num /tmp/list MaximumLBA)" $lbas "nvme list LBAs"
	expect_eq "$(json_num /tmp/list SectorSize)" 4096 "nvme list sector size"
	expect_eq "$(json_num /tmp/list PhysicalSize)" $((64 << 20)) \
		"nvme list size"
	unload
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
	fio_verify libaio randwrite 4k 16 "$(light 64M 4M)"
	unload
}

test_bad_commands_get_nvme_status() {
	load frontend=nvme size=64M
	wait_for $DEV
	out=$(nvme io-passthru $DEV --opcode=0x7f --namespace-id=1 2>&1) &&
		fail "opcode 0x7f accepted: $out"
	expect_match "$out" 'INVALID_OPCODE|Invalid Command Opcode' "unknown I/O opcode"
	out=$(nvme admin-passthru /dev/nvme0 --opcode=0xc5 2>&1) &&
		fail "admin opcode 0xc5 accepted: $out"
	expect_match "$out" 'INVALID_OPCODE|Invalid Command Opcode' "unknown admin opcode"
	out=$(nvme admin-passthru /dev/nvme0 --opcode=0x06 --namespace-id=99 \
		--cdw10=0 --data-len=4096 --read 2>&1) &&
		fail "identify of namespace 99 (NN is 32) accepted: $out"
	expect_match "$out" 'INVALID_NS|Invalid Namespace' "bad namespace"
	# The device still works.
	dd if=$DEV of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null ||
		fail "read after the bad commands"
	unload
}

# Reads and writes past the end or across it get LBA Out of Range before
# any data moves, also where the end LBA overflows 64 bits; the device
# works on. (NVMeVirt's kernel crashes on the first one in this VM.)
test_out_of_range_lba() {
	local r w range op out

	load frontend=nvme size=64M
	wait_ready
	# 64 MiB = 16384 blocks, 0..16383. The last one holds a pattern.
	dd if=/dev/urandom of=/tmp/pattern bs=4096 count=2 2>/dev/null
	nvme_io write 16383 1 /tmp/pattern
	dd if=/dev/urandom of=/tmp/other bs=4096 count=2 2>/dev/null
	r=$(cat $SYS/stats/host_read_pages)
	w=$(cat $SYS/stats/host_write_pages)
	# START COUNT: one past the end, across it, far past it, and two
	# whose end wraps around 2^64.
	for range in "16384 1" "16383 2" "1000000 1" \
		"18446744073709551615 1" "18446744073709551615 2"; do
		set -- $range
		for op in read write; do
			out=$(nvme $op $DEV --start-block="$1" \
				--block-count=$(($2 - 1)) --data-size=$(($2 * 4096)) \
				--data=/tmp/other 2>&1) &&
				fail "nvme $op of $2 blocks at $1 succeeded: $out"
			echo "nvme $op of $2 blocks at $1: $out"
			expect_match "$out" 'LBA_RANGE|LBA Out of Range' \
				"nvme $op of $2 blocks at $1"
		done
	done
	expect_eq "$(cat $SYS/stats/host_read_pages)" "$r" "pages read by the backend"
	expect_eq "$(cat $SYS/stats/host_write_pages)" "$w" "pages written by the backend"
	# Nothing was written, and the device still reads and writes.
	nvme_io read 16383 1 /tmp/back
	dd if=/tmp/pattern bs=4096 count=1 2>/dev/null | cmp - /tmp/back ||
		fail "the last block changed"
	nvme_io write 16382 2 /tmp/pattern
	dd if=$DEV of=/tmp/back bs=4096 skip=16382 iflag=direct 2>/dev/null ||
		fail "read of the last blocks"
	cmp /tmp/pattern /tmp/back || fail "the last blocks read back wrong"
	unload
	expect_gone
}

# SMART data units and command counts move by exactly what was read and
# written. Data units are thousands of 512-byte units, rounded up.
test_smart_log_counts() {
	local i r0 p0 s=/tmp/smart n blocks

	# Commands of 64 blocks after the first 126 blocks: 16 (2 on a light
	# run: under the debug kernel each nvme-cli run takes a second or
	# two; 126 + 2 x 64 blocks are still 3 units, rounded up).
	n=$(light 16 2)
	blocks=$((126 + n * 64))

	load frontend=nvme size=64M
	wait_ready
	smart_json $s
	cat $s
	# The kernel has read the partition table and written nothing.
	expect_eq "$(json_num $s data_units_written)" 0 "data units written at start"
	expect_eq "$(json_num $s host_write_commands)" 0 "write commands at start"
	r0=$(json_num $s host_read_commands)
	p0=$(cat $SYS/stats/host_read_pages)
	expect_eq "$(json_num $s data_units_read)" "$(data_units "$p0")" \
		"data units read at start ($p0 pages)"

	dd if=/dev/urandom of=/tmp/data bs=4096 count=128 2>/dev/null
	# One block is 8 units: one data unit, rounded up.
	nvme_io write 0 1 /tmp/data
	smart_json $s
	expect_eq "$(json_num $s data_units_written)" 1 "data units after 1 block"
	expect_eq "$(json_num $s host_write_commands)" 1 "commands after 1 block"
	# 125 blocks are 1000 units: still one.
	nvme_io write 1 124 /tmp/data
	smart_json $s
	expect_eq "$(json_num $s data_units_written)" 1 "data units after 125 blocks"
	expect_eq "$(json_num $s host_write_commands)" 2 "commands after 125 blocks"
	# 126 blocks are 1008 units: two.
	nvme_io write 125 1 /tmp/data
	smart_json $s
	expect_eq "$(json_num $s data_units_written)" 2 "data units after 126 blocks"
	expect_eq "$(json_num $s host_write_commands)" 3 "commands after 126 blocks"
	# n commands of 64 blocks: with 16, 1150 blocks, 9200 units, 10. Not
	# 128 blocks (MDTS): nvme-cli's 512 KiB user buffer can span 128
	# discontiguous pages, one more than the nvme driver's NVME_MAX_SEGS
	# (127 on 6.1), and the passthrough ioctl then fails with EINVAL
	# before any command is sent (seen under the debug kernel).
	i=0
	while [ $i -lt "$n" ]; do
		nvme_io write $((126 + i * 64)) 64 /tmp/data
		i=$((i + 1))
	done
	smart_json $s
	expect_eq "$(json_num $s data_units_written)" "$(data_units $blocks)" \
		"data units after $blocks blocks"
	expect_eq "$(json_num $s host_write_commands)" $((3 + n)) "commands after $blocks blocks"
	expect_eq "$(cat $SYS/stats/host_write_pages)" $blocks "pages the backend wrote"

	# Reads the same way, from what the partition scan left.
	nvme_io read 0 1 /tmp/back
	smart_json $s
	expect_eq "$(json_num $s data_units_read)" "$(data_units $((p0 + 1)))" \
		"data units read after 1 block"
	expect_eq "$(json_num $s host_read_commands)" $((r0 + 1)) \
		"read commands after 1 block"
	nvme_io read 1 124 /tmp/back
	dd if=/tmp/data bs=4096 count=124 2>/dev/null | cmp - /tmp/back ||
		fail "blocks 1-124 read back wrong"
	smart_json $s
	expect_eq "$(json_num $s data_units_read)" "$(data_units $((p0 + 125)))" \
		"data units read after 125 blocks"
	expect_eq "$(json_num $s host_read_commands)" $((r0 + 2)) \
		"read commands after 125 blocks"
	nvme_io read 125 1 /tmp/back
	i=0
	while [ $i -lt "$n" ]; do
		nvme_io read $((126 + i * 64)) 64 /tmp/back
		i=$((i + 1))
	done
	dd if=/tmp/data bs=4096 count=64 2>/dev/null | cmp - /tmp/back ||
		fail "the last 64 blocks read back wrong"
	smart_json $s
	cat $s
	expect_eq "$(json_num $s data_units_read)" "$(data_units $((p0 + blocks)))" \
		"data units read after $blocks blocks"
	expect_eq "$(json_num $s host_read_commands)" $((r0 + 3 + n)) \
		"read commands after $blocks blocks"
	# Admin commands (all those smart-logs) count as neither.
	expect_eq "$(json_num $s host_write_commands)" $((3 + n)) "write commands at the end"
	expect_eq "$(json_num $s data_units_written)" "$(data_units $blocks)" \
		"data units written at the end"
	unload
	expect_gone
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

# mkfs.ext4, files of known content, umount, a clean forced e2fsck, and
# the same content after a remount with the page cache dropped.
test_ext4() {
	local n

	[ -x $MKFS_EXT4 ] && [ -x $E2FSCK ] || fail "no e2fsprogs in the initramfs"
	load frontend=nvme size=256M
	wait_ready
	$MKFS_EXT4 -q -F $DEV || fail "mkfs.ext4"
	mount -t ext4 $DEV /mnt || fail "mount"
	grep " /mnt ext4 " /proc/mounts || fail "not mounted as ext4"

	rm -rf /tmp/src
	mkdir -p /tmp/src/dir/sub
	: >/tmp/src/empty
	printf x >/tmp/src/one-byte
	head -c 5000 /dev/urandom >/tmp/src/unaligned
	dd if=/dev/urandom of=/tmp/src/big bs=1M count=16 2>/dev/null
	# A hole of 4000 KiB between two written blocks.
	dd if=/dev/urandom of=/tmp/src/sparse bs=4096 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/src/sparse bs=4096 count=1 seek=1001 \
		conv=notrunc 2>/dev/null
	n=0
	while [ $n -lt 100 ]; do
		echo "file $n of the tree" >/tmp/src/dir/sub/f$n
		n=$((n + 1))
	done
	(cd /tmp/src && find . -type f | sort | xargs sha256sum) >/tmp/sums
	cp -a /tmp/src/. /mnt/ || fail "copy to ext4"
	umount /mnt || fail "umount"

	$E2FSCK -fn $DEV || fail "e2fsck -fn after writing: exit $?"

	echo 3 >/proc/sys/vm/drop_caches
	mount -t ext4 $DEV /mnt || fail "remount"
	(cd /mnt && sha256sum -c /tmp/sums) >/tmp/check || {
		grep -v ': OK$' /tmp/check
		fail "file contents after remount"
	}
	expect_eq "$(cd /mnt && find . -type f | wc -l)" \
		"$(wc -l </tmp/sums)" "files after remount"
	umount /mnt || fail "second umount"
	$E2FSCK -fn $DEV || fail "e2fsck -fn after the remount: exit $?"
	unload
	expect_gone
}

test_io_uring() {
	load frontend=nvme size=128M
	wait_for $DEV
	fio_verify io_uring randrw 4k 32 "$(light 32M 4M)"
	unload
}

# io_uring passthrough on the generic device: NVMe commands straight from
# fio, one per I/O (nothing splits or merges them), verified, and the
# same data seen through the block device.
test_io_uring_passthrough() {
	local s=/tmp/smart w0 r0 mib
	mib=$(light 8 2)
	local job="--rw=randwrite --bs=4k --iodepth=16 --size=${mib}M --verify=crc32c"

	load frontend=nvme size=64M
	wait_ready
	smart_json $s
	w0=$(json_num $s host_write_commands)
	r0=$(json_num $s host_read_commands)
	fio --name=ng --filename=$NG --ioengine=io_uring_cmd --cmd_type=nvme \
		$job --do_verify=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio io_uring_cmd"; }
	smart_json $s
	expect_eq "$(json_num $s host_write_commands)" $((w0 + mib * 256)) \
		"write commands for $mib MiB of 4 KiB writes"
	expect_eq "$(json_num $s host_read_commands)" $((r0 + mib * 256)) \
		"read commands for verifying them"
	# The block device reads what passthrough wrote: the same job's
	# offsets and data, verified only.
	fio --name=ng --filename=$DEV --ioengine=libaio --direct=1 $job \
		--verify_only=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio verify_only"; }
	# ... and would have noticed a block that changed.
	dd if=/dev/zero of=$DEV bs=4096 seek=100 count=1 oflag=direct 2>/dev/null
	if fio --name=ng --filename=$DEV --ioengine=libaio --direct=1 $job \
		--verify_only=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1; then
		fail "verify_only passed over a zeroed block"
	fi
	# Passthrough at QD 32 with 128 KiB sequential writes as well.
	fio --name=ng2 --filename=$NG --ioengine=io_uring_cmd --cmd_type=nvme \
		--rw=write --bs=128k --iodepth=32 --offset=8M --size="$(light 8M 2M)" \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio io_uring_cmd 128k QD32"; }
	unload
	expect_gone
}

# fio_gc RW BS: write and verify the whole device three times (3x its
# capacity), at QD 32, 1 and 32, each pass with its own seed (so data a
# pass left behind cannot pass the next one's verify), while GC runs.
#
# A 32 MiB device still has the profile's minimum of blocks per die, far
# more flash than 32 MiB: three passes never reach the default
# watermarks. Raised ones make the worker migrate SLC to QLC from the
# second pass on, and collect QLC blocks (moving live pages) in the
# third. The debug kernel, several times slower, gets 16 MiB (migration
# only) and two passes at QD 32 (its QD 1 pass took 75 s of 139).
test_fio_gc() {
	local rw=$1 bs=$2 pass=1 qd runs pages t0 size=32M qds="32 1 32"
	local prw=$1 pbs=$2

	# Under the debug kernel the first pass, which runs no GC there and
	# only fills the SLC region (26 s of 68 at 4 KiB), writes and
	# verifies the same pages in 128 KiB sequential commands.
	! debug_kernel || { size=16M; qds="32 32"; prw="write"; pbs=128k; }
	load frontend=nvme size=$size
	wait_ready
	pages=$(($(cat $SYS/size) / 4096))
	echo 90 >$SYS/config/gc_high_pct
	echo 50 >$SYS/config/gc_low_pct
	for qd in $qds; do
		t0=$(date +%s)
		runs=$(cat $SYS/stats/gc_runs)
		fio --name=gc$pass --filename=$DEV --ioengine=libaio --direct=1 \
			--rw="$prw" --bs="$pbs" --iodepth=$qd --randseed=$pass \
			--verify=crc32c --do_verify=1 --verify_fatal=1 \
			--output-format=terse >/tmp/fio.out 2>&1 ||
			{ cat /tmp/fio.out; fail "fio pass $pass: $prw $pbs QD $qd"; }
		echo "pass $pass ($prw $pbs QD $qd): gc_runs $runs ->" \
			"$(cat $SYS/stats/gc_runs), gc_copied_pages" \
			"$(cat $SYS/stats/gc_copied_pages), migrated_pages" \
			"$(cat $SYS/stats/migrated_pages) ($(($(date +%s) - t0)) s)"
		[ $pass -eq 1 ] || [ "$(cat $SYS/stats/gc_runs)" -gt "$runs" ] ||
			fail "no GC during pass $pass (QD $qd)"
		pass=$((pass + 1))
		prw=$rw pbs=$bs
	done
	pass=$((pass - 1))
	expect_eq "$(cat $SYS/stats/host_write_pages)" $((pass * pages)) \
		"pages written"
	[ "$(cat $SYS/stats/host_read_pages)" -ge $((pass * pages)) ] ||
		fail "verify read less than was written"
	[ "$(cat $SYS/stats/nand_erase_blocks)" -gt 0 ] || fail "nothing erased"
	[ "$(cat $SYS/stats/migrated_pages)" -gt 0 ] || fail "nothing migrated"
	[ $size = 16M ] || [ "$(cat $SYS/stats/gc_copied_pages)" -gt 0 ] ||
		fail "GC moved no live page"
	unload
	expect_gone
}

test_load_unload_cycles() {
	local n
	n=$(light 10 3)
	i=0
	while [ $i -lt "$n" ]; do
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
	for p in qlc-hybrid samsung-970pro tlc optane cxdvirt-znand znand cylon zn540; do
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
	local loops=3 size=48M hi=20 lo=15 kind name first gc0=0

	S=/sys/class/vflash/vflash0
	# Under the debug kernel (whose 2 x 48 MiB took 274 s beside another
	# VM) the test writes 16 MiB sequentially in 1 MiB
	# commands first, about one SLC block a die (qlc-hybrid: 16 dies of
	# 8 SLC blocks of 1 MiB; few commands, cheap on any kernel), then
	# one pass of 16 MiB under the switching, with the worker's
	# watermark toggled between 90 % and 85 % free (7 and 6 of the 8
	# SLC blocks): the pass fills the second block of the dies, and GC
	# (migration) must run during it. (A pass over 16 MiB alone ran no
	# GC; 2 x 24 MiB ran none on 6.12, migration being "off", the list's
	# last, nearly all the time: each round now ends on each kind's
	# first policy, read-heat and background for these two.) The second
	# kernel line keeps the full size: its faster guest ended that pass
	# in 3 s with no GC run.
	if debug_kernel; then
		loops=1 size=16M hi=90 lo=85
	fi
	load frontend=nvme size=64M
	wait_for $DEV
	if debug_kernel; then
		echo $hi >$S/config/gc_high_pct
		dd if=/dev/urandom of=$DEV bs=1M count=16 oflag=direct 2>/dev/null ||
			fail "the sequential fill"
		gc0=$(cat $S/stats/gc_runs)
		echo "gc_runs $gc0 after the 16 MiB fill"
	fi
	fio --name=load --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=16 --size=$size --loops=$loops \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse >/tmp/fio.out 2>&1 &
	pid=$!
	n=0
	while kill -0 $pid 2>/dev/null; do
		for kind in gc placement migration maintenance; do
			first=
			for name in $(tr -d '[]' <$S/policy/$kind); do
				echo "$name" >$S/policy/$kind || fail "switch $kind to $name"
				first=${first:-$name}
			done
			echo "$first" >$S/policy/$kind || fail "switch $kind to $first"
		done
		echo 1000 >$S/config/host_xfer_ns
		echo $hi >$S/config/gc_high_pct
		echo 1219 >$S/config/host_xfer_ns
		echo $lo >$S/config/gc_high_pct
		n=$((n + 1))
		sleep 0.2
	done
	wait $pid || { cat /tmp/fio.out; fail "fio under switching"; }
	echo "switched every policy $n times under load," \
		"gc_runs $gc0 -> $(cat $S/stats/gc_runs)"
	[ $n -ge 2 ] || fail "fio ended before the switching ran"
	[ "$(cat $S/stats/gc_runs)" -gt "$gc0" ] || fail "no GC ran under load"
	unload
}

# rmmod with a mounted filesystem detaches the disk like a hot unplug:
# the filesystem gets I/O errors, nothing crashes, and all can be undone.
test_rmmod_while_mounted() {
	load frontend=nvme size=128M
	wait_for $DEV
	$MKFS_EXT4 -q -F $DEV || fail "mkfs.ext4"
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

# stat NAME: a backend counter
stat_of() {
	cat $SYS/stats/"$1"
}

# Write Uncorrectable, Verify and Copy through nvme-cli: Identify shows
# them (ONCS bits 1, 7, 8; MSSRL/MCL/MSRC); a marked block fails a read
# and a Verify with Unrecovered Read Error until written again; a Copy's
# destination reads its sources' data, read and programmed on the flash
# (NAND counters) with no host-link transfer (host_xfer_pages), its
# limits and its partial progress as the specification says.
test_uncor_verify_copy() {
	local oncs x0 r0 p0
	load frontend=nvme size=256M
	wait_ready
	nvme id-ctrl /dev/nvme0 -o json >/tmp/copy_idc || fail "nvme id-ctrl"
	oncs=$(json_num /tmp/copy_idc oncs)
	expect_eq $((oncs & 0x182)) $((0x182)) "ONCS bits 1, 7, 8"
	nvme id-ns $DEV -o json >/tmp/copy_idn || fail "nvme id-ns"
	expect_eq "$(json_num /tmp/copy_idn mssrl)" 256 MSSRL
	expect_eq "$(json_num /tmp/copy_idn mcl)" 1024 MCL
	expect_eq "$(json_num /tmp/copy_idn msrc)" 127 MSRC
	dd if=/dev/urandom of=/tmp/copy_src bs=4096 count=16 2>/dev/null ||
		fail "making the sources"
	dd if=/tmp/copy_src of=$DEV bs=4096 seek=100 oflag=direct 2>/dev/null ||
		fail "writing the sources"

	# Blocks 104-107 uncorrectable: reads and Verify fail, their
	# neighbours do not.
	nvme write-uncor $DEV --start-block=104 --block-count=3 ||
		fail "nvme write-uncor"
	! dd if=$DEV of=/dev/null bs=4096 skip=105 count=1 iflag=direct 2>/dev/null ||
		fail "a read of an uncorrectable block succeeded"
	expect_nvme_status 281 "a read of an uncorrectable block" \
		nvme read $DEV --start-block=106 --block-count=0 \
		--data-size=4096 --data=/tmp/got
	expect_nvme_status 281 "a verify over uncorrectable blocks" \
		nvme verify $DEV --start-block=100 --block-count=15
	nvme verify $DEV --start-block=108 --block-count=7 ||
		fail "verify of readable blocks"
	dd if=$DEV of=/tmp/got bs=4096 skip=103 count=1 iflag=direct 2>/dev/null ||
		fail "a read beside the uncorrectable blocks"

	# Copy 100-103 and 108-115 to 200, FUA: on the flash, not the link.
	x0=$(stat_of host_xfer_pages)
	r0=$(stat_of nand_read_pages)
	p0=$(stat_of nand_program_pages)
	nvme copy $DEV --sdlba=200 --slbs=100,108 --blocks=3,7 \
		--force-unit-access || fail "nvme copy"
	expect_eq "$(stat_of host_xfer_pages)" "$x0" "host-link pages of a copy"
	[ $(($(stat_of nand_read_pages) - r0)) -ge 12 ] ||
		fail "NAND reads of a 12-block copy: $(($(stat_of nand_read_pages) - r0))"
	[ $(($(stat_of nand_program_pages) - p0)) -ge 12 ] ||
		fail "NAND programs of a 12-block FUA copy: $(($(stat_of nand_program_pages) - p0))"
	dd if=/tmp/copy_src of=/tmp/copy_want bs=4096 count=4 2>/dev/null
	dd if=/tmp/copy_src of=/tmp/copy_want bs=4096 skip=8 seek=4 count=8 2>/dev/null
	dd if=$DEV of=/tmp/got bs=4096 skip=200 count=12 iflag=direct 2>/dev/null ||
		fail "reading the copy"
	cmp /tmp/got /tmp/copy_want || fail "the copy's data differ from its sources"

	# A source range with an uncorrectable block: the ranges before it
	# copied, the copy fails; the destination after them untouched.
	expect_nvme_status 281 "a copy from an uncorrectable block" \
		nvme copy $DEV --sdlba=300 --slbs=100,104 --blocks=3,0
	dd if=$DEV of=/tmp/got bs=4096 skip=300 count=4 iflag=direct 2>/dev/null
	dd if=/tmp/copy_src of=/tmp/copy_want bs=4096 count=4 2>/dev/null
	cmp /tmp/got /tmp/copy_want || fail "the partial copy's first range"
	expect_zeros 304 1 "the block after a partial copy"
	# Limits: a range over MSSRL, a copy over MCL, the end of the
	# namespace, a descriptor format the controller lacks.
	expect_nvme_status 183 "a range of MSSRL + 1 blocks" \
		nvme copy $DEV --sdlba=400 --slbs=0 --blocks=256
	expect_nvme_status 183 "a copy of MCL + 1 blocks" \
		nvme copy $DEV --sdlba=400 --slbs=0,0,0,0,0 --blocks=255,255,255,255,0
	expect_nvme_status 80 "a copy past the end" \
		nvme copy $DEV --sdlba=$((65536 - 2)) --slbs=0 --blocks=3
	expect_nvme_status 2 "descriptor format 1" \
		nvme copy $DEV --sdlba=400 --slbs=0 --blocks=0 --format=1
	expect_zeros 400 4 "the destination of refused copies"

	# Written again, a marked block reads; deallocated, it reads zeros.
	dd if=/tmp/copy_src of=$DEV bs=4096 skip=4 seek=104 count=2 oflag=direct 2>/dev/null ||
		fail "rewriting uncorrectable blocks"
	dd if=$DEV of=/tmp/got bs=4096 skip=104 count=2 iflag=direct 2>/dev/null ||
		fail "a read of rewritten blocks"
	nvme dsm $DEV --ad --slbs=106 --blocks=2 || fail "nvme dsm"
	nvme verify $DEV --start-block=100 --block-count=15 ||
		fail "verify after the rewrite and the deallocation"
	expect_zeros 106 2 "deallocated uncorrectable blocks"
	unload
}

# With 512-byte blocks: a copy between ranges that start and end inside
# backend pages moves exactly its blocks, and a mark covers its block,
# not its page.
test_uncor_verify_copy_512() {
	load frontend=nvme size=64M lba_size=512
	wait_ready
	dd if=/dev/urandom of=/tmp/copy_src bs=512 count=24 2>/dev/null ||
		fail "making the sources"
	dd if=/tmp/copy_src of=$DEV bs=512 seek=3 oflag=direct 2>/dev/null ||
		fail "writing the sources"
	nvme copy $DEV --sdlba=1001 --slbs=3,20 --blocks=10,4 ||
		fail "nvme copy of 512-byte blocks"
	dd if=/tmp/copy_src of=/tmp/copy_want bs=512 count=11 2>/dev/null
	dd if=/tmp/copy_src of=/tmp/copy_want bs=512 skip=17 seek=11 count=5 2>/dev/null
	dd if=$DEV of=/tmp/got bs=512 skip=1001 count=16 iflag=direct 2>/dev/null ||
		fail "reading the copy"
	cmp /tmp/got /tmp/copy_want || fail "the copy's data differ from its sources"
	dd if=$DEV of=/tmp/got bs=512 skip=1000 count=1 iflag=direct 2>/dev/null
	dd if=/dev/zero of=/tmp/zeros bs=512 count=1 2>/dev/null
	cmp /tmp/got /tmp/zeros || fail "the block before the copy"
	nvme write-uncor $DEV --start-block=1005 --block-count=0 ||
		fail "nvme write-uncor"
	expect_nvme_status 281 "a verify of the marked 512-byte block" \
		nvme verify $DEV --start-block=1005 --block-count=0
	nvme verify $DEV --start-block=1004 --block-count=0 ||
		fail "verify of the block beside the mark, in its page"
	nvme verify $DEV --start-block=1006 --block-count=1 ||
		fail "verify of the blocks after the mark, in its page"
	unload
}

run_test_full_debug binds "nvmereset's unbind_bind" test_binds
run_test_full_debug identify_fields "every load's Identify, and nvmefuzz" test_identify_fields
run_test odd_size_namespace test_odd_size_namespace
run_test data_round_trip test_data_round_trip
run_test_full_debug fio_verify "fio_gc_rand_4k and uncor_verify_copy" test_fio_verify
run_test bad_commands_get_nvme_status test_bad_commands_get_nvme_status
run_test_full_debug out_of_range_lba "bad_commands_get_nvme_status, and nvmefuzz's fuzz" test_out_of_range_lba
run_test_full_debug smart_log_counts "nvmeopts' SMART tests" test_smart_log_counts
run_test discard_and_zeroes test_discard_and_zeroes
# Under the debug kernel powercut's ext4 test makes, loads, replays and
# checks an ext4 file system on vflash (CI's time).
run_test_not_debug ext4 "powercut's ext4 runs mkfs.ext4, a journal and e2fsck on vflash" test_ext4
run_test io_uring test_io_uring
run_test_full_debug io_uring_passthrough "nvmefuzz's ng_generic_device (io_uring_cmd on the generic device) and io_uring" test_io_uring_passthrough
run_test fio_gc_rand_4k test_fio_gc randwrite 4k
# Under the debug kernel (CI's time): GC runs in fio_gc_rand_4k and
# switch_under_load, and every profile loads in core's every_profile_loads.
run_test_not_debug fio_gc_seq_128k "GC runs in fio_gc_rand_4k" test_fio_gc write 128k
run_test_full_debug load_unload_cycles "core's cycles_release_memory" test_load_unload_cycles
run_test_not_debug every_profile "core's every_profile_loads" test_every_profile
run_test_full_debug switch_under_load "cxl's switch_under_load (policies switched under load), backend's policies_switch_and_reject, and fio_gc_rand_4k (GC under fio)" test_switch_under_load
run_test rmmod_while_mounted test_rmmod_while_mounted
run_test uncor_verify_copy test_uncor_verify_copy
run_test_full_debug uncor_verify_copy_512 "uncor_verify_copy, and nvmeopts' 512-byte blocks" test_uncor_verify_copy_512
