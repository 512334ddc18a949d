# SPDX-License-Identifier: GPL-2.0
# Crash consistency (docs/crashcheck.md): crashcheck (scripts/vm/crashcheck.c)
# drives a seeded random mix of NVMe commands through the passthrough
# ioctls (Write, Write FUA, Flush, Deallocate, Write Zeroes with and
# without DEAC and FUA, Read; CXL stores on frontend=nvme,cxl), cuts the
# power at random points (by hand and by the rule), and checks every LBA
# against what the NVMe durability rules allow; on 4 KiB and 512-byte
# LBAs, the write cache on and off per round, program and erase faults
# armed in part (GC runs: watermarks raised). The checker's own oracle
# fails on a tampered LBA. ext4 with sqlite3 (WAL, synchronous=FULL)
# loses power repeatedly: the journal replays, e2fsck -fn is clean,
# PRAGMA integrity_check is ok and no committed row is lost.
# vmtest-mem: 2G
# vmtest-timeout: 480

SYS=/sys/class/vflash/vflash0
F=/sys/kernel/debug/vflash/vflash0/faults

# Cuts per crashcheck run: 4 runs here, the ext4/sqlite test's on top
# (docs/testing.md: at least 500 cuts across make check on both kernel
# lines and the debug pass).
CUTS=${CUTS:-$(debug_less 55 16)}
FS_CUTS=${FS_CUTS:-$(debug_less 8 2)}
# Operations per thread per round at most (the cut comes after a random
# number of them); SIZE: the crashcheck devices'.
OPS=${OPS:-150}
SIZE=${SIZE:-16M}

stat() { cat "$SYS/stats/$1"; }

rule() {
	echo "$3" >"$F/$1/$2" || fail "$F/$1/$2 refused $3"
}

load_cc() {
	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout ||
		fail "cannot set nvme_core's io_timeout"
	load "$@"
	DEV=$(wait_ns)
}

# GC from the start: watermarks raised, and the device written over 8
# times with zeros (the baseline crashcheck reads), so that tlc's 8 MiB
# blocks are sealed with stale pages on every die before the first round
# (14 rounds of the debug kernel's pass alone started no GC).
gc_soon() {
	local i mib
	echo 90 >$SYS/config/gc_high_pct || fail "gc_high_pct"
	echo 50 >$SYS/config/gc_low_pct || fail "gc_low_pct"
	mib=$(($(cat $SYS/size) >> 20))
	for i in 1 2 3 4 5 6 7 8; do
		dd if=/dev/zero of="$DEV" bs=1M count="$mib" oflag=direct \
			2>/dev/null || fail "preconditioning pass $i"
	done
	echo "preconditioned: gc_runs $(stat gc_runs)"
}

# cc ARGS...: run crashcheck; it must end with no violation, and its
# rounds must have had the write cache on and off and both kinds of cut.
cc() {
	local rc=0
	crashcheck --cuts "$CUTS" --ops "$OPS" "$@" >/tmp/cc.out 2>&1 || rc=$?
	grep -v "^round " /tmp/cc.out | head -n 400
	grep '^round ' /tmp/cc.out | tail -n 3
	expect_eq "$rc" 0 "crashcheck's exit status"
	expect_match "$(tail -n 1 /tmp/cc.out)" \
		"^crashcheck: cuts $CUTS, LBAs checked [1-9][0-9]*, violations 0$" \
		"crashcheck's last line"
	grep -q '^round .*vwc on' /tmp/cc.out || fail "no round with the write cache on"
	grep -q '^round .*vwc off' /tmp/cc.out || fail "no round with the write cache off"
	grep -q '^round .*cut by the rule' /tmp/cc.out || fail "no cut by the rule"
	grep -q '^round .*cut by hand' /tmp/cc.out || fail "no cut by hand"
}

# The flash faults the run armed fired, and GC ran.
expect_flash_work() {
	[ "$(stat gc_runs)" -gt 0 ] || fail "GC never ran"
	[ "$(($(stat fault_program_fails) + $(stat fault_erase_fails)))" -gt 0 ] ||
		fail "no program or erase failure"
	echo "gc_runs $(stat gc_runs), program fails $(stat fault_program_fails), erase fails $(stat fault_erase_fails), bad blocks $(stat bad_blocks)"
}

test_nvme_4k() {
	load_cc frontend=nvme size="$SIZE" profile=tlc
	gc_soon
	cc --faults
	expect_flash_work
	unload
}

test_nvme_512() {
	load_cc frontend=nvme size="$SIZE" profile=tlc lba_size=512
	gc_soon
	cc --faults
	expect_flash_work
	unload
}

test_dual_4k() {
	load_cc frontend=nvme,cxl size="$SIZE" cache_size=1M profile=tlc
	gc_soon
	cc --cxl --faults
	expect_flash_work
	unload
}

test_dual_512() {
	load_cc frontend=nvme,cxl size="$SIZE" cache_size=1M profile=tlc lba_size=512
	cc --cxl
	unload
}

# The oracle can fail: an LBA put back behind the device's back after the
# last cut (as a device that lost a durable write would) is reported, with
# exit status 1; bad arguments exit 2.
test_oracle_catches() {
	local rc=0 lba
	load_cc frontend=nvme size=16M profile=tlc
	crashcheck --cuts 2 --tamper >/tmp/cc.out 2>&1 || rc=$?
	grep -v '^    ' /tmp/cc.out | head -n 20
	expect_eq "$rc" 1 "crashcheck --tamper's exit status"
	lba=$(sed -n 's/^crashcheck: tamper: nsid 1 LBA \([0-9]*\) .*/\1/p' /tmp/cc.out)
	[ -n "$lba" ] || fail "no tamper line"
	grep -q "^VIOLATION seed [0-9]* round 2 nsid 1 lba $lba " /tmp/cc.out ||
		fail "the tampered LBA $lba was not reported"
	expect_match "$(tail -n 1 /tmp/cc.out)" "violations [1-9]" "the last line"
	rc=0
	crashcheck --cuts 0 >/dev/null 2>&1 || rc=$?
	expect_eq "$rc" 2 "crashcheck --cuts 0"
	unload
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
		check=$(sqlite3 "$DB" "PRAGMA integrity_check") ||
			fail "sqlite3 cannot open the database after cut $cut"
		expect_eq "$check" ok "integrity_check after cut $cut"
		max=$(sqlite3 "$DB" "SELECT coalesce(max(n), 0) FROM t")
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

# make bench-crash (scripts/vm/bench/bench-crash.sh) sources this file for
# its functions only.
[ -n "${CRASH_FUNCTIONS_ONLY:-}" ] && return 0

run_test nvme_4k test_nvme_4k
# Under the debug kernel (CI's time; each about 40 s there): the 512-byte
# runs go through the same code with another shift, which the Debian
# kernels' passes cover; the 4 KiB runs keep both frontends and faults.
run_test_not_debug nvme_512 "nvme_4k runs its paths" test_nvme_512
run_test dual_4k test_dual_4k
run_test_not_debug dual_512 "dual_4k runs its paths" test_dual_512
run_test oracle_catches test_oracle_catches
run_test ext4_sqlite test_ext4_sqlite
