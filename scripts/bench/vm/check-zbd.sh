# SPDX-License-Identifier: GPL-2.0
# `make check-zbd FIO_SRC=DIR BLKTESTS=DIR ZONEFS_TOOLS=DIR`: outside
# conformance suites and file systems on vflash's namespaces, in the
# project's VM (docs/zns.md, "Outside suites"):
#  - fio's t/zbd/test-zbd-support (at the tag of the guest's fio);
#  - blktests' zbd group with the zoned namespace as TEST_DEVS, and the
#    cases of its nvme group that take a PCIe device (TEST_DEVS, on a
#    conventional namespace; the rest test the kernel's NVMe target over
#    nvme-loop and never touch vflash: each is a SKIP line saying so);
#  - zonefs-tools' tests/zonefs-tests.sh with its own mkzonefs;
#  - btrfs (mkfs.btrfs -O zoned) and f2fs (mkfs.f2fs -m, f2fs.ko built
#    by the prep) on a zoned namespace: make, mount, fio write and verify,
#    scrub or fsck, unmount, remount, verify again.
# None is packaged by Debian 12; scripts/bench/zbd-prep.sh (the prep
# step) takes them from the checkouts given. Not part of `make check` (it
# lives outside scripts/vm/suites/ and needs the checkouts).
# Each test of each suite is a PASS, FAIL or SKIP line of its own
# ("zbd-fio-NN", "zbd-blktests-zbd/NNN", "zbd-blktests-nvme/NNN",
# "zbd-zonefs-NNNN", "zbd-fs-btrfs", "zbd-fs-f2fs"), the suites' own
# output goes to the console and to files (fio-zbd.log, blktests.log,
# zonefs-tests.log, ...). A case that fails on vflash is run again on a
# null_blk zoned device of the same geometry in the same boot
# (nullb_same): if it fails there too it is a kernel bug, a "SKIP NAME
# (XFAIL: ...)" line, else a FAIL.
# vmtest-mem: 4G
# vmtest-smp: 2
# vmtest-prep: scripts/bench/zbd-prep.sh
# vmtest-timeout: 7200
# vmtest-splat-module: btrfs

ZDEV=/dev/nvme0n1
# the device: 1 GiB of 4 MiB zones (256: fio's tests want up to 130), 8
# open and 12 active at most, so that fio's tests of open-zone limits
# have a limit to meet
ZBD_LOAD="frontend=nvme size=1G zoned=1 zone_size=4M zone_max_open=8"

# zbd_load [LOAD]: vflash with LOAD (default ZBD_LOAD: the zoned
# namespace), and /dev/fd, for bash's process substitution, which the
# suites use
zbd_load() {
	[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
	# the scheduler blktests' zbd cases and zonefs-tests set: a module
	# on 6.12 (built in on 6.1)
	modprobe mq-deadline 2>/dev/null || true
	# shellcheck disable=SC2086 # one word per parameter
	load ${1:-$ZBD_LOAD}
	wait_for $ZDEV
}

# fio_run DEV LOG [-t N ...]: test-zbd-support -r (every zone reset
# first) on DEV into LOG, each failed case's own log after it, and one
# "NN STATUS" line per case in LOG.status
fio_run() {
	local dev=$1 log=$2 line n st rc

	shift 2
	cd /tmp || return 1
	rc=0
	# shellcheck disable=SC2046 # the prep's FIO_ZBD_ARGS: one word each
	PATH=/zbd/bin:$PATH bash /zbd/fio/t/zbd/test-zbd-support -r $(cat /zbd/fio/args) "$@" "$dev" \
		>"$log" 2>&1 || rc=$?
	echo "test-zbd-support exit $rc" >>"$log"
	# "Running test NN ... PASS" (PASS, SKIP or FAIL; busybox's sed knows
	# no \x1b: the colours go with tr)
	tr -d '\033' <"$log" | sed 's/\[[0-9;]*m//g' | while IFS= read -r line; do
		case $line in
		"Running test "*)
			n=${line#Running test }
			n=${n%% *}
			st=${line##*... }
			st=${st%%[ ]*}
			echo "$n ${st:-none}"
			;;
		esac
	done >"$log.status"
	# each failed case's own log (fio's output) after the summary
	while read -r n st; do
		[ "$st" = FAIL ] || continue
		echo "=== test $n: /zbd/fio/t/zbd/test-zbd-support.log.$n"
		tail -n 60 "/zbd/fio/t/zbd/test-zbd-support.log.$n"
	done <"$log.status" >>"$log" 2>&1
}

# fio_zbd: fio's t/zbd on the namespace, a line per case; a case that
# fails is run again on null_blk of the same geometry in the same boot:
# failing there too, it is not vflash's (XFAIL), else a FAIL
fio_zbd() {
	local n st again='' dev

	[ -x /zbd/fio/t/zbd/test-zbd-support ] || { report "SKIP zbd-fio (no FIO_SRC checkout given)"; return 0; }
	zbd_load
	report "BENCH fio t/zbd $(cat /zbd/fio/version), vflash $ZBD_LOAD"
	fio_run $ZDEV /tmp/fio-zbd.log
	cat /tmp/fio-zbd.log
	save_file fio-zbd.log /tmp/fio-zbd.log
	unload
	[ -s /tmp/fio-zbd.log.status ] || fail "test-zbd-support ran no test"
	while read -r n st; do
		[ "$st" = PASS ] || [ "$st" = SKIP ] || again="$again -t $n"
	done </tmp/fio-zbd.log.status
	if [ -n "$again" ]; then
		dev=$(nullb_same vffio "$ZBD_LOAD") || fail "null_blk device like $ZBD_LOAD"
		report "BENCH fio t/zbd again on null_blk ($dev, the geometry of $ZBD_LOAD):$again"
		# shellcheck disable=SC2086 # -t N, one word each
		fio_run "$dev" /tmp/fio-zbd-nullb.log $again
		cat /tmp/fio-zbd-nullb.log
		save_file fio-zbd-nullb.log /tmp/fio-zbd-nullb.log
		nullb_gone vffio
	fi
	while read -r n st; do
		case $st in
		PASS | SKIP) report "$st zbd-fio-$n" ;;
		*)
			if grep -q "^$n FAIL" /tmp/fio-zbd-nullb.log.status 2>/dev/null; then
				report "SKIP zbd-fio-$n (XFAIL: fails on null_blk of the same geometry in this boot too, not vflash's: fio-zbd-nullb.log)"
			else
				report "FAIL zbd-fio-$n (${st}: fio-zbd.log)"
			fi
			;;
		esac
	done </tmp/fio-zbd.log.status
}

# blktests_check LOG ARGS...: blktests' ./check ARGS (TEST_DEVS: $ZDEV;
# NORMAL_USER for nvme/046) into LOG (on the console too); a line per test (blktests' own status:
# passed, failed, not run, with the reason it gives beneath)
blktests_check() {
	local log=$1 t st line ran=0 rc prev=

	shift
	cd /zbd/blktests || return 1
	printf 'TEST_DEVS=(%s)\nNORMAL_USER=blktests\n' $ZDEV >config
	rc=0
	PATH=/zbd/bin:$PATH bash ./check "$@" >"$log" 2>&1 || rc=$?
	echo "check exit $rc" >>"$log"
	cat "$log"
	sed 's/\x1b\[[0-9;]*m//g; s/\r/\n/g' "$log" >"$log.txt"
	# "zbd/001 (nvme0n1) (sysfs and ioctl)  [passed]", then for a test
	# not run, its reasons, indented
	while IFS= read -r line; do
		case $line in
		zbd/[0-9]* | nvme/[0-9]*)
			[ -z "$prev" ] || report "$prev)"
			prev=
			t=${line%% *}
			st=$(echo "$line" | sed -n 's/.*\[\([a-z ]*\)\]$/\1/p')
			case $st in
			passed) report "PASS zbd-blktests-$t" ;;
			"not run") prev="SKIP zbd-blktests-$t (not run:" ;;
			failed) report "FAIL zbd-blktests-$t" ;;
			*) continue ;;
			esac
			ran=$((ran + 1))
			;;
		"    "*)
			[ -z "$prev" ] || prev="$prev $(echo "$line" | sed 's/^ *//')"
			;;
		*)
			[ -z "$prev" ] || report "$prev)"
			prev=
			;;
		esac
	done <"$log.txt"
	[ -z "$prev" ] || report "$prev)"
	[ "$ran" -gt 0 ]
}

# blktests_listed LOG GROUP CASE...: a FAIL line for each CASE of GROUP
# that blktests_check's LOG has no line for (a requires() that broke
# leaves none): a rig failure, not a silent gap
blktests_listed() {
	local log=$1 g=$2 t

	shift 2
	for t in "$@"; do
		grep -q "^$g/$t " "$log.txt" ||
			report "FAIL zbd-blktests-$g/$t (blktests printed no line for it: ${log##*/})"
	done
}

# blktests_zbd: ./check zbd with the zoned namespace as its test device
blktests_zbd() {
	local f t

	[ -x /zbd/blktests/check ] || { report "SKIP zbd-blktests (no BLKTESTS checkout given)"; return 0; }
	zbd_load
	report "BENCH blktests $(cat /zbd/blktests/version), vflash $ZBD_LOAD"
	# zbd/012 runs on a scsi_debug device of its own (not TEST_DEVS), and
	# the VM has no scsi_debug module: without it the test fails
	report "SKIP zbd-blktests-zbd/012 (its device is scsi_debug's, which the VM does not carry)"
	blktests_check /tmp/blktests.log -x zbd/012 zbd || fail "blktests ran no test"
	# every case but 012 has a line
	# shellcheck disable=SC2046 # one word per case
	blktests_listed /tmp/blktests.log zbd $(for f in /zbd/blktests/tests/zbd/[0-9]*; do
		t=${f##*/}
		case $t in *.* | 012) ;; *) echo "$t" ;; esac
	done)
	tar -c -C /zbd/blktests results 2>/dev/null | gzip >/tmp/blktests-results.tgz &&
		save_file blktests-results.tgz /tmp/blktests-results.tgz
	save_file blktests.log /tmp/blktests.log
	unload
}

# blktests_nvme: the nvme group's cases of BLKTESTS_NVME on a
# conventional namespace; a SKIP line for each other case
blktests_nvme() {
	local f t

	[ -x /zbd/blktests/check ] || { report "SKIP zbd-blktests-nvme (no BLKTESTS checkout given)"; return 0; }
	zbd_load "$NVME_LOAD"
	report "BENCH blktests $(cat /zbd/blktests/version) nvme group, vflash $NVME_LOAD"
	# The passthrough cases give the target /dev/char/MAJ:MIN of the
	# controller, a link udev makes (the VM has no udev)
	mkdir -p /dev/char
	ln -sf /dev/nvme0 "/dev/char/$(cat /sys/class/nvme/nvme0/dev)"
	# nvme/046 runs nvme-cli as an unprivileged user (su NORMAL_USER)
	grep -q '^blktests:' /etc/passwd 2>/dev/null || {
		echo 'blktests:x:1000:1000::/tmp:/bin/sh' >>/etc/passwd
		echo 'blktests:x:1000:' >>/etc/group
	}
	for f in /zbd/blktests/tests/nvme/[0-9]*; do
		t=${f##*/}
		# a case is a script NNN beside its expected output NNN.out
		case $t in *.*) continue ;; esac
		case " $BLKTESTS_NVME " in
		*" $t "*) ;;
		*) report "SKIP zbd-blktests-nvme/$t (an NVMe target over nvme-loop from a file or null_blk: takes no TEST_DEVS, vflash is not under test)" ;;
		esac
	done
	# shellcheck disable=SC2046 # one word per test
	blktests_check /tmp/blktests-nvme.log $(for t in $BLKTESTS_NVME; do echo "nvme/$t"; done) ||
		fail "blktests ran no test"
	# shellcheck disable=SC2086 # one word per case
	blktests_listed /tmp/blktests-nvme.log nvme $BLKTESTS_NVME
	tar -c -C /zbd/blktests results 2>/dev/null | gzip >/tmp/blktests-nvme-results.tgz &&
		save_file blktests-nvme-results.tgz /tmp/blktests-nvme-results.tgz
	save_file blktests-nvme.log /tmp/blktests-nvme.log
	unload
}

# The cases of blktests' nvme group that take TEST_DEVS (a PCIe NVMe
# device): on the device itself, or (033-037) through the kernel's NVMe
# target passing its controller through to an nvme-loop host. Every case
# of the group asks for nvme-loop (nvme_trtype=loop, the only transport
# the group takes without a network or a fabric). The group's other
# cases build an NVMe target over nvme-loop from a file or a null_blk
# device and never touch vflash.
BLKTESTS_NVME="032 033 034 035 036 037 039 046 049 050 053 059"
# the conventional namespace of the nvme group
NVME_LOAD="frontend=nvme size=1G"
# zonefs-tests' device: 64 zones of 4 MiB (the suite's time grows with
# the zone count), 8 open at most
ZONEFS_LOAD="frontend=nvme size=256M zoned=1 zone_size=4M zone_max_open=8"
# btrfs's: 64 zones of 16 MiB, no open or active limit
BTRFS_LOAD="frontend=nvme size=1G zoned=1 zone_size=16M"

# want SUITE: whether ZBD_SUITES= (the prep's /zbd/suites, default all)
# names SUITE
want() {
	local s
	s=$(cat /zbd/suites 2>/dev/null)
	[ -z "$s" ] && return 0
	case " $s " in *" $1 "*) return 0 ;; esac
	return 1
}

# nullb_same NAME LOAD: a null_blk device NAME (configfs, memory backed)
# of the geometry of vflash's LOAD (size=, zone_size=, zone_max_open=,
# zone_max_active=; 4 KiB blocks, no conventional zone; zoned if LOAD has
# a zone_size=); prints its device (/dev/NAME). nullb_gone NAME removes
# it.
nullb_same() {
	local w size=1024 zs=0 mo=0 ma=0 c=/sys/kernel/config/nullb/$1 v

	for w in $2; do
		v=${w#*=}
		case $w in
		size=*G) size=$((${v%G} * 1024)) ;;
		size=*M) size=${v%M} ;;
		zone_size=*M) zs=${v%M} ;;
		zone_max_open=*) mo=$v ;;
		zone_max_active=*) ma=$v ;;
		esac
	done
	need_configfs
	[ -d /sys/kernel/config/nullb ] || modprobe null_blk nr_devices=0 ||
		return 1
	mkdir "$c" || return 1
	echo 2 >"$c/queue_mode"
	echo 4096 >"$c/blocksize"
	echo "$size" >"$c/size"
	echo 1 >"$c/memory_backed"
	if [ "$zs" != 0 ]; then
		echo 1 >"$c/zoned"
		echo "$zs" >"$c/zone_size"
		echo 0 >"$c/zone_nr_conv"
		echo "$mo" >"$c/zone_max_open"
		echo "$ma" >"$c/zone_max_active"
	fi
	echo 1 >"$c/power" || return 1
	# the disk takes its configfs directory's name (6.1, 6.12), or
	# nullbINDEX on older kernels
	for v in 1 2 3 4 5 6 7 8 9 10; do
		[ ! -b "/dev/$1" ] || { echo "/dev/$1"; return 0; }
		[ ! -b "/dev/nullb$(cat "$c/index")" ] || { echo "/dev/nullb$(cat "$c/index")"; return 0; }
		sleep 1
	done
	return 1
}

nullb_gone() {
	local c=/sys/kernel/config/nullb/$1

	[ -d "$c" ] || return 0
	echo 0 >"$c/power"
	rmdir "$c"
}

# zonefs_run DEV LOGDIR [-t N ...]: zonefs-tests.sh on DEV, its summary in
# LOGDIR/summary, one "NNNN STATUS" line per case in LOGDIR/status
zonefs_run() {
	local dev=$1 logs=$2 line n st rc

	shift 2
	rm -rf "$logs"
	mkdir -p "$logs"
	rc=0
	(cd /zbd/zonefs && PATH=/zbd/bin:$PATH bash ./zonefs-tests.sh -g "$logs" "$@" "$dev") \
		>"$logs/summary" 2>&1 || rc=$?
	echo "zonefs-tests.sh exit $rc" >>"$logs/summary"
	# "  Test 0010: DESCRIPTION ... PASS" (PASS, skip or FAIL), the
	# status on a line of its own after a description that has one
	# (busybox's sed knows no \x1b: the colours go with tr)
	n=
	tr -d '\033' <"$logs/summary" | sed 's/\[[0-9;]*m//g' | while IFS= read -r line; do
		case $line in
		"  Test "[0-9]*": "*)
			n=${line#  Test }
			n=${n%%:*}
			;;
		esac
		case $line in
		*" ... "*)
			[ -z "$n" ] || echo "$n ${line##* }"
			n=
			;;
		esac
	done >"$logs/status"
}

# zonefs_tests: zonefs-tools' zonefs-tests.sh on a zoned namespace
# (ZONEFS_LOAD), every case; each that fails again on null_blk with the
# same geometry (same boot) is an XFAIL, else a FAIL
zonefs_tests() {
	local n st why dev lvl m wv wn again=

	[ -x /zbd/bin/mkzonefs ] || { report "SKIP zbd-zonefs (no ZONEFS_TOOLS checkout given)"; return 0; }
	# the cases' "#!/bin/bash" (the initramfs's shell is busybox's)
	[ -e /bin/bash ] || ln -s /zbd/bin/bash /bin/bash
	zbd_load "$ZONEFS_LOAD"
	report "BENCH zonefs-tools $(cat /zbd/zonefs/version), vflash $ZONEFS_LOAD"
	# zonefs's own warnings ("Corrupted write pointer", 6.1) and any
	# WARNING splat stay off the console (warning level: errors, BUGs,
	# oopses and hung tasks still reach it and fail the suite); the
	# splats' places are compared with null_blk's instead (warn_report)
	lvl=$(cut -f1 /proc/sys/kernel/printk)
	m=$(dmesg_mark)
	dmesg -n 4
	# shellcheck disable=SC2046 # the prep's ZONEFS_ARGS: one word each
	zonefs_run $ZDEV /tmp/zonefs-vflash $(cat /zbd/zonefs/args 2>/dev/null)
	dmesg -n "$lvl"
	wv=$(warn_sites "$m")
	cat /tmp/zonefs-vflash/summary
	unload
	[ -s /tmp/zonefs-vflash/status ] || fail "zonefs-tests.sh ran no test"
	while read -r n st; do
		if [ "$st" = FAIL ]; then
			again="$again -t $n"
		fi
	done </tmp/zonefs-vflash/status
	wn=
	if [ -n "$again" ] || [ -n "$wv" ]; then
		# every case again if a warning is to be placed, else the failed
		[ -z "$wv" ] || again=
		dev=$(nullb_same vfzonefs "$ZONEFS_LOAD") || fail "null_blk device like $ZONEFS_LOAD"
		report "BENCH zonefs-tests again on null_blk ($dev, the geometry of $ZONEFS_LOAD):${again:- every case}"
		m=$(dmesg_mark)
		dmesg -n 4
		# shellcheck disable=SC2086 # -t N, one word each
		zonefs_run "$dev" /tmp/zonefs-nullb $again
		dmesg -n "$lvl"
		wn=$(warn_sites "$m")
		cat /tmp/zonefs-nullb/summary
		nullb_gone vfzonefs
	fi
	while read -r n st; do
		case $st in
		PASS) report "PASS zbd-zonefs-$n" ;;
		skip)
			why=$(sed -n 's/^ --> skipped: //p' "/tmp/zonefs-vflash/$n.log" | head -n 1)
			report "SKIP zbd-zonefs-$n (${why:-skipped})"
			;;
		*)
			why=$(grep -v '^$' "/tmp/zonefs-vflash/$n.log" | grep -v '^FAILED' | tail -n 1)
			if grep -q "^$n FAIL" /tmp/zonefs-nullb/status 2>/dev/null; then
				report "SKIP zbd-zonefs-$n (XFAIL: fails on null_blk of the same geometry in this boot too, a kernel bug: $why)"
			else
				report "FAIL zbd-zonefs-$n ($why)"
			fi
			;;
		esac
	done </tmp/zonefs-vflash/status
	warn_report zonefs "$wv" "$wn"
	for n in /tmp/zonefs-vflash /tmp/zonefs-nullb; do
		[ -d $n ] || continue
		tar -c -C /tmp "${n#/tmp/}" | gzip >"$n.tgz"
		save_file "${n#/tmp/}.tgz" "$n.tgz"
	done
}

# fs_workload DIR SEED: fio writes and verifies (crc32c) 4 files of 24
# MiB in DIR, sequential 128 KiB and random 4 KiB
fs_workload() {
	fio --name=seq --directory="$1" --nrfiles=2 --filesize=24M --size=48M \
		--rw=write --bs=128k --ioengine=psync --verify=crc32c \
		--randseed="$2" --do_verify=1 --end_fsync=1 >/tmp/fs-fio.out 2>&1 &&
		fio --name=rnd --directory="$1" --nrfiles=2 --filesize=24M --size=48M \
			--rw=randwrite --bs=4k --ioengine=psync --verify=crc32c \
			--randseed="$2" --do_verify=1 --end_fsync=1 >>/tmp/fs-fio.out 2>&1 ||
		{ cat /tmp/fs-fio.out; return 1; }
}

# fs_verify DIR SEED: what fs_workload wrote reads back
fs_verify() {
	fio --name=seq --directory="$1" --nrfiles=2 --filesize=24M --size=48M \
		--rw=write --bs=128k --ioengine=psync --verify=crc32c \
		--randseed="$2" --verify_only >/tmp/fs-fio.out 2>&1 &&
		fio --name=rnd --directory="$1" --nrfiles=2 --filesize=24M --size=48M \
			--rw=randwrite --bs=4k --ioengine=psync --verify=crc32c \
			--randseed="$2" --verify_only >>/tmp/fs-fio.out 2>&1 ||
		{ cat /tmp/fs-fio.out; return 1; }
}

# fs_btrfs DEV: mkfs.btrfs -O zoned, mount, workload, scrub, unmount,
# remount, verify, scrub again
fs_btrfs() {
	local dev=$1

	modprobe btrfs || { echo "modprobe btrfs"; return 1; }
	mkfs.btrfs -f -O zoned -d single -m single "$dev" >/tmp/mkfs.out 2>&1 ||
		{ cat /tmp/mkfs.out; echo "mkfs.btrfs -O zoned"; return 1; }
	mkdir -p /mnt
	mount -t btrfs "$dev" /mnt || { echo "mount btrfs"; return 1; }
	fs_workload /mnt 7 || { umount /mnt; echo "fio write+verify"; return 1; }
	btrfs scrub start -B /mnt >/tmp/scrub.out 2>&1 ||
		{ cat /tmp/scrub.out; umount /mnt; echo "btrfs scrub"; return 1; }
	umount /mnt || { echo umount; return 1; }
	mount -t btrfs "$dev" /mnt || { echo "remount btrfs"; return 1; }
	fs_verify /mnt 7 || { umount /mnt; echo "verify after remount"; return 1; }
	btrfs scrub start -B /mnt >/tmp/scrub.out 2>&1 ||
		{ cat /tmp/scrub.out; umount /mnt; echo "btrfs scrub after remount"; return 1; }
	cat /tmp/scrub.out
	umount /mnt || { echo umount; return 1; }
	btrfs check --readonly "$dev" >/tmp/check.out 2>&1 ||
		{ cat /tmp/check.out; echo "btrfs check"; return 1; }
}

# fs_f2fs CONV ZONED: mkfs.f2fs -m (metadata on CONV, data in ZONED's
# sequential zones), mount, workload, unmount, fsck.f2fs, remount,
# verify, unmount, fsck.f2fs
fs_f2fs() {
	local conv=$1 zoned=$2

	mkfs.f2fs -f -m -c "$zoned" "$conv" >/tmp/mkfs.out 2>&1 ||
		{ cat /tmp/mkfs.out; echo "mkfs.f2fs -m -c $zoned $conv"; return 1; }
	mkdir -p /mnt
	mount -t f2fs "$conv" /mnt || { dmesg | tail -n 20; echo "mount f2fs"; return 1; }
	fs_workload /mnt 11 || { umount /mnt; echo "fio write+verify"; return 1; }
	umount /mnt || { echo umount; return 1; }
	/zbd/bin/fsck.f2fs -f "$conv" >/tmp/fsck.out 2>&1 ||
		{ cat /tmp/fsck.out; echo "fsck.f2fs"; return 1; }
	mount -t f2fs "$conv" /mnt || { echo "remount f2fs"; return 1; }
	fs_verify /mnt 11 || { umount /mnt; echo "verify after remount"; return 1; }
	umount /mnt || { echo umount; return 1; }
	/zbd/bin/fsck.f2fs -f "$conv" >/tmp/fsck.out 2>&1 ||
		{ cat /tmp/fsck.out; echo "fsck.f2fs after remount"; return 1; }
	cat /tmp/fsck.out
}

# dmesg_mark: a line of its own in the kernel log, printed (a word);
# warn_sites MARK: the distinct places ("fs/btrfs/block-group.c:1111") of
# the kernel WARNINGs logged since MARK
dmesg_mark() {
	local m

	m="check-zbd-mark-$$-$RANDOM-$(cut -d' ' -f1 /proc/uptime)"
	echo "$m" >/dev/kmsg
	echo "$m"
}

warn_sites() {
	dmesg | sed -n "/$1/,\$p" |
		sed -n 's/.*WARNING: CPU: [0-9]* PID: [0-9]* at \([^ ]*\) .*/\1/p' | sort -u
}

# warn_report NAME WV WN: a line per kernel WARNING place in WV (those of
# a run on vflash), an XFAIL if WN (those of the same on null_blk) has it
# too, else a FAIL
warn_report() {
	local w

	for w in $2; do
		case " $(echo $3) " in
		*" $w "*) report "SKIP zbd-$1-warning-$w (XFAIL: the kernel WARNING at $w came on null_blk of the same geometry in this boot too: a kernel bug)" ;;
		*) report "FAIL zbd-$1-warning-$w (a kernel WARNING at $w on vflash, not on null_blk)" ;;
		esac
	done
}

# fs_report NAME RC WHY NRC WV WN: the lines of file system case NAME,
# which ended with RC on vflash (WHY: its last words) and NRC on null_blk
# of the same geometry in this boot; WV and WN: the places of the kernel
# WARNINGs each run logged. A failure or a warning that null_blk shows
# too is a kernel bug (XFAIL), else vflash's (FAIL).
fs_report() {
	local name=$1 rc=$2 why=$3 nrc=$4 wv=$5 wn=$6

	if [ "$rc" = 0 ]; then
		report "PASS zbd-fs-$name"
	elif [ "$nrc" = 0 ]; then
		report "FAIL zbd-fs-$name ($why; null_blk of the same geometry passes)"
	else
		report "SKIP zbd-fs-$name (XFAIL: fails on null_blk of the same geometry in this boot too, a kernel bug: $why)"
	fi
	warn_report "fs-$name" "$wv" "$wn"
}

# fs_zoned: btrfs and f2fs on zoned namespaces, each again on null_blk
# of the same geometry (for the kernel's WARNINGs, which do not fail the
# case: the console check does, but for those of the file system module
# named by "vmtest-splat-module", which this compares instead)
fs_zoned() {
	local rc nrc dev conv m wv wn

	report "BENCH $(btrfs --version | head -n 1), vflash $BTRFS_LOAD"
	zbd_load "$BTRFS_LOAD"
	rc=0
	m=$(dmesg_mark)
	fs_btrfs $ZDEV >/tmp/fs-btrfs.log 2>&1 || rc=$?
	wv=$(warn_sites "$m")
	cat /tmp/fs-btrfs.log
	unload
	dev=$(nullb_same vfbtrfs "$BTRFS_LOAD") || fail "null_blk device like $BTRFS_LOAD"
	nrc=0
	m=$(dmesg_mark)
	fs_btrfs "$dev" >/tmp/fs-btrfs-nullb.log 2>&1 || nrc=$?
	wn=$(warn_sites "$m")
	cat /tmp/fs-btrfs-nullb.log
	nullb_gone vfbtrfs
	fs_report btrfs $rc "$(tail -n 1 /tmp/fs-btrfs.log)" "$nrc" "$wv" "$wn"

	if [ ! -f /vflash/f2fs.ko ] || ! command -v mkfs.f2fs >/dev/null; then
		report "SKIP zbd-fs-f2fs (no f2fs.ko or mkfs.f2fs: the prep's scripts/vm/nsprep.sh says why)"
		return 0
	fi
	# f2fs asks the crypto API for crc32 (not built into these kernels)
	modprobe crc32_generic || fail "modprobe crc32_generic"
	insmod /vflash/f2fs.ko 2>/dev/null || grep -q '^f2fs ' /proc/modules ||
		fail "insmod f2fs.ko"
	report "BENCH f2fs-tools $(mkfs.f2fs -V 2>&1 | head -n 1): a 128 MiB conventional namespace, a 384 MiB zoned one of 16 MiB zones"
	# namespace 1 conventional (128 MiB), namespace 2 zoned (384 MiB: 24
	# zones of 16 MiB), as the ns suite's f2fs case
	load frontend=nvme size=512M ns1_size=128M zone_size=16M
	wait_for /dev/nvme0
	wait_for /dev/nvme0n1
	nvme create-ns /dev/nvme0 --nsze=98304 --ncap=98304 --flbas=0 --csi=2 >/dev/null ||
		fail "create-ns zoned"
	nvme attach-ns /dev/nvme0 --namespace-id=2 --controllers=1 >/dev/null || fail "attach-ns 2"
	wait_for /dev/nvme0n2
	expect_eq "$(cat /sys/block/nvme0n2/queue/zoned)" host-managed "namespace 2 zoned"
	rc=0
	m=$(dmesg_mark)
	fs_f2fs /dev/nvme0n1 /dev/nvme0n2 >/tmp/fs-f2fs.log 2>&1 || rc=$?
	wv=$(warn_sites "$m")
	cat /tmp/fs-f2fs.log
	unload
	# the same on null_blk: a conventional device of 128 MiB beside a
	# zoned one of 384 MiB of 16 MiB zones
	conv=$(nullb_same vfconv "size=128M") || fail "null_blk device"
	dev=$(nullb_same vff2fs "size=384M zone_size=16M") || fail "null_blk zoned device"
	nrc=0
	m=$(dmesg_mark)
	fs_f2fs "$conv" "$dev" >/tmp/fs-f2fs-nullb.log 2>&1 || nrc=$?
	wn=$(warn_sites "$m")
	cat /tmp/fs-f2fs-nullb.log
	nullb_gone vff2fs
	nullb_gone vfconv
	fs_report f2fs $rc "$(tail -n 1 /tmp/fs-f2fs.log)" "$nrc" "$wv" "$wn"
	for n in fs-btrfs fs-btrfs-nullb fs-f2fs fs-f2fs-nullb; do
		[ ! -f /tmp/$n.log ] || save_file $n.log /tmp/$n.log
	done
}

want fio && run_test zbd-fio fio_zbd
want blktests && run_test zbd-blktests blktests_zbd
want blktests && run_test zbd-blktests-nvme blktests_nvme
want zonefs && run_test zbd-zonefs zonefs_tests
want fs && run_test zbd-fs fs_zoned
