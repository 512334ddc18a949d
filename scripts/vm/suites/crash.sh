# SPDX-License-Identifier: GPL-2.0
# Crash consistency (docs/crashcheck.md): crashcheck (scripts/tools/crashcheck.c)
# drives 32 threads a namespace of seeded random NVMe commands through the
# passthrough ioctls (Write, Write FUA, Flush, Deallocate, Write Zeroes
# with and without DEAC and FUA, Read, Copy with and without FUA, Write
# Uncorrectable, Verify; FDP placement directives; Zone
# Append, Zone Management Send and Report Zones on zoned namespaces, and
# at half the rotations ZRWA windows written and flushed; CXL
# stores on frontend=nvme,cxl), ends rounds by a cut, a controller reset,
# a clean shutdown (unbind), an injected timeout or delay, then a cut,
# and checks every LBA (and every zone's write pointer and state) against
# what the durability rules allow, from a baseline of distinct durable
# records. The device matrix in cells (conventional 4 KiB/store=full and
# 512 B/store=sparse with flash faults and GC, FDP, zoned, several
# namespaces with a delete and create, qlc-hybrid with migration, plp,
# dual with CXL stores, a device restored from an image), each cell's
# variant (LBA size, store, handles,
# which cells get the timeout and delay endings) from a rotation seed
# printed first; every cell also runs --tamper (the oracle fails, exit
# 1; the conventional cells with a durable Copy undone), and a run must have taken something back (the power-loss log is
# alive). ext4 with sqlite3 (WAL, synchronous=FULL) loses power
# repeatedly: the journal replays, e2fsck -fn is clean, PRAGMA
# integrity_check is ok and no committed row is lost.
# vmtest-mem: 2G
# vmtest-timeout: 600
# vmtest-env: CRASH_ROTATION CUTS FS_CUTS
# vmtest-debug-line-skip: powercut cuts, restores and recovers under the debug kernel, and fdp, backend and dual run the FDP, migration and dual paths there; the checker's rounds start hundreds of processes, about ten times dearer there

SYS=/sys/class/vflash/vflash0
F=/sys/class/vflash/vflash0/faults

# Cuts per cell (each cell also makes one --tamper cut), the ext4/sqlite
# test's cuts; operations per thread per round at most (the cut comes
# after a random number of them); SIZE: the devices' (zoned: 128 KiB
# zones, 4 a thread). A cell makes at least two cuts more than its
# endings other than cut (cell): round 1 (write cache on, cut by hand,
# something taken back) and round 2 (cache off, cut by the rule), then a
# round for each ending; a light run makes no more than that (3 or more).
# A light run (lib.sh) runs those rounds with half the operations (the
# zoned cell keeps 16: its ZRWA counts), and qlc on 16 MiB, the smallest
# device (each round's check reads every LBA: most of a round's time
# under the debug kernel).
CUTS=${CUTS:-$(light 6 3)}
FS_CUTS=${FS_CUTS:-$(light 8 2)}
OPS=${OPS:-$(light 16 8)}
SIZE=${SIZE:-16M}
QLC_SIZE=$(light 32M 16M)
# Passes of zeros before the conventional cells' baseline (gc_soon)
PRE_PASSES=$(light 8 4)
# The rotation: which variant each cell runs (docs/crashcheck.md, "The
# matrix"). CRASH_ROTATION=N reruns a suite's choices.
ROT=${CRASH_ROTATION:-$(($(date +%s) % 1000000))}

stat() { cat "$SYS/stats/$1"; }

rule() {
	echo "$3" >"$F/$1/$2" || fail "$F/$1/$2 refused $3"
}

# pick N SALT: a number below N from the rotation seed and SALT
pick() {
	echo $(((ROT * 1103515245 + $2 * 12345 + ($2 * ROT) % 65521) % 2147483648 / 7 % $1))
}

load_cc() {
	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout ||
		fail "cannot set nvme_core's io_timeout"
	load "$@"
	DEV=$(wait_ns)
}

# GC from the start: watermarks raised, and the device written over 8
# times (4 on a light run: GC runs during the baseline either way) with
# zeros before crashcheck writes its baseline, so that tlc's 8 MiB blocks
# are sealed with stale pages on every die before the first round.
gc_soon() {
	local i mib
	echo 90 >$SYS/config/gc_high_pct || fail "gc_high_pct"
	echo 50 >$SYS/config/gc_low_pct || fail "gc_low_pct"
	# the namespace's size (the device's, or namespace 1's: ns1_size=)
	mib=$(($(blockdev --getsize64 "$DEV") >> 20))
	for i in $(seq "$PRE_PASSES"); do
		dd if=/dev/zero of="$DEV" bs=1M count="$mib" oflag=direct \
			2>/dev/null || fail "preconditioning pass $i"
	done
	echo "preconditioned: gc_runs $(stat gc_runs)"
}

# cc CUTS ARGS...: run crashcheck; it must end with no violation, the
# log alive (something taken back: exit 4 otherwise), rounds with the
# write cache on and off, both kinds of cut, and every ending asked for.
cc() {
	local rc=0 cuts=$1 e
	shift
	# shellcheck disable=SC2086 # CC_SECONDS: bench-crash's time cap
	crashcheck --cuts "$cuts" --ops "$OPS" ${CC_SECONDS:+--seconds $CC_SECONDS} "$@" \
		>/tmp/cc.out 2>&1 || rc=$?
	grep -v "^round " /tmp/cc.out | head -n 400
	grep '^round ' /tmp/cc.out | tail -n 3
	echo "crash: rerun: insmod vflash.ko $CELL_PARAMS; crashcheck --seed $(sed -n 's/^crashcheck: seed \([0-9]*\) .*/\1/p' /tmp/cc.out) --cuts $cuts --ops $OPS $*"
	expect_eq "$rc" 0 "crashcheck's exit status"
	[ -n "${CC_SECONDS:-}" ] || expect_match "$(tail -n 1 /tmp/cc.out)" \
		"^crashcheck: cuts $cuts, " "crashcheck's cuts"
	expect_match "$(tail -n 1 /tmp/cc.out)" \
		"^crashcheck: cuts [1-9][0-9]*, LBAs checked [1-9][0-9]*, violations 0$" \
		"crashcheck's last line"
	grep -q '^round .*vwc on' /tmp/cc.out || fail "no round with the write cache on"
	grep -q '^round .*vwc off' /tmp/cc.out || fail "no round with the write cache off"
	grep -q '^round .*cut by the rule' /tmp/cc.out || fail "no cut by the rule"
	grep -q '^round .*cut by hand' /tmp/cc.out || fail "no cut by hand"
	# Copy, Write Uncorrectable and Verify in every cell's mix
	grep -q "^crashcheck: copies [1-9][0-9]*, write uncorrectables [1-9][0-9]*, verifies [1-9]" \
		/tmp/cc.out || fail "no Copy, Write Uncorrectable or Verify ran"
	# --zrwa: zones opened with ZRWAA, window writes and overwrites,
	# explicit and implicit ZRWA flushes all ran
	case " $* " in
	*" --zrwa "*)
		grep -q "^crashcheck: zrwa: opens [1-9][0-9]*, window writes [1-9][0-9]*, overwrites [1-9][0-9]*, explicit flushes [1-9][0-9]*, implicit flushes [1-9]" \
			/tmp/cc.out || fail "no ZRWA open, window write, overwrite, explicit or implicit flush ran"
		;;
	esac
	for e in $(echo "$ENDINGS" | tr , ' '); do
		grep -q "^round .*end $e" /tmp/cc.out || fail "no round ended by $e"
	done
}

# tamper ARGS...: the checker's own test on the cell's device: after one
# cut an acknowledged durable write (a zone's durable data) is undone
# behind the device's back; crashcheck must report it and exit 1. The
# conventional cells (TAMPER=copy) undo a durable Copy instead
# (--tamper-copy, the write cache off: a completed Copy is durable); the
# zoned cell with a ZRWA (TAMPER=zrwa) resets a zone whose durable data
# a ZRWA flush committed (the write cache off: a completed flush is).
tamper() {
	local rc=0 how=--tamper
	[ "${TAMPER:-}" != copy ] || how="--tamper-copy --vwc off"
	[ "${TAMPER:-}" != zrwa ] || how="--tamper --vwc off"
	# shellcheck disable=SC2086 # words
	crashcheck --cuts 1 --ops 8 $how "$@" >/tmp/cc-t.out 2>&1 || rc=$?
	grep -v '^    ' /tmp/cc-t.out | grep -v '^  ' | head -n 12
	expect_eq "$rc" 1 "crashcheck $how's exit status"
	grep -q '^crashcheck: tamper: ' /tmp/cc-t.out || fail "no tamper line"
	[ "${TAMPER:-}" != copy ] ||
		grep -q '^crashcheck: tamper: .* newest durable op, a copy' /tmp/cc-t.out ||
		fail "no durable Copy undone"
	[ "${TAMPER:-}" != zrwa ] ||
		grep -q "^crashcheck: tamper: .* are a durable ZRWA flush's" /tmp/cc-t.out ||
		fail "no durable ZRWA flush undone"
	grep -q '^VIOLATION seed [0-9]* round 1 nsid 1 ' /tmp/cc-t.out ||
		fail "the tampered write was not reported"
	expect_match "$(tail -n 1 /tmp/cc-t.out)" "violations [1-9]" "the last line"
}

# cell NAME SETUP CCARGS PARAMS...: load vflash with PARAMS, run SETUP,
# crashcheck CCARGS (with the endings in ENDINGS) for CUTS cuts plus one
# per extra ending, its tamper run, and check what SETUP's "after_NAME"
# checks, if defined.
cell() {
	local name=$1 setup=$2 args=$3 n
	shift 3
	CELL_PARAMS="$*"
	echo "$CELL_PARAMS" >/tmp/cc.params
	echo "crash: cell $name (rotation $ROT): $CELL_PARAMS; crashcheck $args --endings $ENDINGS"
	load_cc "$@"
	$setup
	n=$(echo "$ENDINGS" | tr , '\n' | grep -vc '^cut$' || true)
	# shellcheck disable=SC2086 # words
	cc $((CUTS > n + 2 ? CUTS : n + 2)) $args --endings "$ENDINGS"
	echo "lost page writes $(stat power_cut_lost_writes), gc_runs $(stat gc_runs), migrated $(stat migrated_pages), power cuts $(stat fault_power_cuts)"
	! type "after_$name" >/dev/null 2>&1 || "after_$name"
	# shellcheck disable=SC2086
	tamper $args
	unload
}

none() { :; }

# Flash faults and GC: watermarks raised, the device written over; GC
# must run during the load (not only before it) and the faults fire.
flash_setup() {
	gc_soon
	GC0=$(stat gc_runs)
}
after_flash() {
	[ "$(stat gc_runs)" -gt "$GC0" ] || fail "GC did not run during the load (gc_runs $GC0 before)"
	[ "$(($(stat fault_program_fails) + $(stat fault_erase_fails)))" -gt 0 ] ||
		fail "no program or erase failure"
	echo "gc_runs $GC0 -> $(stat gc_runs), program fails $(stat fault_program_fails), erase fails $(stat fault_erase_fails), bad blocks $(stat bad_blocks)"
}
after_conv_4k() { after_flash; }
after_conv_512() { after_flash; }

# qlc-hybrid: host writes land in SLC; migration (read-heat) moves them
# to QLC in the background, the watermarks raised so it runs under the
# load.
qlc_setup() {
	echo read-heat >$SYS/policy/migration || fail "migration policy"
	echo background >$SYS/policy/maintenance || fail "maintenance policy"
	echo 90 >$SYS/config/gc_high_pct || fail "gc_high_pct"
	echo 50 >$SYS/config/gc_low_pct || fail "gc_low_pct"
	MIG0=$(stat migrated_pages)
}
after_qlc() {
	[ "$(stat migrated_pages)" -gt "$MIG0" ] ||
		fail "migration moved nothing during the load ($MIG0 before)"
}

# plp: nothing is taken back, not even a page the log would have kept.
plp_setup() { LOST0=$(stat power_cut_lost_writes); }
after_plp() {
	expect_eq "$(stat power_cut_lost_writes)" "$LOST0" "power_cut_lost_writes with plp"
	grep -q '^crashcheck: taken back 0 LBAs' /tmp/cc.out || fail "an LBA taken back with plp"
}

# The rotation's choices for this run
lba() { [ "$(pick 2 "$1")" = 0 ] && echo 4096 || echo 512; }
store() { [ "$(pick 2 "$1")" = 0 ] && echo full || echo sparse; }
# The timeout ending (about 6 s a round: two io_timeouts and a reset)
# goes to one cell a run, the delay ending to another.
CELLS="fdp zoned ns qlc plp dual"
TO_CELL=$(echo "$CELLS" | cut -d' ' -f$(($(pick 6 7) + 1)))
DL_CELL=$(echo "$CELLS" | cut -d' ' -f$(($(pick 6 8) + 1)))
# Not under the debug kernel: its (6.1) nvme driver's timeout handler
# takes dev->shutdown_lock inside timeout_work (nvme_timeout ->
# nvme_dev_disable), nvme_remove (a cut's hot removal) takes
# namespaces_rwsem under shutdown_lock and nvme_reset_work flushes
# timeout_work under namespaces_rwsem (nvme_sync_queues): once a boot has
# had a cut, a reset and an I/O timeout that resets, lockdep reports that
# circle, in the kernel's driver, not in vflash (6.9 made namespaces_rwsem
# an SRCU: the Debian 6.12 line has no such circle). As the faults
# suite's timeout test: the timeout ending runs on the Debian kernels.
if debug_kernel; then
	TO_CELL=none
fi
endings() {
	local e=cut,reset,shutdown
	[ "$1" != "$TO_CELL" ] || e=$e,timeout
	[ "$1" != "$DL_CELL" ] || e=$e,delay
	echo $e
}
HANDLES=$((2 << $(pick 3 9)))
NSK=$((2 + $(pick 2 10)))
# The zoned cell: half the runs its zones have a ZRWA (zone_zrwa=1,
# crashcheck --zrwa: windows of 32 KiB, flushed by 8 KiB, a resource for
# each zone the load may open with one), half of those with power-loss
# protection (the windows flushed at the cut).
ZRWA=$(pick 4 12)
case $ZRWA in
2) ZRWA_NAME=ZRWA ;;
3) ZRWA_NAME="ZRWA with plp" ;;
*) ZRWA_NAME="no ZRWA" ;;
esac

test_conv_4k() {
	local TAMPER=copy
	ENDINGS=cut,reset,shutdown
	cell conv_4k flash_setup "--faults" frontend=nvme size="$SIZE" profile=tlc store=full
	local rc=0
	crashcheck --cuts 0 >/dev/null 2>&1 || rc=$?
	expect_eq "$rc" 2 "crashcheck --cuts 0"
}

# The kernel's recovery in the middle of a round: a command outlives
# io_timeout, the kernel resets the controller, whose write cache comes
# back on (the features' defaults), and aborts what was in flight. The
# checker must take the aborted commands for that reset, not for a rig
# failure, and hold writes completed after it to the cache's rules (a
# bench-crash round once reported violations and a rig error there).
# --stray-reset makes that reset without telling the checker.
stray_reset() {
	local rc=0
	load_cc frontend=nvme size="$SIZE" profile=tlc
	crashcheck --cuts 2 --ops 64 --vwc off --cut file --endings cut --stray-reset \
		>/tmp/cc-s.out 2>&1 || rc=$?
	grep -v '^    ' /tmp/cc-s.out | grep -v '^  ' | grep -v '^VIOLATION' | tail -n 8
	grep -E 'not by the cut|aborted by the host' /tmp/cc-s.out | head -n 4
	expect_eq "$rc" 0 "crashcheck --stray-reset's exit status"
	grep -q 'the kernel reset the controller' /tmp/cc-s.out ||
		fail "no round took an abort for the kernel's reset"
	expect_match "$(tail -n 1 /tmp/cc-s.out)" "violations 0$" "the last line"
	unload
}
test_conv_512() {
	local TAMPER=copy
	ENDINGS=cut,delay
	cell conv_512 flash_setup "--faults" frontend=nvme size="$SIZE" profile=tlc lba_size=512 store=sparse
}
test_fdp() {
	ENDINGS=$(endings fdp)
	cell fdp none "--fdp $HANDLES" frontend=nvme size="$SIZE" profile=tlc \
		lba_size="$(lba 1)" fdp=1 fdp_ruhs="$HANDLES"
}
test_zoned() {
	local args="" setup=none TAMPER="" OPS=${ZONED_OPS:-16}
	ENDINGS=$(endings zoned)
	set -- frontend=nvme size="$SIZE" profile=tlc lba_size="$(lba 2)" \
		zoned=1 zone_size=128K
	if [ "$ZRWA" -ge 2 ]; then
		set -- "$@" zone_zrwa=1 zone_zrwa_size=32K zone_zrwa_fg=8K zone_zrwa_nr=64
		args=--zrwa
		TAMPER=zrwa
	fi
	ZONED_PLP=
	if [ "$ZRWA" = 3 ]; then
		args="$args --plp"
		setup=plp_setup
		ZONED_PLP=1
	fi
	cell zoned $setup "$args" "$@"
}
# with --plp: nothing taken back (the plp cell's checks; not in make
# bench-crash, whose zoned cells are its own)
after_zoned() {
	[ -z "${ZONED_PLP:-}" ] || after_plp
}
test_ns() {
	ENDINGS=$(endings ns)
	cell ns none "--namespaces $NSK" frontend=nvme size=$((NSK * 8))M profile=tlc \
		lba_size="$(lba 3)" store="$(store 4)" ns1_size=8M
}
test_qlc() {
	ENDINGS=$(endings qlc)
	cell qlc qlc_setup "" frontend=nvme size="$QLC_SIZE" profile=qlc-hybrid store="$(store 5)"
}
test_plp() {
	ENDINGS=$(endings plp)
	cell plp plp_setup "--plp" frontend=nvme size="$SIZE" profile=tlc lba_size="$(lba 6)"
}
test_dual() {
	ENDINGS=$(endings dual)
	cell dual none "--cxl" frontend=nvme,cxl size="$SIZE" cache_size=1M profile=tlc \
		lba_size="$(lba 11)"
}
# A restored device (docs/images.md): written over as the conventional
# cells are (stale pages in sealed blocks, watermarks 90/50 %), held,
# saved, unloaded and restored into a new device of the same parameters,
# then run through every ending but the timeout and delay ones: cuts,
# controller resets and clean shutdowns on a device whose FTL, write
# buffer and counters came from an image. Its counters and knobs must
# come back from the image, and GC must run under the load (after_restored).
# The rotation picks the kind of device saved (RESTORED_KIND): conv (one
# namespace), ns (NSK namespaces, the ones past the first made and
# written before the save: the image carries them, and the checker's
# rounds delete and make one) or dual (frontend=nvme,cxl, CXL stores in
# the rounds and, before the save, through the mapping).
case $(pick 3 15) in
0) RESTORED_KIND=conv ;;
1) RESTORED_KIND=ns ;;
*) RESTORED_KIND=dual ;;
esac

# make_namespaces K: namespaces 2..K from the unallocated capacity, each
# written once (the image then has their data and mappings)
make_namespaces() {
	local ctrl=/dev/nvme0 cap lbs each i out nsid d
	cap=$(nvme id-ctrl $ctrl -o json | jq -r .unvmcap) || fail "id-ctrl"
	lbs=$(cat "/sys/block/${DEV#/dev/}/queue/logical_block_size")
	each=$((cap / ($1 - 1) / (1 << 20) * (1 << 20)))
	[ "$each" -gt 0 ] || fail "no unallocated capacity for $(($1 - 1)) namespaces"
	for i in $(seq 2 "$1"); do
		out=$(nvme create-ns $ctrl --nsze=$((each / lbs)) --ncap=$((each / lbs)) \
			--flbas=0 2>&1) || fail "create-ns: $out"
		nsid=$(echo "$out" | sed -n 's/.*nsid:\([0-9]*\).*/\1/p')
		[ -n "$nsid" ] || fail "create-ns: no NSID in $out"
		nvme attach-ns $ctrl --namespace-id="$nsid" --controllers=1 >/dev/null 2>&1 ||
			fail "attach-ns $nsid"
		d=/dev/nvme0n$nsid
		wait_for "$d"
		dd if=/dev/zero of="$d" bs=1M count=$((each >> 20)) oflag=direct 2>/dev/null ||
			fail "writing namespace $nsid"
	done
}

# vflash_namespaces: how many block devices vflash's controller has
vflash_namespaces() {
	local d n=0
	for d in /sys/block/nvme*n*; do
		grep -q vflash "$d/device/model" 2>/dev/null && n=$((n + 1))
	done
	echo $n
}

restored_setup() {
	gc_soon
	case $RESTORED_KIND in
	ns) make_namespaces "$NSK" ;;
	dual)
		wait_for /dev/vflash0
		cxl_check fillat /dev/vflash0 0 $((2 << 20)) 4 || fail "fill through mmap"
		;;
	esac
	# shellcheck disable=SC2086 # the cell's parameters, a word each
	image_round_trip $CELL_PARAMS
	# Read while held: once running, the raised watermarks start GC.
	expect_eq "$(stat host_write_pages)" "$HELD_WRITTEN" "host_write_pages of the restored device"
	expect_eq "$(cat $SYS/config/gc_high_pct)" 90 "gc_high_pct of the restored device"
	GC0=$(stat gc_runs)
	echo running >$SYS/state || fail "running after the restore"
	DEV=$(wait_ns)
	case $RESTORED_KIND in
	ns)
		local n=0
		while [ "$(vflash_namespaces)" -lt "$NSK" ] && [ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		expect_eq "$(vflash_namespaces)" "$NSK" "namespaces of the restored device"
		;;
	dual) wait_for /dev/vflash0 ;;
	esac
}
after_restored() {
	[ "$(stat gc_runs)" -gt "$GC0" ] ||
		fail "GC did not run on the restored device (gc_runs $GC0 at the restore)"
}
test_restored() {
	ENDINGS=cut,reset,shutdown
	case $RESTORED_KIND in
	conv)
		cell restored restored_setup "" frontend=nvme size="$SIZE" profile=tlc \
			lba_size="$(lba 13)" store="$(store 14)" ;;
	ns)
		cell restored restored_setup "--namespaces $NSK" frontend=nvme \
			size=$((NSK * 8))M profile=tlc lba_size="$(lba 13)" \
			store="$(store 14)" ns1_size=8M ;;
	dual)
		cell restored restored_setup "--cxl" frontend=nvme,cxl size="$SIZE" \
			cache_size=1M profile=tlc lba_size="$(lba 13)" ;;
	esac
}

# ext4 with sqlite3 in WAL mode, synchronous=FULL, one process per
# transaction inserting rows with an increasing counter, the counter
# written to a file in guest RAM (/tmp) after its COMMIT returned, and a
# metadata load (files created, renamed, fsynced, removed) beside it,
# loses power at a random point, FS_CUTS times. After each cut: the old
# mount goes (umount -l), the namespace is back, a mount and umount
# replay the journal, e2fsck -fn is clean, and mounted again, sqlite's
# integrity_check is ok and the table's largest counter is at least the
# last one recorded.
DB=/mnt/cc/db.sqlite

# sqlite_load N: one sqlite3 process runs a transaction per row from N
# on; the shell prints the counter after each COMMIT (sqlite3 writes a
# statement's output as it ends, and -bail stops it at the first error),
# and the counter goes to /tmp/committed as that line arrives.
sqlite_load() {
	local i=$1
	{
		echo "PRAGMA synchronous=FULL; PRAGMA wal_autocheckpoint=16;"
		while [ ! -e /tmp/cc.stop ]; do
			echo "BEGIN; INSERT INTO t VALUES($i, randomblob(1500)); COMMIT; SELECT $i;"
			i=$((i + 1))
		done
	} | sqlite3 -bail "$DB" 2>/dev/null | while read -r n; do
		echo "$n" >/tmp/committed
	done
}

meta_load() {
	local i=0 d
	while [ ! -e /tmp/cc.stop ]; do
		d=/mnt/cc/d$((i % 8))
		mkdir -p $d 2>/dev/null || return 0
		echo "$i" >>$d/f$((i % 31)) 2>/dev/null || return 0
		mv $d/f$((i % 31)) $d/g$i 2>/dev/null || return 0
		rm -f $d/g$((i - 24)) 2>/dev/null || return 0
		[ $((i % 16)) = 0 ] && { sync $d/g$i 2>/dev/null || return 0; }
		i=$((i + 1))
	done
}

# wait_committed ROW TENTHS: until sqlite_load has committed ROW, at most
# TENTHS tenths of a second
wait_committed() {
	local n=0 c
	while [ $n -lt "$2" ]; do
		c=$(cat /tmp/committed)
		[ "${c:-0}" -lt "$1" ] || return 0
		sleep 0.1
		n=$((n + 1))
	done
}

test_ext4_sqlite() {
	local cut ms last max next pid1 pid2 check
	load_cc frontend=nvme size=64M profile=tlc
	mkfs.ext4 -q "$DEV" || fail "mkfs.ext4"
	mkdir -p /mnt/cc
	mount -t ext4 "$DEV" /mnt/cc || fail "mount"
	expect_eq "$(sqlite3 "$DB" "PRAGMA journal_mode=WAL; CREATE TABLE t(n INTEGER PRIMARY KEY, pad BLOB);")" \
		wal "journal mode"
	echo 0 >/tmp/committed
	: >/tmp/fs.out
	next=1
	for cut in $(seq "$FS_CUTS"); do
		rule power_cut armed 0
		rule power_cut probability 0
		rule power_cut armed 1
		rm -f /tmp/cc.stop
		sqlite_load "$next" &
		pid1=$!
		meta_load &
		pid2=$!
		# The cut comes after this round's first commit (up to 60 s:
		# sqlite starts slowly under the debug kernel), so that every
		# cut has a committed row to keep.
		wait_committed "$next" 600
		ms=$((300 + RANDOM % 2000))
		sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
		echo 1 >$F/power_cut/cut || fail "the cut failed"
		touch /tmp/cc.stop
		wait $pid1 $pid2 || true
		last=$(cat /tmp/committed)
		umount -l /mnt/cc || fail "umount -l after the cut"
		DEV=$(wait_ns)
		# The journal replays at mount.
		mount -t ext4 "$DEV" /mnt/cc || fail "mount after cut $cut"
		umount /mnt/cc || fail "umount after the replay"
		e2fsck -fn "$DEV" >/tmp/fsck.out 2>&1 || {
			cat /tmp/fsck.out
			fail "e2fsck found errors after cut $cut"
		}
		mount -t ext4 "$DEV" /mnt/cc || fail "mount after e2fsck"
		# one sqlite3 for both (its start is seconds under the debug
		# kernel): integrity_check's lines, then the largest counter
		sqlite3 "$DB" "PRAGMA integrity_check; SELECT 'max ' || coalesce(max(n), 0) FROM t" \
			>/tmp/sq.out 2>&1 || {
			cat /tmp/sq.out
			fail "sqlite3 cannot open the database after cut $cut"
		}
		check=$(grep -v '^max ' /tmp/sq.out || true)
		expect_eq "$check" ok "integrity_check after cut $cut"
		max=$(sed -n 's/^max //p' /tmp/sq.out)
		echo "cut $cut after $ms ms: last committed $last, largest in the table $max ($(dmesg | grep 'power cut' | tail -n 1 | sed 's/.*power cut: //'))" |
			tee -a /tmp/fs.out
		[ "$max" -ge "$last" ] ||
			fail "cut $cut: committed row $last lost (the table ends at $max)"
		next=$((max + 1))
	done
	[ "$next" -gt "$FS_CUTS" ] || fail "sqlite committed nothing"
	umount /mnt/cc || fail "umount"
	unload
}

# make bench-crash (scripts/bench/vm/bench-crash.sh) sources this file for
# its functions only.
[ -n "${CRASH_FUNCTIONS_ONLY:-}" ] && return 0

echo "crash: rotation $ROT (CRASH_ROTATION=$ROT reruns it): timeout ending in $TO_CELL, delay in $DL_CELL, $HANDLES FDP handles, $NSK namespaces, zoned $ZRWA_NAME, restored $RESTORED_KIND"
run_test conv_4k test_conv_4k
run_test_not_debug stray_reset "the checker's logic, the same under every kernel" stray_reset
run_test conv_512 test_conv_512
run_test fdp test_fdp
# The debug kernel has no CONFIG_BLK_DEV_ZONED (docs/develop/testing.md, zns)
run_test_not_debug zoned "no zoned block devices in that kernel" test_zoned
run_test ns test_ns
run_test qlc test_qlc
run_test plp test_plp
run_test dual test_dual
run_test restored test_restored
run_test ext4_sqlite test_ext4_sqlite
