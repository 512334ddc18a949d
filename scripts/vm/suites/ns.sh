# SPDX-License-Identifier: GPL-2.0
# Several namespaces on one controller (Namespace Management and
# Attachment; docs/zns.md, Namespaces): nvme-cli's create-ns, attach-ns,
# detach-ns, delete-ns, list-ns, id-ns and list-ctrl; the block devices
# appear and go as Linux rescans (the Namespace Attribute Changed event,
# the effects log); two namespaces never see each other's data, a deleted
# one's data is gone; a conventional and a zoned namespace carry one f2fs
# (mkfs.f2fs -m, the zoned one a device of the conventional one); every
# bad command gets its status; the command fuzzer with namespace commands.
# vmtest-mem: 3G
# vmtest-timeout: 420
# vmtest-prep: scripts/vm/nsprep.sh

CTRL=/dev/nvme0
PATH=/usr/local/bin:$PATH

# ns_dev NSID: the block device of namespace NSID (the kernel names disks
# by its own index, not by NSID), once it is there (10 s)
ns_dev() {
	local n=0 d
	while [ $n -lt 100 ]; do
		for d in /sys/block/nvme0n*; do
			[ -e "$d/nsid" ] || continue
			[ "$(cat "$d/nsid")" = "$1" ] || continue
			[ -b "/dev/${d##*/}" ] || continue
			echo "/dev/${d##*/}"
			return 0
		done
		sleep 0.1
		n=$((n + 1))
	done
	echo "vmtest: no block device for namespace $1 after 10 s" >&2
	return 1
}

# ns_gone NSID: no block device has namespace NSID any more (10 s)
ns_gone() {
	local n=0 d there
	while [ $n -lt 100 ]; do
		there=0
		for d in /sys/block/nvme0n*; do
			[ -e "$d/nsid" ] && [ "$(cat "$d/nsid")" = "$1" ] && there=1
		done
		[ $there -eq 1 ] || return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "namespace $1's block device is still there after 10 s"
}

# idc FIELD...: those fields of one Identify Controller, as nvme-cli's
# JSON has them, a line each (nvme-cli and jq start in a second or more
# each under the debug kernel: one of each for several fields read at
# one moment)
idc() {
	local f q=""
	for f in "$@"; do
		q="$q${q:+, }.$f"
	done
	nvme id-ctrl $CTRL -o json | jq -r "$q"
}

# create SIZE_BLOCKS [ARGS...]: nvme create-ns; prints the new NSID
create() {
	local out blocks=$1
	shift
	out=$(nvme create-ns $CTRL --nsze="$blocks" --ncap="$blocks" --flbas=0 "$@" 2>&1) ||
		fail "create-ns $blocks $*: $out"
	echo "$out" | sed -n 's/.*created nsid:\([0-9]*\).*/\1/p'
}

attach() {
	nvme attach-ns $CTRL --namespace-id="$1" --controllers=1 >/dev/null ||
		fail "attach-ns $1"
}

detach() {
	nvme detach-ns $CTRL --namespace-id="$1" --controllers=1 >/dev/null ||
		fail "detach-ns $1"
}

delete() {
	nvme delete-ns $CTRL --namespace-id="$1" >/dev/null || fail "delete-ns $1"
}

# listed [ARGS...]: the NSIDs list-ns prints, on one line
listed() {
	nvme list-ns $CTRL "$@" | sed -n 's/.*\]:0x\([0-9a-f]*\).*/\1/p' |
		while read -r x; do printf '%d ' "0x$x"; done
}

# raw_status ADMIN_OPCODE NSID CDW10 CDW11 LEN: the status of one admin
# command with a zeroed buffer (nvme_fuzz raw), e.g. 0x400b
raw_status() {
	nvme_fuzz raw $CTRL admin "$1" "$2" "$3" "$4" 0 "$5" |
		sed -n 's/^status=\([^ ]*\).*/\1/p'
}

load_ns() {
	load frontend=nvme "$@"
	wait_for $CTRL
}

# Without ns1_size= a load is what it always was: namespace 1 over the
# whole device, nothing left to create a namespace in.
test_default_unchanged() {
	load_ns size=64M
	wait_for /dev/nvme0n1
	expect_eq "$(listed)" "1 " "active namespaces"
	expect_eq "$(listed --all)" "1 " "allocated namespaces"
	expect_eq "$(nvme id-ns /dev/nvme0n1 -o json | jq -r .nsze)" 16384 NSZE
	idc nn oacs tnvmcap unvmcap >/tmp/idc
	expect_eq "$(sed -n 1p /tmp/idc)" 32 NN
	expect_eq "$(( $(sed -n 2p /tmp/idc) & 8 ))" 8 "OACS namespace management"
	expect_eq "$(sed -n 3p /tmp/idc)" $((64 << 20)) TNVMCAP
	expect_eq "$(sed -n 4p /tmp/idc)" 0 UNVMCAP
	expect_nvme_status 115 "a create on a full device" \
		nvme create-ns $CTRL --nsze=1 --ncap=1 --flbas=0
	unload
}

# A namespace's life through nvme-cli: created (allocated, inactive),
# attached (its block device appears), detached (it goes), deleted (its
# capacity is back).
test_life() {
	local d
	load_ns size=256M ns1_size=64M
	wait_for /dev/nvme0n1
	expect_eq "$(idc unvmcap)" $((192 << 20)) "UNVMCAP before"
	dmesg -c >/dev/null
	expect_eq "$(create 16384)" 2 "the new NSID"
	expect_eq "$(idc unvmcap)" $((128 << 20)) "UNVMCAP after a create"
	expect_eq "$(listed)" "1 " "active namespaces"
	expect_eq "$(listed --all)" "1 2 " "allocated namespaces"
	expect_eq "$(nvme id-ns $CTRL -n 2 -o json | jq -r .nsze)" 0 \
		"NSZE of an inactive namespace (zeros)"
	expect_eq "$(nvme id-ns $CTRL -n 2 --force -o json | jq -r .nsze)" 16384 \
		"NSZE of the allocated namespace (CNS 11h)"
	attach 2
	d=$(ns_dev 2) || fail "no block device for namespace 2"
	expect_eq "$(blockdev --getsize64 "$d")" $((64 << 20)) "its size"
	expect_eq "$(listed)" "1 2 " "active namespaces after the attach"
	nvme list-ctrl $CTRL -n 2 | tee /tmp/lc
	grep -q '0x1' /tmp/lc || fail "list-ctrl -n 2 does not show controller 1"
	# Linux learnt of it from the Namespace Attribute Changed event too.
	dmesg | grep -q 'rescanning namespaces' ||
		fail "no rescan on the namespace attribute event"
	expect_eq "$(vflashctl namespace | tr '\n' ' ')" "/dev/nvme0n1 $d " \
		"vflashctl namespace"
	vflashctl namespace "$d" >/dev/null || fail "vflashctl: $d is not vflash's"
	detach 2
	ns_gone 2
	expect_eq "$(listed)" "1 " "active namespaces after the detach"
	delete 2
	expect_eq "$(listed --all)" "1 " "allocated namespaces after the delete"
	expect_eq "$(idc unvmcap)" $((192 << 20)) "UNVMCAP after the delete"
	expect_eq "$(vflashctl namespace)" /dev/nvme0n1 "vflashctl namespace"
	unload
}

# Three namespaces side by side: writing one changes none of the others,
# at their edges either; a deleted namespace's data is gone, so one made
# in its place reads zeros. 8 MiB each, 4 MiB on a light run (lib.sh).
test_data_isolation() {
	local n1=/dev/nvme0n1 n2 n3 n4 i mib
	mib=$(light 8 4)
	load_ns size=$((4 * mib))M ns1_size="$mib"M
	wait_for $n1
	expect_eq "$(create $((mib * 256)))" 2 NSID
	expect_eq "$(create $((mib * 256)))" 3 NSID
	attach 2
	attach 3
	n2=$(ns_dev 2) && n3=$(ns_dev 3) || fail "block devices"
	for i in 1 2 3; do
		dd if=/dev/urandom of=/tmp/p$i bs=1M count="$mib" 2>/dev/null
	done
	dd if=/tmp/p1 of=$n1 bs=1M oflag=direct 2>/dev/null || fail "write ns 1"
	dd if=/tmp/p2 of="$n2" bs=1M oflag=direct 2>/dev/null || fail "write ns 2"
	dd if=/tmp/p3 of="$n3" bs=1M oflag=direct 2>/dev/null || fail "write ns 3"
	cmp $n1 /tmp/p1 || fail "namespace 1 read back"
	cmp "$n2" /tmp/p2 || fail "namespace 2 read back"
	cmp "$n3" /tmp/p3 || fail "namespace 3 read back"
	# Namespace 2 over again: 1 and 3, its neighbours, keep theirs.
	dd if=/dev/zero bs=1M count="$mib" 2>/dev/null | tr '\0' '\377' >/tmp/ff
	dd if=/tmp/ff of="$n2" bs=1M oflag=direct 2>/dev/null || fail "rewrite ns 2"
	blkdiscard -o 0 -l $((1 << 20)) "$n2" || fail "blkdiscard on ns 2"
	cmp $n1 /tmp/p1 || fail "namespace 1 changed by a write to namespace 2"
	cmp "$n3" /tmp/p3 || fail "namespace 3 changed by a write to namespace 2"
	dd if=/dev/zero bs=1M count=1 2>/dev/null >/tmp/z1
	dd if=/tmp/ff bs=1M skip=1 2>/dev/null >>/tmp/z1
	cmp "$n2" /tmp/z1 || fail "namespace 2 read back after its rewrite"
	# Namespace 3 deleted; a new one (NSID 3 again) takes its pages and
	# reads zeros.
	detach 3
	ns_gone 3
	delete 3
	expect_eq "$(create $((mib * 256)))" 3 "the NSID made again"
	attach 3
	n4=$(ns_dev 3) || fail "block device of the new namespace 3"
	dd if=/dev/zero bs=1M count="$mib" 2>/dev/null >/tmp/z8
	cmp "$n4" /tmp/z8 || fail "a namespace made where another was reads its data"
	cmp $n1 /tmp/p1 || fail "namespace 1 changed"
	unload
}

# f2fs over a conventional namespace (its metadata) and a zoned one (its
# sequential zones) of one controller: mkfs.f2fs -m, mount, write, remount,
# read back.
test_f2fs_conventional_and_zoned() {
	local conv=/dev/nvme0n1 zoned i
	load_ns size=512M ns1_size=128M zone_size=16M store=sparse
	wait_for $conv
	# 384 MiB of 4 KiB blocks: 24 zones of 16 MiB.
	expect_eq "$(create 98304 --csi=2)" 2 "the zoned namespace's NSID"
	attach 2
	zoned=$(ns_dev 2) || fail "no block device for the zoned namespace"
	expect_eq "$(cat /sys/block/${zoned#/dev/}/queue/zoned)" host-managed zoned
	expect_eq "$(cat /sys/block/nvme0n1/queue/zoned)" none "namespace 1"
	nvme zns id-ns "$zoned" -o json | jq -r '.lbafe[0].zsze' >/tmp/zsze
	expect_eq "$(cat /tmp/zsze)" 4096 ZSZE
	# f2fs asks the crypto API for crc32 (not built into these kernels).
	modprobe crc32_generic || fail "modprobe crc32_generic"
	insmod /vflash/f2fs.ko 2>/dev/null || grep -q '^f2fs ' /proc/modules ||
		fail "insmod f2fs.ko"
	mkfs.f2fs -f -m -c "$zoned" $conv >/tmp/mkfs.out 2>&1 ||
		{ cat /tmp/mkfs.out; fail "mkfs.f2fs -m -c $zoned $conv"; }
	mkdir -p /mnt
	mount -t f2fs $conv /mnt || { dmesg | tail -n 20; fail "mount f2fs"; }
	dd if=/dev/urandom of=/tmp/big bs=1M count=64 2>/dev/null
	cp /tmp/big /mnt/big || fail "writing a file"
	for i in 1 2 3 4 5 6 7 8; do
		head -c $((i * 3000)) /tmp/big >/mnt/small$i || fail "small file $i"
	done
	sync
	umount /mnt || fail umount
	# The data went to the zoned namespace's zones.
	blkzone report "$zoned" | grep -vc 'em)' >/tmp/used || true
	[ "$(cat /tmp/used)" -gt 0 ] || fail "no zone of the zoned namespace was written"
	mount -t f2fs $conv /mnt || fail "remount f2fs"
	cmp /tmp/big /mnt/big || fail "big file read back"
	for i in 1 2 3 4 5 6 7 8; do
		head -c $((i * 3000)) /tmp/big | cmp - /mnt/small$i ||
			fail "small file $i read back"
	done
	umount /mnt || fail umount
	unload
}

# Every refusal's status (the NVMe status nvme-cli prints; nvme_fuzz raw
# where nvme-cli will not send the command), and nothing hangs.
test_bad_commands() {
	local i p1 p2
	load_ns size=64M ns1_size=32M
	wait_for /dev/nvme0n1
	expect_nvme_status 115 "more than the unallocated capacity" \
		nvme create-ns $CTRL --nsze=$((33 * 256)) --ncap=$((33 * 256)) --flbas=0
	expect_nvme_status 11b "NCAP below NSZE" \
		nvme create-ns $CTRL --nsze=256 --ncap=128 --flbas=0
	expect_nvme_status 10a "LBA format 1" \
		nvme create-ns $CTRL --nsze=256 --ncap=256 --flbas=1
	expect_nvme_status 129 "command set 1" \
		nvme create-ns $CTRL --nsze=256 --ncap=256 --flbas=0 --csi=1
	expect_nvme_status 2 "a zoned size of no whole zones" \
		nvme create-ns $CTRL --nsze=1000 --ncap=1000 --flbas=0 --csi=2
	# NSZE 0 (a zeroed buffer), Namespace Attachment of NSID 0.
	expect_eq "$(raw_status 0x0d 0 0 0 4096)" 0x4002 "a create of 0 blocks"
	expect_eq "$(raw_status 0x15 0 0 0 4096)" 0x400b "an attach of NSID 0"
	expect_eq "$(raw_status 0x15 0xffffffff 0 0 4096)" 0x400b \
		"an attach of NSID FFFFFFFFh"
	expect_eq "$(raw_status 0x0d 0 1 0 0)" 0x400b "a delete of NSID 0"
	expect_eq "$(raw_status 0x0d 0 2 0 0)" 0x4002 "operation 2"
	expect_eq "$(raw_status 0x06 0xfffffffe 2 0 4096)" 0x400b \
		"the active list from FFFFFFFEh"
	expect_eq "$(raw_status 0x06 33 0 0 4096)" 0x400b "Identify of NSID 33"
	expect_eq "$(raw_status 0x06 3 3 0 4096)" 0x4002 \
		"the descriptors of an inactive NSID"
	expect_eq "$(create 256)" 2 NSID
	expect_nvme_status 11a "a detach of a namespace not attached" \
		nvme detach-ns $CTRL --namespace-id=2 --controllers=1
	attach 2
	ns_dev 2 >/dev/null || fail "no block device for namespace 2"
	expect_nvme_status 118 "a second attach" \
		nvme attach-ns $CTRL --namespace-id=2 --controllers=1
	expect_nvme_status 11c "another controller" \
		nvme attach-ns $CTRL --namespace-id=2 --controllers=2
	expect_nvme_status 2 "an attach of an unallocated NSID" \
		nvme attach-ns $CTRL --namespace-id=5 --controllers=1
	expect_nvme_status 2 "a delete of an unallocated NSID" \
		nvme delete-ns $CTRL --namespace-id=5
	# MNAN: 32 namespaces, then no NSID is left. The 30 creates go in
	# two streams (nvme-cli's start is most of a create's time under the
	# debug kernel, about 1 s; which stream gets which NSID is not
	# checked), each failing on its first refusal.
	(for i in $(seq 3 17); do create 1 >/dev/null; done) &
	p1=$!
	(for i in $(seq 18 32); do create 1 >/dev/null; done) &
	p2=$!
	wait $p1 || fail "a create of the first 15"
	wait $p2 || fail "a create of the second 15"
	expect_eq "$(listed --all | wc -w)" 32 "allocated namespaces"
	expect_nvme_status 116 "a 33rd namespace" \
		nvme create-ns $CTRL --nsze=1 --ncap=1 --flbas=0
	# The controller still works; then every namespace goes at once.
	dd if=/dev/nvme0n1 of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null ||
		fail "a read after the bad commands"
	! dmesg | grep -Ei 'nvme.*(timeout|resetting)' || fail "the driver timed out"
	delete 4294967295
	expect_eq "$(listed --all)" "" "allocated namespaces after deleting all"
	ns_gone 1
	ns_gone 2
	expect_eq "$(idc unvmcap)" $((64 << 20)) "UNVMCAP after deleting all"
	unload
}

# A namespace detached (and deleted) while a reader is at it: the reader
# gets an error, nothing hangs, the other namespace is fine.
test_detach_under_io() {
	local d pid rc=0
	load_ns size=64M ns1_size=32M
	wait_for /dev/nvme0n1
	expect_eq "$(create 4096)" 2 NSID
	attach 2
	d=$(ns_dev 2) || fail "block device"
	dmesg -c >/dev/null
	(while dd if="$d" of=/dev/null bs=64k iflag=direct 2>/dev/null; do :; done) &
	pid=$!
	sleep 1
	detach 2
	ns_gone 2
	delete 2
	# The reader stops (its device went) within 10 s.
	for _ in $(seq 100); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -0 $pid 2>/dev/null && { kill $pid; fail "the reader still runs"; }
	wait $pid || rc=$?
	echo "reader exit status $rc"
	# A read that reached the detached namespace got Invalid Field.
	dmesg | grep "${d#/dev/}: I/O Cmd" >/tmp/ioerr || true
	cat /tmp/ioerr
	! grep -v 'sc 0x2)\|Invalid Field' /tmp/ioerr ||
		fail "a read of the detached namespace got another status"
	dd if=/dev/nvme0n1 of=/dev/null bs=64k count=64 iflag=direct 2>/dev/null ||
		fail "namespace 1 after the detach"
	! dmesg | grep -Ei 'nvme.*(timeout|resetting)' || fail "the driver timed out"
	unload
}

# The Changed Namespace List: with Namespace Attribute Notices off, the
# event is not sent and the list keeps the NSID until it is read (Linux
# still rescans, told by the effects log).
test_changed_ns_log() {
	load_ns size=64M ns1_size=32M
	wait_for /dev/nvme0n1
	nvme set-feature $CTRL --feature-id=0x0b --value=0 >/dev/null ||
		fail "set-feature 0Bh"
	expect_eq "$(create 256)" 2 NSID
	attach 2
	ns_dev 2 >/dev/null || fail "the namespace did not appear"
	nvme get-log $CTRL --log-id=4 --log-len=4096 --raw-binary >/tmp/log4 ||
		fail "get-log 04h"
	expect_eq "$(od -An -tu4 -N8 /tmp/log4 | tr -s ' ')" " 2 0" "the list"
	nvme get-log $CTRL --log-id=4 --log-len=4096 --raw-binary >/tmp/log4 ||
		fail "get-log 04h"
	expect_eq "$(od -An -tu4 -N8 /tmp/log4 | tr -s ' ')" " 0 0" \
		"the list once read"
	unload
}

# ns1_size=0: a controller with no namespace; one created and attached is
# /dev/nvme0n1, and stays across a controller reset.
test_no_namespace_at_load() {
	load_ns size=64M ns1_size=0
	sleep 1
	expect_eq "$(listed --all)" "" "allocated namespaces"
	[ ! -e /dev/nvme0n1 ] || fail "/dev/nvme0n1 without a namespace"
	expect_eq "$(idc unvmcap)" $((64 << 20)) UNVMCAP
	expect_eq "$(create 16384)" 1 NSID
	attach 1
	ns_dev 1 >/dev/null || fail "no block device"
	dd if=/dev/urandom of=/tmp/p bs=1M count=4 2>/dev/null
	dd if=/tmp/p of="$(ns_dev 1)" bs=1M oflag=direct 2>/dev/null || fail write
	echo 1 >/sys/class/nvme/nvme0/reset_controller
	sleep 2
	expect_eq "$(listed)" "1 " "active namespaces after a reset"
	head -c $((4 << 20)) "$(ns_dev 1)" | cmp - /tmp/p || fail "data after a reset"
	unload
}

# The command fuzzer, namespace commands among its admin commands, with
# room for namespaces (they come and go during the run): every command
# gets its status; afterwards the namespaces' capacities and the
# unallocated capacity add up to the device, and namespace 1 takes fio's
# verify.
test_fuzz() {
	local seed id sum=0
	# 10 s of commands, 6 s on a light run (lib.sh)
	load_ns size=96M ns1_size=32M
	wait_for /dev/nvme0n1
	wait_for /dev/ng0n1
	dmesg -c >/dev/null
	seed=$(date +%s)
	nvme_fuzz fuzz $CTRL /dev/ng0n1 -s "$seed" -n 8000 -t "$(light 10 6)" ||
		fail "nvme_fuzz (seed $seed)"
	! dmesg | grep -Ei 'nvme.*(timeout|resetting)' ||
		fail "the driver complained during the fuzz"
	echo "allocated after the fuzz: $(listed --all)"
	for id in $(listed --all); do
		sum=$((sum + $(nvme id-ns $CTRL -n "$id" --force -o json | jq -r .nsze)))
	done
	expect_eq $((sum * 4096 + $(idc unvmcap))) $((96 << 20)) \
		"the namespaces' capacity and UNVMCAP"
	fio --name=after --filename=/dev/nvme0n1 --direct=1 --ioengine=libaio \
		--iodepth=8 --rw=randwrite --bs=4k --size="$(light 8M 4M)" --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio verify after the fuzz"; }
	unload
}

# The parameter's refusals, and a configfs device with its attribute.
test_params() {
	expect_load_error 'Invalid (parameters|argument)' \
		"ns1_size=3000: must be a multiple of 4K" \
		frontend=nvme size=64M ns1_size=3000
	expect_load_error 'Invalid (parameters|argument)' \
		"ns1_size=134217728: larger than the device" \
		frontend=nvme size=64M ns1_size=128M
	expect_load_error 'Invalid (parameters|argument)' \
		"zone_size=16777216: larger than the namespace" \
		frontend=nvme size=64M ns1_size=8M zoned=1
	need_configfs
	insmod "$KO" || fail insmod
	mkdir $CFS/a || fail "mkdir"
	echo nvme >$CFS/a/frontend
	echo 32M >$CFS/a/size
	echo 8M >$CFS/a/ns1_size
	echo 1 >$CFS/a/power || fail "power on"
	wait_for /dev/nvme0n1
	expect_eq "$(blockdev --getsize64 /dev/nvme0n1)" $((8 << 20)) "its size"
	expect_eq "$(idc unvmcap)" $((24 << 20)) UNVMCAP
	rmdir $CFS/a || fail rmdir
	unload
}

run_test default_unchanged test_default_unchanged
run_test life test_life
run_test_full_debug data_isolation "life and params" test_data_isolation
if debug_kernel; then
	report "SKIP f2fs_conventional_and_zoned (debug kernel: no zoned block devices)"
elif [ ! -f /vflash/f2fs.ko ] || ! command -v mkfs.f2fs >/dev/null; then
	report "SKIP f2fs_conventional_and_zoned (no f2fs.ko or mkfs.f2fs: scripts/vm/nsprep.sh, scripts/setup.sh)"
else
	run_test f2fs_conventional_and_zoned test_f2fs_conventional_and_zoned
fi
run_test_full_debug bad_commands "life, params and the nvmefuzz suite" test_bad_commands
run_test detach_under_io test_detach_under_io
run_test changed_ns_log test_changed_ns_log
run_test_full_debug no_namespace_at_load "life (namespaces made, attached, detached and deleted)" test_no_namespace_at_load
run_test_full_debug fuzz "life, and the nvmefuzz suite's fuzz" test_fuzz
run_test_full_debug params "life, and badparams' refusals" test_params
