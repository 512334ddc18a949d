# SPDX-License-Identifier: GPL-2.0
# zoned=1: namespace 1 is a zoned namespace (NVMe ZNS 1.1). The kernel
# binds it as a host-managed zoned disk; nvme-cli's zns commands, blkzone,
# fio's zonemode=zbd, zonefs and btrfs in zoned mode work; every illegal
# command gets its status.
# vmtest-mem: 4G
# vmtest-timeout: 900
# vmtest-debug-skip: the debug kernel has no zoned block devices (CONFIG_BLK_DEV_ZONED), so its nvme driver binds no zoned namespace; KUnit vflash-zns and vflash-nvme-io run the zone code

DEV=/dev/nvme0n1
CTRL=/dev/nvme0
SYS=/sys/class/vflash/vflash0
ZS=4096			# blocks per zone in these tests (16 MiB of 4 KiB)
EINVAL='Invalid (parameters|argument)'

# load_zoned PARAMS...: a 256 MiB zoned device, 16 MiB zones unless
# PARAMS say otherwise
load_zoned() {
	load frontend=nvme size=256M zoned=1 "$@"
	wait_for $DEV
	wait_for /dev/ng0n1
}

# zone_json: Report Zones of the whole namespace, as nvme-cli's JSON
zone_json() {
	nvme zns report-zones $DEV -o json >/tmp/zones.json ||
		fail "nvme zns report-zones"
}

# zone_field ZONE KEY: one field of zone ZONE's descriptor
zone_field() {
	zone_json
	jq -r ".zone_list[$1].$2" /tmp/zones.json
}

# expect_state ZONE STATE: zone ZONE is in STATE (nvme-cli's name)
expect_state() {
	expect_eq "$(zone_field "$1" state)" "$2" "state of zone $1"
}

# write_at LBA COUNT: COUNT blocks of a pattern at LBA through the block
# device
write_at() {
	dd if=/tmp/pattern of=$DEV bs=4096 seek="$1" count="$2" oflag=direct \
		2>/dev/null
}

make_pattern() {
	dd if=/dev/urandom of=/tmp/pattern bs=4096 count=256 2>/dev/null
}

test_discovery() {
	load_zoned
	expect_eq "$(cat /sys/block/nvme0n1/queue/zoned)" host-managed zoned
	expect_eq "$(cat /sys/block/nvme0n1/queue/nr_zones)" 16 nr_zones
	expect_eq "$(cat /sys/block/nvme0n1/queue/chunk_sectors)" $((ZS * 8)) \
		"zone size in sectors"
	# Linux forces a zoned namespace read-only without Zone Append.
	expect_eq "$(cat /sys/block/nvme0n1/ro)" 0 "read-only"
	nvme zns id-ctrl $CTRL -o json >/tmp/idc.json || fail "zns id-ctrl"
	expect_eq "$(jq -r .zasl /tmp/idc.json)" 7 ZASL
	nvme zns id-ns $DEV -o json >/tmp/idn.json || fail "zns id-ns"
	expect_eq "$(jq -r '.lbafe[0].zsze' /tmp/idn.json)" $ZS ZSZE
	expect_eq "$(jq -r .mar /tmp/idn.json)" -1 "MAR (no limit)"
	nvme zns list
	zone_json
	expect_eq "$(jq -r '.nr_zones' /tmp/zones.json)" 16 "zones reported"
	expect_eq "$(jq -r '[.zone_list[] | select(.state == "EMPTY")] | length' \
		/tmp/zones.json)" 16 "empty zones"
	blkzone report $DEV | head -n 3
	expect_eq "$(blkzone report $DEV | wc -l)" 16 "blkzone report lines"
	unload
}

test_writes_at_the_write_pointer() {
	load_zoned
	make_pattern
	write_at 0 8 || fail "write at zone 0's start"
	expect_eq "$(zone_field 0 wp)" 8 "write pointer after 8 blocks"
	expect_state 0 IMP_OPENED
	! write_at 100 1 || fail "a write off the write pointer succeeded"
	# Linux 6.10+ (zone write plugging) fails every later write to the
	# zone until a report zones through the block layer (blkzone; not
	# nvme-cli's passthrough) gives it the write pointer again.
	blkzone report -o 0 -c 1 $DEV >/dev/null || fail "blkzone report"
	expect_nvme_status 1bc "a write off the write pointer" \
		nvme write $DEV --start-block=100 --block-count=0 \
		--data-size=4096 --data=/tmp/pattern
	write_at 8 8 || fail "write at the write pointer"
	dd if=$DEV of=/tmp/got bs=4096 count=16 iflag=direct 2>/dev/null
	head -c $((16 * 4096)) /tmp/pattern >/tmp/want8
	dd if=/tmp/pattern bs=4096 count=8 2>/dev/null >/tmp/want
	dd if=/tmp/pattern bs=4096 count=8 2>/dev/null >>/tmp/want
	cmp /tmp/got /tmp/want || fail "data read back"
	# Past the write pointer a zone reads as zeros.
	dd if=$DEV of=/tmp/got bs=4096 skip=16 count=4 iflag=direct 2>/dev/null
	dd if=/dev/zero of=/tmp/zeros bs=4096 count=4 2>/dev/null
	cmp /tmp/got /tmp/zeros || fail "blocks past the write pointer"
	# A write across the zone's end.
	expect_nvme_status 1b8 "a write across a zone boundary" \
		nvme write $DEV --start-block=$((ZS - 1)) --block-count=1 \
		--data-size=8192 --data=/tmp/pattern
	blkzone reset -o 0 -c 1 $DEV || fail "blkzone reset"
	expect_state 0 EMPTY
	expect_eq "$(zone_field 0 wp)" 0 "write pointer after reset"
	dd if=$DEV of=/tmp/got bs=4096 count=4 iflag=direct 2>/dev/null
	cmp /tmp/got /tmp/zeros || fail "a reset zone does not read as zeros"
	unload
}

test_zone_append() {
	local slba=$((3 * ZS)) first second
	load_zoned
	make_pattern
	first=$(nvme zns zone-append $DEV --zslba=$slba --data-size=8192 \
		--data=/tmp/pattern 2>&1) || fail "zone-append: $first"
	echo "$first"
	expect_match "$first" "LBA $(printf '%x' $slba)\$" "first append's LBA"
	second=$(nvme zns zone-append $DEV --zslba=$slba --data-size=4096 \
		--data=/tmp/pattern 2>&1) || fail "zone-append: $second"
	echo "$second"
	expect_match "$second" "LBA $(printf '%x' $((slba + 2)))\$" "second append's LBA"
	expect_eq "$(zone_field 3 wp)" $((slba + 3)) "write pointer"
	# Zone Append names the zone by its first block.
	expect_nvme_status 2 "an append to a block inside a zone" \
		nvme zns zone-append $DEV --zslba=$((slba + 1)) \
		--data-size=4096 --data=/tmp/pattern
	unload
}

test_transitions() {
	load_zoned
	make_pattern
	nvme zns open-zone $DEV --start-lba=0 || fail "open-zone"
	expect_state 0 EXP_OPENED
	nvme zns close-zone $DEV --start-lba=0 || fail "close-zone"
	# Closed with nothing written: Empty.
	expect_state 0 EMPTY
	expect_nvme_status 1bf "closing an empty zone" \
		nvme zns close-zone $DEV --start-lba=0
	write_at $ZS 4 || fail "write to zone 1"
	nvme zns close-zone $DEV --start-lba=$ZS || fail "close-zone 1"
	expect_state 1 CLOSED
	nvme zns finish-zone $DEV --start-lba=$ZS || fail "finish-zone 1"
	expect_state 1 FULL
	expect_nvme_status 1b9 "a write to a full zone" \
		nvme zns zone-append $DEV --zslba=$ZS --data-size=4096 \
		--data=/tmp/pattern
	expect_nvme_status 1bf "taking a full zone offline" \
		nvme zns offline-zone $DEV --start-lba=$ZS
	write_at $((2 * ZS)) 1 || fail "write to zone 2"
	nvme zns reset-zone $DEV --select-all || fail "reset-zone --select-all"
	zone_json
	expect_eq "$(jq -r '[.zone_list[] | select(.state == "EMPTY")] | length' \
		/tmp/zones.json)" 16 "empty zones after reset all"
	unload
}

test_resources() {
	load_zoned zone_max_open=2 zone_max_active=3
	make_pattern
	expect_eq "$(cat /sys/block/nvme0n1/queue/max_open_zones)" 2 max_open_zones
	expect_eq "$(cat /sys/block/nvme0n1/queue/max_active_zones)" 3 \
		max_active_zones
	nvme zns open-zone $DEV --start-lba=0 || fail "open zone 0"
	nvme zns open-zone $DEV --start-lba=$ZS || fail "open zone 1"
	expect_nvme_status 1be "a third explicit open" \
		nvme zns open-zone $DEV --start-lba=$((2 * ZS))
	nvme zns close-zone $DEV --start-lba=0 || fail "close zone 0"
	# Zone 0 closed empty: Empty again; write zone 2 (implicitly open).
	write_at $((2 * ZS)) 1 || fail "write zone 2"
	nvme zns close-zone $DEV --start-lba=$((2 * ZS)) || fail "close zone 2"
	write_at $((3 * ZS)) 1 || fail "write zone 3"
	# Active: zone 1 (open), 2 (closed), 3 (open): a fourth is refused.
	expect_nvme_status 1bd "a fourth active zone" \
		nvme zns open-zone $DEV --start-lba=$((4 * ZS))
	unload
}

test_fio_zbd() {
	load_zoned zone_max_open=4 zone_max_active=4
	fio --name=zbd --filename=$DEV --zonemode=zbd --direct=1 \
		--ioengine=psync --rw=write --bs=64k --size=64M \
		--max_open_zones=4 --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio zonemode=zbd write+verify"; }
	fio --name=zbdr --filename=$DEV --zonemode=zbd --direct=1 \
		--ioengine=libaio --iodepth=8 --rw=randwrite --bs=16k \
		--size=128M --zone_reset_threshold=0.5 --zone_reset_frequency=0.1 \
		--max_open_zones=4 --time_based --runtime=5 \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio zonemode=zbd randwrite with resets"; }
	unload
}

test_read_only_zone() {
	load_zoned
	make_pattern
	write_at $((5 * ZS)) 2 || fail "write zone 5"
	# The media of zone 5's first pages goes read-only (4 KiB blocks:
	# logical pages are blocks).
	F=/sys/class/vflash/vflash0/faults/read_only
	echo $((5 * ZS))-$((5 * ZS + 8)) >$F/range || fail "range"
	echo 0 >$F/times || fail "times"
	echo 1 >$F/armed || fail "arming read_only"
	expect_nvme_status 1ba "a write to a read-only zone" \
		nvme write $DEV --start-block=$((5 * ZS + 2)) --block-count=0 \
		--data-size=4096 --data=/tmp/pattern
	expect_state 5 READONLY
	# nvme-cli 2.3 prints this log as text only.
	nvme zns changed-zone-list $DEV >/tmp/czl || fail "changed-zone-list"
	cat /tmp/czl
	expect_eq "$(sed -n 's/^nrzid: *//p' /tmp/czl)" 1 "changed zones"
	expect_eq "$(sed -n 's/^zid 000: *//p' /tmp/czl)" $((5 * ZS)) \
		"the changed zone"
	# Read back: the next read of the log has it no more.
	nvme zns changed-zone-list $DEV >/tmp/czl || fail "changed-zone-list"
	expect_eq "$(sed -n 's/^nrzid: *//p' /tmp/czl)" 0 "changed zones after a read"
	echo 0 >$F/armed
	nvme zns offline-zone $DEV --start-lba=$((5 * ZS)) || fail "offline-zone"
	expect_state 5 OFFLINE
	expect_nvme_status 1bb "a read of an offline zone" \
		nvme read $DEV --start-block=$((5 * ZS)) --block-count=0 \
		--data-size=4096 --data=/tmp/got
	unload
}

# plugs_zones: this kernel keeps zone write pointers itself (6.10+)
plugs_zones() {
	local r major minor
	r=$(uname -r)
	major=${r%%.*}
	r=${r#*.}
	minor=${r%%[!0-9]*}
	[ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 10 ]; }
}

# A reset sent as passthrough (/dev/ng0n1) changes the device's write
# pointer behind the block layer: on 6.10+ its cached write pointer is
# stale (a write at the zone start is refused) until a block-layer
# report zones; 6.1 keeps none and writes at once.
test_passthrough_reset() {
	local z=$((6 * ZS))
	load_zoned
	make_pattern
	write_at $z 4 || fail "write zone 6"
	nvme zns reset-zone /dev/ng0n1 --start-lba=$z || fail "reset via ng0n1"
	expect_eq "$(zone_field 6 wp)" $z "device write pointer after reset"
	if plugs_zones; then
		! write_at $z 1 ||
			fail "the block layer took a write at a write pointer it had not seen move"
		blkzone report -o $((z * 8)) -c 1 $DEV >/dev/null ||
			fail "blkzone report"
	fi
	write_at $z 1 || fail "write at the reset zone's start"
	expect_eq "$(zone_field 6 wp)" $((z + 1)) "write pointer"
	unload
}

# Thousands of random commands, zone commands among them, on the generic
# and the block device: each gets a status, nothing times out or oopses,
# and afterwards the zones still take fio's verified writes.
test_fuzz() {
	local t seed
	t=$(light 10 5)
	load_zoned zone_max_open=6 zone_max_active=8
	dmesg -c >/dev/null
	seed=$(date +%s)
	nvme_fuzz fuzz $CTRL /dev/ng0n1 -s "$seed" -n 20000 -t "$t" ||
		fail "nvme_fuzz on /dev/ng0n1 (seed $seed)"
	nvme_fuzz fuzz $CTRL $DEV -s $((seed + 1)) -n 20000 -t "$t" ||
		fail "nvme_fuzz on $DEV (seed $((seed + 1)))"
	! dmesg | grep -Ei 'timeout|resetting|failed' ||
		fail "the driver complained during the fuzz"
	blkzone reset $DEV || fail "blkzone reset after the fuzz"
	fio --name=zbd --filename=$DEV --zonemode=zbd --direct=1 \
		--ioengine=psync --rw=write --bs=64k --size=32M \
		--max_open_zones=4 --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio zonemode=zbd after the fuzz"; }
	unload
}

# zonefs (mkzonefs: scripts/vm/mkzonefs.c): every zone but the first
# is a file; a file takes direct writes at its end (fio, libaio), reads
# them back verified, and truncating it to 0 resets its zone. The writes
# are asynchronous: Debian's 6.1 zonefs turns a synchronous direct write
# into a Zone Append whose result it checks against a write pointer it
# has already advanced, so every one fails ("Corrupted write pointer"),
# on any device (docs/zns.md).
test_zonefs() {
	local f=/mnt/seq/0
	load_zoned
	blkzone reset $DEV || fail "blkzone reset"
	mkzonefs $DEV || fail mkzonefs
	modprobe zonefs || fail "modprobe zonefs"
	mkdir -p /mnt
	mount -t zonefs $DEV /mnt || fail "mount zonefs"
	expect_eq "$(find /mnt/seq -type f | wc -l)" 15 "sequential zone files"
	# create_on_open: fio lays out no file (zonefs cannot unlink one).
	fio --name=zonefs --filename=$f --ioengine=libaio --iodepth=4 \
		--direct=1 --rw=write --bs=64k --size=8M --create_on_open=1 \
		--allow_file_create=0 --fallocate=none --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio on $f"; }
	expect_eq "$(stat -c %s $f)" $((8 << 20)) "file size"
	expect_eq "$(zone_field 1 wp)" $((ZS + 2048)) "zone 1's write pointer"
	truncate -s 0 $f || fail "truncating $f"
	expect_state 1 EMPTY
	expect_eq "$(stat -c %s $f)" 0 "file size after truncate"
	umount /mnt || fail "umount"
	unload
}

# btrfs in zoned mode on the namespace: mkfs, mount, write, read back
# after a remount, scrub clean.
test_btrfs() {
	load frontend=nvme size=1G zoned=1 zone_size=16M
	wait_for $DEV
	modprobe btrfs || fail "modprobe btrfs"
	mkfs.btrfs -f -O zoned -d single -m single $DEV >/tmp/mkfs.out 2>&1 ||
		{ cat /tmp/mkfs.out; fail "mkfs.btrfs -O zoned"; }
	mkdir -p /mnt
	mount -t btrfs $DEV /mnt || fail "mount btrfs"
	dd if=/dev/urandom of=/tmp/big bs=1M count=48 2>/dev/null
	cp /tmp/big /mnt/big || fail "writing a file"
	cp /tmp/pattern /mnt/small || fail "writing another"
	sync
	umount /mnt || fail "umount"
	mount -t btrfs $DEV /mnt || fail "remount btrfs"
	cmp /tmp/big /mnt/big || fail "big file read back"
	btrfs scrub start -B /mnt >/tmp/scrub.out 2>&1 ||
		{ cat /tmp/scrub.out; fail "btrfs scrub"; }
	cat /tmp/scrub.out
	grep -q 'Error summary: *no errors found' /tmp/scrub.out ||
		fail "scrub found errors"
	umount /mnt || fail "umount"
	unload
}

# profile=zn540 gives a ZN540's zones by default: 2 GiB zones of
# 1077 MiB capacity, 14 active; zone_size= overrides them.
test_zn540_profile() {
	load frontend=nvme size=4G store=sparse profile=zn540 zoned=1
	wait_for $DEV
	expect_eq "$(cat /sys/block/nvme0n1/queue/nr_zones)" 2 nr_zones
	# MAR is 0's based; 6.10+ shows no limit in sysfs for a limit at or
	# above the zone count (2 here), so the drive's own figure is read.
	nvme zns id-ns $DEV -o json >/tmp/idn.json || fail "zns id-ns"
	expect_eq "$(jq -r .mar /tmp/idn.json)" 13 "MAR"
	expect_eq "$(zone_field 0 cap)" $((1077 << 8)) "zone capacity (blocks)"
	unload
	load frontend=nvme size=256M profile=zn540 zoned=1 zone_size=32M
	wait_for $DEV
	expect_eq "$(cat /sys/block/nvme0n1/queue/nr_zones)" 8 nr_zones
	expect_eq "$(zone_field 0 cap)" $((32 << 8)) "zone capacity (blocks)"
	unload
}

test_not_zoned() {
	load frontend=nvme size=64M
	wait_for $DEV
	expect_eq "$(cat /sys/block/nvme0n1/queue/zoned)" none zoned
	expect_nvme_status 1 "a zone append on a conventional namespace" \
		nvme zns zone-append $DEV --zslba=0 --data-size=4096 \
		--data=/tmp/pattern
	unload
}

test_bad_params() {
	expect_load_error "$EINVAL" "zone_size=3M: must be a power of two" \
		frontend=nvme size=64M zoned=1 zone_size=3M
	expect_load_error "$EINVAL" "zone_cap=2M?[0-9]*: must be a multiple" \
		frontend=nvme size=64M zoned=1 zone_size=1M zone_cap=2M
	expect_load_error "$EINVAL" "zone_max_open=5: more than zone_max_active" \
		frontend=nvme size=64M zoned=1 zone_max_open=5 zone_max_active=4
	expect_load_error "$EINVAL" "zone_size=[0-9]+: larger than the device" \
		frontend=nvme size=64M zoned=1 zone_size=128M
	expect_load_error "$EINVAL" "zoned=2: must be 0 or 1" \
		frontend=nvme size=64M zoned=2
	expect_load_error "$EINVAL" "zone_zrwa=2: must be 0 or 1" \
		frontend=nvme size=64M zoned=1 zone_zrwa=2
	expect_load_error "$EINVAL" "zone_zrwa_size=abc: not a size" \
		frontend=nvme size=64M zoned=1 zone_zrwa=1 zone_zrwa_size=abc
	expect_load_error "$EINVAL" "zone_zrwa_fg=1000: must be a multiple of the 4096-byte block" \
		frontend=nvme size=64M zoned=1 zone_zrwa=1 zone_zrwa_fg=1000
	expect_load_error "$EINVAL" "zone_zrwa_size=24576: must be a multiple of zone_zrwa_fg" \
		frontend=nvme size=64M zoned=1 zone_zrwa=1 zone_zrwa_size=24K
	expect_load_error "$EINVAL" "zone_zrwa_nr=5: more than zone_max_active" \
		frontend=nvme size=64M zoned=1 zone_zrwa=1 zone_zrwa_nr=5 \
		zone_max_active=4
}

# zstat NAME: one counter of the device's stats/
zstat() {
	cat /sys/class/vflash/vflash0/stats/"$1"
}

# The backend of a zoned device (docs/design/zns.md): each active zone
# writes into blocks of its own, a reset erases them at once, the device
# never garbage-collects a zone's blocks. The default profile (qlc-hybrid)
# has 4 MiB blocks, so a 16 MiB zone is laid out on 4 dies, one block
# each; zone writes skip the SLC cache.
test_zone_backend() {
	local e0 q0 h m
	load_zoned
	make_pattern
	echo 0 >/sys/class/vflash/vflash0/stats/reset
	q0=$(zstat free_blocks_qlc)
	# Zones 0-2 full, written at once: three handles, no shared block.
	for z in 0 1 2; do
		dd if=/dev/urandom of=$DEV bs=1M seek=$((z * 16)) count=16 \
			oflag=direct 2>/dev/null &
	done
	wait
	for z in 0 1 2; do expect_state $z FULL; done
	h=$(zstat zone_host_pages)
	m=$(zstat zone_media_pages)
	expect_eq "$h" $((3 * ZS)) "zone host pages"
	# Zones of whole program units: no padding, WAF 1.0.
	expect_eq "$m" "$h" "zone media pages (WAF 1.0)"
	expect_eq "$(zstat migrated_pages)" 0 "zone pages migrated from SLC"
	expect_eq "$(zstat free_blocks_qlc)" $((q0 - 12)) "blocks the zones hold"
	e0=$(zstat nand_erase_blocks)
	blkzone reset -o 0 -c 3 $DEV || fail "blkzone reset"
	for z in 0 1 2; do expect_state $z EMPTY; done
	expect_eq "$(zstat nand_erase_blocks)" $((e0 + 12)) \
		"blocks erased by the resets (4 a zone)"
	expect_eq "$(zstat zone_erase_blocks)" 12 zone_erase_blocks
	expect_eq "$(zstat free_blocks_qlc)" "$q0" "free blocks after the resets"
	# One die per zone: the same four blocks, on one die.
	! echo 17 >/sys/class/vflash/vflash0/config/zone_dies 2>/dev/null ||
		fail "zone_dies above the 16 dies accepted"
	echo 1 >/sys/class/vflash/vflash0/config/zone_dies ||
		fail "zone_dies=1"
	dd if=/dev/urandom of=$DEV bs=1M seek=48 count=16 oflag=direct \
		2>/dev/null || fail "write zone 3"
	nvme zns reset-zone $DEV --start-lba=$((3 * ZS)) || fail "reset zone 3"
	expect_eq "$(zstat zone_erase_blocks)" 16 "zone_erase_blocks, zone_dies=1"
	expect_eq "$(zstat gc_copied_pages)" 0 gc_copied_pages
	expect_eq "$(zstat gc_runs)" 0 gc_runs
	unload
}

# Issue 38, as a host sees it with nvme-cli: a Zone Management Send whose
# SLBA is not a zone's start is refused and changes nothing (reset-zone
# -s 1 reset zone 0); the controller says NVMe 2.1 (VS and VER); Identify
# CNS 08h and the Supported Log Pages log answer.
test_conformance() {
	local ver
	load_zoned
	make_pattern
	write_at 0 4 || fail "4 blocks into zone 0"
	expect_eq "$(zone_field 0 wp)" 4 "zone 0's write pointer"
	nvme zns reset-zone $DEV --start-lba=1 2>/dev/null &&
		fail "reset-zone at block 1 of zone 0 succeeded"
	nvme zns finish-zone $DEV --start-lba=$((ZS + 3)) 2>/dev/null &&
		fail "finish-zone inside zone 1 succeeded"
	expect_eq "$(zone_field 0 wp)" 4 "zone 0's write pointer after them"
	expect_state 1 EMPTY
	nvme zns reset-zone $DEV --start-lba=0 || fail "reset-zone 0"
	expect_eq "$(zone_field 0 wp)" 0 "zone 0's write pointer after reset"
	ver=$(nvme id-ctrl $CTRL -o json | jq -r .ver) || fail "id-ctrl"
	expect_eq "$ver" $((0x20100)) "Identify Controller VER"
	nvme admin-passthru $CTRL --opcode=0x06 --namespace-id=1 --cdw10=8 \
		--data-len=4096 -r -b >/tmp/indep.bin || fail "Identify CNS 08h"
	expect_eq "$(od -An -tu1 -j14 -N1 /tmp/indep.bin | tr -d ' ')" 1 \
		"CNS 08h NSTAT: ready"
	nvme get-log $CTRL --log-id=0 --log-len=1024 -b >/tmp/slp.bin ||
		fail "Supported Log Pages"
	expect_eq "$(od -An -tu4 -j$((4 * 2)) -N4 /tmp/slp.bin | tr -d ' ')" 1 \
		"log 02h supported"
	expect_eq "$(od -An -tu4 -j$((4 * 0xbf)) -N4 /tmp/slp.bin | tr -d ' ')" 1 \
		"log BFh supported"
	unload
}

# Copy on a zoned namespace (ZNS 1.1, 3.4.1) with nvme-cli: the
# destination at its zone's write pointer, which moves past the copy;
# off the pointer Zone Invalid Write, across the zone's end Zone Boundary
# Error, into a full zone Zone Is Full, none of them writing; the copy
# reads its sources' data, which may be in another zone.
test_copy_zoned() {
	local z=256	# blocks per 1 MiB zone
	load_zoned zone_size=1M
	make_pattern
	write_at 0 8 || fail "writing zone 0"
	expect_nvme_status bc "a copy off the write pointer" \
		nvme copy $DEV --sdlba=$((z + 1)) --slbs=0 --blocks=3
	expect_eq "$(zone_field 1 wp)" $z "zone 1's write pointer after a refused copy"
	nvme copy $DEV --sdlba=$z --slbs=0,4 --blocks=1,3 ||
		fail "nvme copy at the write pointer"
	expect_eq "$(zone_field 1 wp)" $((z + 6)) "zone 1's write pointer after a copy"
	dd if=/tmp/pattern of=/tmp/copy_want bs=4096 count=2 2>/dev/null
	dd if=/tmp/pattern of=/tmp/copy_want bs=4096 skip=4 seek=2 count=4 2>/dev/null
	dd if=$DEV of=/tmp/got bs=4096 skip=$z count=6 iflag=direct 2>/dev/null ||
		fail "reading the copy"
	cmp /tmp/got /tmp/copy_want || fail "the copy's data differ from its sources"
	# Zone 1's pointer to 6 blocks before its end: 8 more cross it. The
	# block layer (6.10 and later) learns of the pointer the passthrough
	# copy moved from a report zones through it.
	blkzone report $DEV >/dev/null || fail "blkzone report"
	write_at $((z + 6)) 244 || fail "filling zone 1"
	expect_nvme_status b8 "a copy across the zone's end" \
		nvme copy $DEV --sdlba=$((2 * z - 6)) --slbs=0 --blocks=7
	expect_eq "$(zone_field 1 wp)" $((2 * z - 6)) "zone 1's write pointer after a refused copy"
	nvme copy $DEV --sdlba=$((2 * z - 6)) --slbs=0 --blocks=5 ||
		fail "a copy that fills the zone"
	expect_state 1 FULL
	expect_nvme_status b9 "a copy into a full zone" \
		nvme copy $DEV --sdlba=$((z + 10)) --slbs=0 --blocks=0
	unload
}

# ext_report SLBA ZONES FILE: Extended Report Zones of ZONES zones from
# SLBA (128-byte extensions) into FILE, as raw bytes, by passthrough
ext_report() {
	local len=$((64 + $2 * 192))
	nvme io-passthru $DEV --opcode=0x7a --namespace-id=1 \
		--cdw10=$(($1 & 0xffffffff)) --cdw11=$(($1 >> 32)) \
		--cdw12=$((len / 4 - 1)) --cdw13=1 --data-len=$len -r -b >"$3" ||
		fail "Extended Report Zones at $1"
}

# zone_attrs ZSLBA: the Zone Attributes byte of the zone at ZSLBA, from a
# Report Zones by passthrough (nvme-cli 2.3's JSON "attrs" prints 0)
zone_attrs() {
	nvme io-passthru $DEV --opcode=0x7a --namespace-id=1 \
		--cdw10=$(($1 & 0xffffffff)) --cdw11=$(($1 >> 32)) \
		--cdw12=31 --data-len=128 -r -b >/tmp/za.bin ||
		fail "Report Zones at $1"
	od -An -tu1 -j66 -N1 /tmp/za.bin | tr -d ' '
}

# ext_of FILE I: the extension of the I-th descriptor of ext_report's FILE
ext_of() {
	dd if="$1" bs=64 skip=$((1 + $2 * 3 + 1)) count=2 2>/dev/null
}

# Zone descriptor extensions (zone_ext_bytes=128: ZDES 2) with nvme-cli,
# on 4096 and 512-byte blocks: set-zone-desc labels an Empty zone, which
# goes Closed with ZDEV; Extended Report Zones returns the label; a zone
# not Empty, an SLBA inside a zone, Select All and ZDES 0 are refused
# with their status and change nothing, a size not a multiple of 64
# fails the load; the label survives a write, a controller reset and a
# power cut, and a reset takes it away.
test_descriptor_extensions() {
	local lba zs bs
	for lba in 4096 512; do
		DEV=/dev/nvme0n1
		load_zoned lba_size=$lba zone_ext_bytes=128
		nvme zns id-ns $DEV -o json >/tmp/idn.json || fail "zns id-ns"
		expect_eq "$(jq -r '.lbafe[0].zdes' /tmp/idn.json)" 2 "ZDES ($lba)"
		zs=$(jq -r '.lbafe[0].zsze' /tmp/idn.json)
		bs=$((4096 / lba))
		head -c 128 /dev/urandom >/tmp/label
		head -c 128 /dev/zero >/tmp/zero128
		nvme zns set-zone-desc $DEV --start-lba=$((2 * zs)) \
			--data=/tmp/label || fail "set-zone-desc ($lba)"
		expect_state 2 CLOSED
		expect_eq "$(zone_attrs $((2 * zs)))" 128 "zone 2's attributes (ZDEV)"
		nvme zns report-zones $DEV --extended -s $((2 * zs)) -d 1 -v \
			>/tmp/ext.txt || fail "report-zones --extended"
		grep -q 'Zone Descriptor Extension is Vaild' /tmp/ext.txt ||
			fail "nvme-cli's extended report shows no ZDEV"
		ext_report $((2 * zs)) 2 /tmp/ext.bin
		ext_of /tmp/ext.bin 0 | cmp -s - /tmp/label ||
			fail "zone 2's extension ($lba)"
		ext_of /tmp/ext.bin 1 | cmp -s - /tmp/zero128 ||
			fail "zone 3's extension is not zeros"
		expect_nvme_status 1bf "set-zone-desc on a Closed zone" \
			nvme zns set-zone-desc $DEV --start-lba=$((2 * zs)) \
			--data=/tmp/label
		expect_nvme_status 002 "set-zone-desc inside zone 3" \
			nvme zns set-zone-desc $DEV --start-lba=$((3 * zs + 8)) \
			--data=/tmp/label
		expect_nvme_status 002 "Set Zone Descriptor Extension, Select All" \
			nvme zns zone-mgmt-send $DEV --zsa=0x10 --select-all \
			--data-len=128 --data=/tmp/label
		expect_state 3 EMPTY
		# A write opens it; the label stays through a controller reset.
		dd if=/dev/urandom of=$DEV bs=4096 seek=$((2 * zs / bs)) count=1 \
			oflag=direct 2>/dev/null || fail "write zone 2"
		expect_state 2 IMP_OPENED
		nvme reset $CTRL || fail "controller reset"
		wait_for $DEV
		expect_eq "$(zone_attrs $((2 * zs)))" 128 "ZDEV after a controller reset"
		ext_report $((2 * zs)) 1 /tmp/ext.bin
		ext_of /tmp/ext.bin 0 | cmp -s - /tmp/label ||
			fail "zone 2's extension after a controller reset"
		# A power cut keeps a label the command completed with.
		nvme zns set-zone-desc $DEV --start-lba=$((4 * zs)) \
			--data=/tmp/label || fail "set-zone-desc zone 4"
		F=/sys/class/vflash/vflash0/faults
		echo 0 >$F/power_cut/probability || fail "power_cut probability"
		echo 1 >$F/power_cut/armed || fail "arming power_cut"
		dd if=/dev/urandom of=$DEV bs=4096 seek=$((4 * zs / bs)) count=1 \
			oflag=direct 2>/dev/null || fail "write zone 4"
		echo 1 >$F/power_cut/cut || fail "the cut failed"
		DEV=$(wait_ns)
		expect_eq "$(zone_attrs $((4 * zs)))" 128 "zone 4's ZDEV after a cut"
		[ "$(zone_field 4 state)" != EMPTY ] ||
			fail "zone 4 is Empty after a cut"
		ext_report $((4 * zs)) 1 /tmp/ext.bin
		ext_of /tmp/ext.bin 0 | cmp -s - /tmp/label ||
			fail "zone 4's extension after a cut"
		nvme zns reset-zone $DEV --start-lba=$((2 * zs)) || fail "reset-zone"
		expect_eq "$(zone_attrs $((2 * zs)))" 0 "zone 2's attributes after reset"
		ext_report $((2 * zs)) 1 /tmp/ext.bin
		ext_of /tmp/ext.bin 0 | cmp -s - /tmp/zero128 ||
			fail "zone 2's extension after reset"
		unload
	done
	DEV=/dev/nvme0n1
	load_zoned
	head -c 64 /dev/urandom >/tmp/label
	expect_nvme_status 002 "Set Zone Descriptor Extension with ZDES 0" \
		nvme zns zone-mgmt-send $DEV --zsa=0x10 --start-lba=0 \
		--data-len=64 --data=/tmp/label
	expect_state 0 EMPTY
	expect_nvme_status 002 "Extended Report Zones with ZDES 0" \
		nvme io-passthru $DEV --opcode=0x7a --namespace-id=1 \
		--cdw12=255 --cdw13=1 --data-len=1024 -r
	unload
	expect_load_error "$EINVAL" "zone_ext_bytes=100: must be a multiple of 64" \
		frontend=nvme size=64M zoned=1 zone_ext_bytes=100
}

# Finish and Reset Recommended (zone_frl_s=1, zone_rrl_s=3) on 4096 and
# 512-byte blocks: Identify's FRL and RRL; once past the limits an open
# zone has FZR and RZR, a full one RZR, and both are on the Changed Zone
# List; Finish clears FZR and Reset both; a controller reset keeps them.
test_recommendations() {
	local lba zs bs
	for lba in 4096 512; do
		load_zoned lba_size=$lba zone_frl_s=1 zone_rrl_s=3
		nvme zns id-ns $DEV -o json >/tmp/idn.json || fail "zns id-ns"
		expect_eq "$(jq -r .frl /tmp/idn.json)" 1 "FRL ($lba)"
		expect_eq "$(jq -r .rrl /tmp/idn.json)" 3 "RRL ($lba)"
		zs=$(jq -r '.lbafe[0].zsze' /tmp/idn.json)
		bs=$((4096 / lba))
		dd if=/dev/urandom of=$DEV bs=4096 seek=$((zs / bs)) count=1 \
			oflag=direct 2>/dev/null || fail "write zone 1"
		nvme zns finish-zone $DEV --start-lba=$((3 * zs)) ||
			fail "finish-zone 3"
		expect_eq "$(zone_attrs $((5 * zs)))" 0 "an Empty zone's attributes"
		# Past both limits (the controller looks every 100 ms).
		sleep 5
		expect_eq "$(zone_attrs $zs)" 6 "zone 1: FZR and RZR"
		expect_eq "$(zone_attrs $((3 * zs)))" 4 "zone 3 (Full): RZR"
		expect_eq "$(zone_attrs $((5 * zs)))" 0 "an Empty zone's attributes"
		nvme zns changed-zone-list $DEV >/tmp/czl ||
			fail "changed-zone-list"
		cat /tmp/czl
		expect_eq "$(sed -n 's/^nrzid: *//p' /tmp/czl)" 2 "changed zones"
		expect_eq "$(sed -n 's/^zid 000: *//p' /tmp/czl)" $zs \
			"the first changed zone"
		expect_eq "$(sed -n 's/^zid 001: *//p' /tmp/czl)" $((3 * zs)) \
			"the second changed zone"
		nvme reset $CTRL || fail "controller reset"
		wait_for $DEV
		expect_eq "$(zone_attrs $zs)" 6 "zone 1 after a controller reset"
		nvme zns finish-zone $DEV --start-lba=$zs || fail "finish-zone 1"
		expect_eq "$(zone_attrs $zs)" 4 "zone 1 finished: RZR only"
		nvme zns reset-zone $DEV --start-lba=$zs || fail "reset-zone 1"
		expect_eq "$(zone_attrs $zs)" 0 "zone 1 reset"
		unload
	done
}

# ZRWA (docs/zns.md, Zone Random Write Area) with nvme-cli, on LBA size
# $ZLBS: ZRWAS 64K and ZRWAFG 16K, two resources. nvme-cli's own
# open-zone --zrwa and zrwa-flush-zone when it has them, else raw
# Zone Management Send (CDW13: action, bit 9 ZRWAA).
zrwa_load() {
	load_zoned lba_size="$ZLBS" zone_zrwa=1 zone_zrwa_size=64K \
		zone_zrwa_fg=16K zone_zrwa_nr=2 "$@"
	ZB=$((16 * 1048576 / ZLBS))	# blocks per zone
	ZW=$((65536 / ZLBS))		# ZRWAS
	ZG=$((16384 / ZLBS))		# ZRWAFG
}

# zms SLBA CDW13: a raw Zone Management Send
zms() {
	nvme io-passthru "$DEV" --opcode=0x79 --namespace-id=1 \
		--cdw10=$(($1 & 0xffffffff)) --cdw11=$(($1 >> 32)) --cdw13="$2"
}

# zrwa_open SLBA: Open with ZRWAA
zrwa_open() {
	if nvme zns open-zone --help 2>&1 | grep -q -- --zrwaa; then
		nvme zns open-zone "$DEV" --start-lba="$1" --zrwaa
	else
		zms "$1" $((0x203))
	fi
}

# zrwa_flush LBA: Flush Explicit ZRWA Range up to LBA
zrwa_flush() {
	if nvme zns help 2>&1 | grep -q zrwa-flush-zone; then
		nvme zns zrwa-flush-zone "$DEV" --lba="$1"
	else
		zms "$1" $((0x11))
	fi
}

# zrwa_write LBA COUNT FILE: COUNT blocks of FILE at LBA (passthrough:
# the block layer only writes at the write pointer)
zrwa_write() {
	nvme write "$DEV" --start-block="$1" --block-count=$(($2 - 1)) \
		--data-size=$(($2 * ZLBS)) --data="$3" >/dev/null
}

# zrwa_read LBA COUNT: COUNT blocks at LBA into /tmp/got
zrwa_read() {
	dd if="$DEV" of=/tmp/got bs="$ZLBS" skip="$1" count="$2" \
		iflag=direct 2>/dev/null || fail "reading $2 blocks at $1"
}

# zone_za ZONE: zone ZONE's attributes (descriptor byte 2), raw Report
zone_za() {
	nvme io-passthru "$DEV" --opcode=0x7a --namespace-id=1 \
		--cdw10=$((($1 * ZB) & 0xffffffff)) --cdw11=$((($1 * ZB) >> 32)) \
		--cdw12=$((4096 / 4 - 1)) --data-len=4096 -r -b >/tmp/rep.bin ||
		fail "Report Zones of zone $1"
	od -An -tu1 -j66 -N1 /tmp/rep.bin | tr -d ' '
}

# idns OFFSET SIZE: a field of Identify CNS 05h CSI 02h (raw)
idns() {
	nvme admin-passthru "$CTRL" --opcode=0x06 --namespace-id=1 --cdw10=5 \
		--cdw11=$((2 << 24)) --data-len=4096 -r -b >/tmp/idzns.bin ||
		fail "Identify CNS 05h"
	od -An -tu"$2" -j"$1" -N"$2" /tmp/idzns.bin | tr -d ' '
}

# test_zrwa LBS [PARAMS...]
test_zrwa() {
	local z1 z2 w0 wp
	ZLBS=$1
	shift
	zrwa_load "$@"
	z1=$ZB
	z2=$((2 * ZB))
	nvme zns id-ns "$DEV" | grep -Ei 'ozcs|zrwa' || true
	expect_eq $(($(idns 2 2) & 2)) 2 "OZCS ZRWASUP"
	expect_eq "$(idns 44 4)" 1 "NUMZRWA (0's based)"
	expect_eq "$(idns 48 2)" $ZG ZRWAFG
	expect_eq "$(idns 50 2)" $ZW ZRWAS
	expect_eq "$(idns 52 1)" 1 "ZRWACAP explicit flush"
	dd if=/dev/urandom of=/tmp/a bs=16384 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=16384 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/c bs=16384 count=1 2>/dev/null
	# Allocation: two resources; an implicitly opened zone takes none.
	zrwa_open $z1 || fail "open zone 1 with a ZRWA"
	expect_state 1 EXP_OPENED
	expect_eq "$(zone_za 1)" 8 "zone 1's attributes (ZRWAV)"
	zrwa_open $z2 || fail "open zone 2 with a ZRWA"
	expect_nvme_status 1b7 "a third ZRWA (resources unavailable)" \
		zrwa_open $((3 * ZB))
	expect_state 3 EMPTY
	dd if=/tmp/a of="$DEV" bs=16384 seek=$((4 * ZB * ZLBS / 16384)) \
		count=1 oflag=direct 2>/dev/null || fail "write to zone 4"
	expect_eq "$(zone_za 4)" 0 "an implicitly opened zone's attributes"
	expect_nvme_status 1b6 "ZRWAA on an open zone" zrwa_open $((4 * ZB))
	expect_nvme_status 002 "ZRWAA with Select All" \
		zms 0 $((0x303))
	# Writes anywhere in the window, out of order, overwrites: no
	# program on the flash (host_write_pages counts what reaches it).
	w0=$(zstat host_write_pages)
	zrwa_write $((z1 + ZG)) $ZG /tmp/a || fail "write at wp + ZRWAFG"
	zrwa_write $z1 $ZG /tmp/b || fail "write at wp"
	zrwa_write $((z1 + ZG)) $ZG /tmp/c || fail "overwrite"
	expect_eq "$(zstat host_write_pages)" "$w0" "host_write_pages (window)"
	expect_eq "$(zone_field 1 wp)" $z1 "write pointer (nothing flushed)"
	zrwa_read $z1 $((2 * ZG))
	cat /tmp/b /tmp/c | cmp -s - /tmp/got || fail "the window's data"
	expect_nvme_status 1bc "a write past twice the window" \
		zrwa_write $((z1 + 2 * ZW)) 1 /tmp/a
	expect_nvme_status 1b6 "zone append to a ZRWA zone" \
		nvme zns zone-append "$DEV" --zslba=$z1 --data-size="$ZLBS" \
		--data=/tmp/a
	# Explicit flush: granularity and window checked, then 2 x ZRWAFG.
	if [ "$ZG" -gt 1 ]; then
		expect_nvme_status 002 "a flush off the granularity" \
			zrwa_flush $z1
	fi
	expect_nvme_status 1b8 "a flush past the window" \
		zrwa_flush $((z1 + ZW))
	zrwa_flush $((z1 + 2 * ZG - 1)) || fail "zrwa flush"
	wp=$((z1 + 2 * ZG))
	expect_eq "$(zone_field 1 wp)" $wp "write pointer after the flush"
	expect_eq "$(zstat host_write_pages)" $((w0 + 8)) \
		"host_write_pages after flushing 32K"
	expect_nvme_status 1bc "a write below the write pointer" \
		zrwa_write $((wp - 1)) 1 /tmp/a
	# A write into the implicit flush area: the pointer moves ZRWAFG.
	zrwa_write $((wp + ZW)) $ZG /tmp/a || fail "write past the window"
	wp=$((wp + ZG))
	expect_eq "$(zone_field 1 wp)" $wp "write pointer after an implicit flush"
	zrwa_read $z1 $((2 * ZG))
	cat /tmp/b /tmp/c | cmp -s - /tmp/got || fail "flushed data"
	# A controller reset keeps the window (the device stays powered).
	nvme reset "$CTRL" || fail "nvme reset"
	wait_for "$DEV"
	expect_eq "$(zone_za 1)" 8 "ZRWAV after a controller reset"
	expect_eq "$(zone_field 1 wp)" $wp "write pointer after a reset"
	zrwa_read $((wp + ZW - ZG)) $ZG
	cmp -s /tmp/got /tmp/a || fail "window data after a controller reset"
	# Close keeps it; Finish flushes it and frees it; Reset frees it.
	nvme zns close-zone "$DEV" --start-lba=$z1 || fail "close-zone"
	expect_state 1 CLOSED
	expect_eq "$(zone_za 1)" 8 "ZRWAV of a closed zone"
	nvme zns finish-zone "$DEV" --start-lba=$z1 || fail "finish-zone"
	expect_state 1 FULL
	expect_eq "$(zone_za 1)" 0 "attributes after finish"
	zrwa_read $((wp + ZW - ZG)) $ZG
	cmp -s /tmp/got /tmp/a || fail "finish kept the window's data"
	nvme zns reset-zone "$DEV" --start-lba=$z2 || fail "reset zone 2"
	expect_eq "$(zone_za 2)" 0 "attributes after reset"
	# Both resources free again.
	zrwa_open $((3 * ZB)) || fail "open zone 3 with a freed ZRWA"
	zrwa_open $((5 * ZB)) || fail "open zone 5 with a freed ZRWA"
	unload
}

# A power cut and a ZRWA window (docs/faults.md): without plp the window
# is lost, the write pointer stays at the last flushed point, the zone is
# Closed, its blocks read zeros; with plp the window is flushed. The ZRWA
# is gone either way.
test_zrwa_cut() {
	local F=/sys/class/vflash/vflash0/faults z1
	ZLBS=$1
	shift
	zrwa_load "$@"
	z1=$ZB
	dd if=/dev/urandom of=/tmp/a bs=16384 count=1 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=16384 count=1 2>/dev/null
	dd if=/dev/zero of=/tmp/z bs=16384 count=1 2>/dev/null
	echo 0 >$F/power_cut/probability || fail "probability"
	echo 1 >$F/power_cut/armed || fail "arm power_cut"
	zrwa_open $z1 || fail "open zone 1 with a ZRWA"
	zrwa_write $z1 $ZG /tmp/a || fail "write the first ZRWAFG"
	zrwa_write $((z1 + ZG)) $ZG /tmp/b || fail "write the second"
	zrwa_flush $((z1 + ZG - 1)) || fail "flush the first"
	nvme flush "$DEV" || fail "flush"
	echo 1 >$F/power_cut/cut || fail "the cut"
	DEV=$(wait_ns)
	CTRL=${DEV%n1}
	dmesg | grep -i 'zrwa' || true
	expect_eq "$(zone_field 1 wp)" $((z1 + ZG)) "write pointer after the cut"
	expect_state 1 CLOSED
	expect_eq "$(zone_za 1)" 0 "ZRWAV after the cut"
	zrwa_read $z1 $ZG
	cmp -s /tmp/got /tmp/a || fail "the flushed blocks after the cut"
	zrwa_read $((z1 + ZG)) $ZG
	cmp -s /tmp/got /tmp/z || fail "the lost window does not read zeros"
	# The zone takes writes at its pointer again.
	dd if=/tmp/b of="$DEV" bs=16384 seek=$(((z1 + ZG) * ZLBS / 16384)) \
		count=1 oflag=direct 2>/dev/null || fail "write at the pointer"
	# With plp: the window is flushed at the cut.
	echo 1 >$F/plp || fail "plp=1"
	echo 0 >$F/power_cut/probability || fail "probability"
	echo 1 >$F/power_cut/armed || fail "arm power_cut"
	zrwa_open $((2 * ZB)) || fail "open zone 2 with a ZRWA"
	zrwa_write $((2 * ZB + ZG)) $ZG /tmp/b || fail "write into the window"
	echo 1 >$F/power_cut/cut || fail "the cut"
	DEV=$(wait_ns)
	CTRL=${DEV%n1}
	expect_eq "$(zone_field 2 wp)" $((2 * ZB + 2 * ZG)) \
		"write pointer after a plp cut"
	expect_eq "$(zone_za 2)" 0 "ZRWAV after a plp cut"
	zrwa_read $((2 * ZB + ZG)) $ZG
	cmp -s /tmp/got /tmp/b || fail "the window after a plp cut"
	zrwa_read $((2 * ZB)) $ZG
	cmp -s /tmp/got /tmp/z || fail "the unwritten blocks after a plp cut"
	unload
}


# nvme_state: what a drive keeps across a power cycle, as the host sees
# it: every zone's start, write pointer and state, zone 4's descriptor
# extension, the namespace lists, namespace 2's data and its one
# uncorrectable block, SMART's write counters
nvme_state() {
	zone_json
	jq -c '[.zone_list[] | [.slba, .wp, .state]]' /tmp/zones.json
	ext_report $((4 * ZS)) 1 /tmp/ext.bin
	ext_of /tmp/ext.bin 0 | md5sum
	nvme list-ns $CTRL --all || fail "list-ns --all"
	nvme list-ns $CTRL || fail "list-ns"
	dd if=$NS2 bs=4096 count=100 iflag=direct 2>/dev/null | md5sum
	if dd if=$NS2 of=/dev/null bs=4096 skip=100 count=1 \
		iflag=direct 2>/dev/null; then
		echo "block 100 of namespace 2 reads"
	fi
	nvme smart-log $CTRL -o json |
		jq -c '[.host_write_commands, .data_units_written, .unsafe_shutdowns]'
}

power_cycles() {
	nvme smart-log $CTRL -o json | jq -r .power_cycles
}

# ns_names: DEV and NS2, the block devices of NSIDs 1 and 2 (6.12 scans
# namespaces in parallel: its nvme0n1 may be NSID 2 after a probe)
ns_names() {
	local d n=0

	while [ $n -lt 100 ]; do
		DEV= NS2=
		for d in /sys/block/nvme0n*; do
			[ -e "$d/nsid" ] || continue
			case $(cat "$d/nsid") in
			1) DEV=/dev/${d##*/} ;;
			2) NS2=/dev/${d##*/} ;;
			esac
		done
		[ -n "$DEV" ] && [ -n "$NS2" ] && [ -b "$DEV" ] && [ -b "$NS2" ] &&
			return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "namespaces 1 and 2 did not appear"
}

# nvme_state_running: the held device runs; its namespaces come back
nvme_state_running() {
	echo running >$SYS/state || fail "state=running"
	ns_names
}

# What a drive keeps across a power cycle comes back after a hold, and
# through an image into a new device (docs/images.md): zones in every
# state with their write pointers, a descriptor extension, a namespace
# Namespace Management made, a Write Uncorrectable mark, SMART's
# counters (a hold is a power cycle: Power Cycles counts it). An image
# of other zone parameters is refused with one line, nothing changed.
test_state_kept() {
	local nsid pc

	set -- frontend=nvme size=256M zoned=1 ns1_size=128M \
		zone_ext_bytes=128
	load "$@"
	wait_for $DEV
	make_pattern
	write_at 0 8 || fail "write zone 0"
	nvme zns finish-zone $DEV --start-lba=0 || fail "finish zone 0"
	write_at $ZS 8 || fail "write zone 1"
	nvme zns open-zone $DEV --start-lba=$((2 * ZS)) || fail "open zone 2"
	write_at $((3 * ZS)) 4 || fail "write zone 3"
	nvme zns close-zone $DEV --start-lba=$((3 * ZS)) || fail "close zone 3"
	head -c 128 /dev/urandom >/tmp/label
	nvme zns set-zone-desc $DEV --start-lba=$((4 * ZS)) \
		--data=/tmp/label || fail "set-zone-desc"
	nsid=$(nvme create-ns $CTRL --nsze=16384 --ncap=16384 --flbas=0 |
		sed -n 's/.*created nsid:\([0-9]*\).*/\1/p')
	expect_eq "$nsid" 2 "the new namespace"
	nvme attach-ns $CTRL --namespace-id=2 --controllers=1 >/dev/null ||
		fail "attach-ns 2"
	ns_names
	dd if=/dev/urandom of=$NS2 bs=4096 count=256 oflag=direct \
		2>/dev/null || fail "write namespace 2"
	nvme write-uncor $NS2 --start-block=100 --block-count=0 \
		>/dev/null || fail "write-uncor"
	nvme_state >/tmp/state.0
	cat /tmp/state.0
	# Empty, Full, implicitly and explicitly open, Closed
	expect_eq "$(jq -r '[.zone_list[].state] | unique | length' \
		/tmp/zones.json)" 5 "zone states before the hold"
	grep -q 'reads' /tmp/state.0 && fail "the uncorrectable block reads"
	pc=$(power_cycles)

	hold_nvme
	nvme_state_running
	nvme_state >/tmp/state.1
	diff /tmp/state.0 /tmp/state.1 || fail "state after a hold"
	expect_eq "$(power_cycles)" $((pc + 1)) "power cycles after a hold"

	hold_nvme
	save_image
	unload
	restore_image "$@"
	nvme_state_running
	nvme_state >/tmp/state.2
	diff /tmp/state.0 /tmp/state.2 || fail "state after a restore"
	expect_eq "$(power_cycles)" $((pc + 2)) "power cycles after a restore"
	# Its zones take writes where they left off.
	write_at $((ZS + 8)) 8 || fail "write at zone 1's write pointer"
	expect_eq "$(zone_field 1 wp)" $((ZS + 16)) "zone 1's write pointer"
	unload

	DEV=/dev/nvme0n1
	load hold=1 frontend=nvme size=256M zoned=1 ns1_size=128M \
		zone_ext_bytes=128 zone_size=8M
	dmesg -c >/dev/null
	if dd if=$IMG of=$SYS/image bs=64k 2>/dev/null; then
		fail "an image of 16 MiB zones into 8 MiB zones"
	fi
	expect_eq "$(dmesg | grep -c 'image:')" 1 "dmesg lines"
	dmesg | grep -q 'image: nvme: zones of' ||
		fail "no line naming the zones: $(dmesg | grep 'image:')"
	echo running >$SYS/state || fail "running after a refused image"
	wait_for $DEV
	zone_json
	expect_eq "$(jq -r '[.zone_list[] | select(.state == "EMPTY")] | length' \
		/tmp/zones.json)" "$(jq -r .nr_zones /tmp/zones.json)" \
		"empty zones after a refused image"
	unload
	expect_gone
}

run_test discovery test_discovery
run_test writes_at_the_write_pointer test_writes_at_the_write_pointer
run_test zone_append test_zone_append
run_test transitions test_transitions
run_test zone_backend test_zone_backend
run_test resources test_resources
run_test fio_zbd test_fio_zbd
run_test read_only_zone test_read_only_zone
run_test passthrough_reset test_passthrough_reset
run_test zonefs test_zonefs
run_test btrfs test_btrfs
run_test fuzz test_fuzz
run_test zn540_profile test_zn540_profile
run_test not_zoned test_not_zoned
run_test bad_params test_bad_params
run_test conformance test_conformance
run_test copy_zoned test_copy_zoned
run_test descriptor_extensions test_descriptor_extensions
run_test recommendations test_recommendations
run_test zrwa_4096 test_zrwa 4096
run_test zrwa_512_sparse test_zrwa 512 store=sparse
run_test zrwa_cut_4096_sparse test_zrwa_cut 4096 store=sparse
run_test zrwa_cut_512 test_zrwa_cut 512
run_test state_kept test_state_kept
