# SPDX-License-Identifier: GPL-2.0
# Helpers for VM test suites, sourced by /init in the guest.
#
# A suite is a shell script that defines test functions and runs each with
# run_test NAME FUNCTION [ARGS]. A test function runs in a subshell with
# set -e: any failing command fails the test, as does fail MESSAGE.
# Results go to the second serial port, which the host reads; everything
# else (and the kernel log) goes to the console.

KO=/vflash/vflash.ko
RESULTS=/dev/ttyS1
# Which kernel: debian, or debug (make check-debug: KASAN, lockdep and
# kmemleak make everything several times slower; a suite may do less).
VM_FLAVOUR=$(sed -n 's/.*vmflavour=\([^ ]*\).*/\1/p' /proc/cmdline)

debug_kernel() {
	[ "$VM_FLAVOUR" = debug ]
}

# A light run: the debug kernel (make check-debug), or a repeat of the
# suites on make check's second kernel line (VMTEST_REPEAT=1, vmrepeat=1
# on the kernel command line). Both are CPU-bound in CI and both run the
# first line's assertions again (docs/develop/testing.md): there a test runs the
# same kernel paths with less data or fewer rounds, never fewer checks.
VM_REPEAT=$(sed -n 's/.*vmrepeat=\([^ ]*\).*/\1/p' /proc/cmdline)

light_run() {
	debug_kernel || [ "$VM_REPEAT" = 1 ]
}

# light NORMAL LESS: NORMAL, or LESS on a light run.
light() {
	if light_run; then echo "$2"; else echo "$1"; fi
}

# Debian's static busybox runs its own applets before anything in PATH, and
# its insmod retries a failed load (running the module's init twice): use
# kmod for everything module-related.
insmod() { /sbin/insmod "$@"; }
rmmod() { /sbin/rmmod "$@"; }
lsmod() { /sbin/lsmod "$@"; }
modprobe() { /sbin/modprobe "$@"; }
modinfo() { /sbin/modinfo "$@"; }

report() {
	echo "$*" >"$RESULTS"
	echo "vmtest: $*"
}

# save_file NAME PATH: send a file to the host, which writes it to
# build/vmtest/<suite>/files/NAME (scripts/vmtest.sh, extract_files)
save_file() {
	gzip -c "$2" | base64 | sed "s/^/FILE $1 /" >"$RESULTS"
	echo "FILE $1 END" >"$RESULTS"
	echo "vmtest: sent $2 as $1 ($(wc -c <"$2") bytes)"
}

run_test() {
	local name=$1 rc t0 rt_p0 rt_p1 rt_n rt_x
	shift
	only_skips "$name" && return 0
	echo "vmtest: === $name"
	t0=$(date +%s)
	# The last PID given (/proc/loadavg's fifth field), read without a
	# process of its own (rt_: the test function sees these locals)
	read -r rt_x rt_x rt_x rt_x rt_p0 </proc/loadavg
	(set -e; "$@")
	rc=$?
	read -r rt_x rt_x rt_x rt_x rt_p1 </proc/loadavg
	# Guest time, and the processes and threads started (PIDs wrap at
	# pid_max; under the debug kernel a process start costs 0.1 s, one
	# of nvme-cli 0.8 s: docs/develop/testing.md), on the console only:
	# where a suite's minutes go.
	echo "vmtest: $name took $(($(date +%s) - t0)) s"
	rt_n=$((rt_p1 - rt_p0))
	[ "$rt_n" -ge 0 ] || { read -r rt_x </proc/sys/kernel/pid_max; rt_n=$((rt_n + rt_x)); }
	echo "vmtest: $name started $rt_n processes"
	if [ "$rc" -eq 0 ]; then
		report "PASS $name"
	else
		report "FAIL $name"
	fi
	# Whatever a test left loaded would spoil the next one; the
	# module stays while configfs devices hold it.
	remove_configfs_devices
	if [ -d /sys/module/vflash ]; then
		rmmod vflash 2>/dev/null || echo "vmtest: cannot unload vflash"
	fi
	return 0
}

# only_skips NAME: true if this boot runs chosen tests and NAME is not
# one of them. /vflash/only (scripts/vmtest.sh's VMTEST_ONLY) holds
# "SUITE TEST" lines: a suite it names runs only those tests, reporting
# nothing for the others; other suites run whole. make check's debug line
# runs on Debian's kernel only what the debug kernel did not
# (docs/develop/testing.md). $suite is /init's.
only_skips() {
	[ -f /vflash/only ] || return 1
	# shellcheck disable=SC2154 # /init's loop variable
	grep -q "^$suite " /vflash/only || return 1
	! grep -qx "$suite $1" /vflash/only
}

# run_test_not_debug NAME REASON COMMAND...: run_test NAME COMMAND..., but
# under the debug kernel only a "SKIP NAME (debug kernel: REASON)" line
# (CI's time, or a path that kernel cannot take; docs/develop/testing.md lists them)
run_test_not_debug() {
	local name=$1 reason=$2
	shift 2
	if debug_kernel; then
		report "SKIP $name (debug kernel: $reason)"
	else
		run_test "$name" "$@"
	fi
}

# run_test_full_debug NAME REASON COMMAND...: run_test NAME COMMAND...,
# but on make check's debug line (the debug kernel with vmrepeat=1:
# DEBUG_LINE in scripts/check.sh) only a "SKIP NAME (debug kernel: REASON;
# make check-debug runs it)" line: CI's time. Its kernel paths run there
# in the test REASON names; that line's Debian kernel runs it, and so
# does make check-debug (docs/develop/testing.md).
run_test_full_debug() {
	local name=$1 reason=$2
	shift 2
	if debug_kernel && [ "$VM_REPEAT" = 1 ]; then
		report "SKIP $name (debug kernel: $reason; make check-debug runs it)"
	else
		run_test "$name" "$@"
	fi
}

fail() {
	echo "vmtest: FAIL: $*"
	exit 1
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', want '$2'"
}

# expect_match TEXT PATTERN WHAT (grep -E)
expect_match() {
	echo "$1" | grep -Eq -- "$2" || fail "$3: '$1' does not match /$2/"
}

# expect_write_refused FILE VALUE WHY [ERRNO_TEXT]: writing VALUE to
# FILE fails (the shell's error matching ERRNO_TEXT, if given; grep -E),
# and the kernel log gets exactly one line about vflash, matching WHY
# (grep).
# vflash_log: print the kernel log's lines about vflash; their number in
# VFLASH_LOG_LINES, the last in VFLASH_LOG_LAST. The log is read once and
# its lines picked by the shell: under the debug kernel every process
# started costs a tenth of a second or more, and the bad-input tests
# look at the log dozens of times a suite. The module loader's own lines
# at a boot's first load of vflash.ko (the taint and, on Debian's kernel,
# the missing signature) are the kernel's, not vflash's: CI once ran a
# refusal as its boot's first load and counted three lines.
vflash_log() {
	local line
	VFLASH_LOG_LINES=0
	VFLASH_LOG_LAST=
	while IFS= read -r line; do
		case $line in
		*"vflash: loading out-of-tree module taints kernel."* | \
			*"vflash: module verification failed: "*) ;;
		*vflash*)
			echo "$line"
			VFLASH_LOG_LAST=$line
			VFLASH_LOG_LINES=$((VFLASH_LOG_LINES + 1))
			;;
		esac
	done <<EOF
$(dmesg)
EOF
}

expect_write_refused() {
	local out
	dmesg -c >/dev/null
	if out=$(sh -c 'echo "$2" >"$1"' sh "$1" "$2" 2>&1); then
		fail "$1 took '$2'"
	fi
	[ -z "${4:-}" ] || expect_match "$out" "$4" "error writing '$2' to $1"
	vflash_log
	expect_eq "$VFLASH_LOG_LINES" 1 "dmesg lines for $1=$2"
	echo "$VFLASH_LOG_LAST" | grep -q -- "$3" || fail "the line does not say '$3'"
}

# switch_policies_while PID EVICTIONS PREFETCHES: while PID runs, switch
# vflash0's eviction policy through EVICTIONS and then its prefetch
# policy through PREFETCHES, round after round; the rounds in ROUNDS. A
# refused switch fails it (non-zero status). It runs in the caller's
# shell, which reaps PID: in a $(...) subshell a finished PID would stay
# a zombie, alive to kill -0, until the caller waited.
switch_policies_while() {
	local pid=$1 p
	ROUNDS=0

	while kill -0 "$pid" 2>/dev/null; do
		for p in $2; do
			echo "$p" >/sys/class/vflash/vflash0/policy/eviction ||
				return 1
		done
		for p in $3; do
			echo "$p" >/sys/class/vflash/vflash0/policy/prefetch ||
				return 1
		done
		ROUNDS=$((ROUNDS + 1))
	done
}

# smart_log: nvme smart-log's text output for /dev/nvme0 into /tmp/smart,
# for smart_field (one nvme-cli run for the fields of one moment: a run
# costs the debug kernel a second or more)
smart_log() {
	nvme smart-log /dev/nvme0 >/tmp/smart || fail "nvme smart-log"
}

# smart_field FIELD: the number after "FIELD :" in the log smart_log
# saved in /tmp/smart (parsed by the shell: a process costs a tenth of a
# second or more under the debug kernel)
smart_field() {
	local line v
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		"$1"*) ;;
		*) continue ;;
		esac
		v=${line#"$1"}
		v=${v#"${v%%[![:space:]]*}"}
		case $v in
		:*) v=${v#:} ;;
		*) continue ;;
		esac
		v=${v#"${v%%[! ]*}"}
		echo "${v%%[!0-9]*}"
	done </tmp/smart
}

# expect_usage_error WHO CMD ARGS...: CMD ARGS is refused with exit
# status 2 and a message naming WHO (a script given a bad option)
expect_usage_error() {
	local who=$1 rc=0 out
	shift
	out=$("$@" 2>&1) || rc=$?
	echo "$out" | head -n 3
	expect_eq "$rc" 2 "exit status of $*"
	expect_match "$out" "$who: " "the message"
}

# wait_for PATH: PATH appears within 10 s (a device node, a sysfs file)
wait_for() {
	local n=0

	while [ ! -e "$1" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -e "$1" ] || fail "$1 did not appear"
}

# devdax: the legacy pmem range of the VM's memmap=SIZE!START as a plain
# devdax device with 4 KiB pages, /dev/dax0.0 (the benchmarks' DRAM
# reference); ndctl's output on stdout
devdax() {
	modprobe nd_e820 || fail "modprobe nd_e820"
	modprobe nd_pmem || fail "modprobe nd_pmem"
	modprobe dax_pmem || fail "modprobe dax_pmem"
	modprobe device_dax || fail "modprobe device_dax"
	ndctl create-namespace -f -e namespace0.0 -m devdax -a 4096 ||
		fail "ndctl create-namespace"
	wait_for /dev/dax0.0
}

# ns: the block device of vflash's live namespace (frontend=nvme). Its
# name may change across a power cycle (faults/power_cut): while the old
# disk is held (a mounted file system) the new one gets the next name (nvme0n2: the kernel's native multipath
# names disks by subsystem, and the powered-up controller joins the same
# subsystem, as a drive with the same serial does).
ns() {
	local d
	for d in /sys/block/nvme*n*; do
		[ -e "$d" ] || continue
		[ "$(cat "$d/size")" != 0 ] || continue
		grep -q vflash "$d/device/model" 2>/dev/null || continue
		echo "/dev/${d##*/}"
		return 0
	done
	return 1
}

# wait_ns: vflash's namespace is (back) up; prints it
wait_ns() {
	local n=0 d
	while ! d=$(ns) || [ ! -b "$d" ]; do
		[ $n -lt 150 ] || fail "no vflash namespace after 15 s"
		sleep 0.1
		n=$((n + 1))
	done
	echo "$d"
}

CFS=/sys/kernel/config/vflash

# vflash needs configfs.ko (its device tree), which insmod does not load:
# make sure it is loaded and mounted.
need_configfs() {
	modprobe configfs 2>/dev/null || true
	[ -d /sys/kernel/config ] || fail "no configfs"
	grep -q ' /sys/kernel/config configfs' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config ||
		fail "cannot mount configfs"
}

# remove_configfs_devices: rmdir every device directory (powering it
# off), so that the module can be unloaded
remove_configfs_devices() {
	local d

	[ -d $CFS ] || return 0
	for d in $CFS/*/; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	return 0
}

load() {
	need_configfs
	insmod "$KO" "$@" || fail "insmod vflash $*"
}

unload() {
	rmmod vflash || fail "rmmod vflash"
}

# median_lower: the middle line of stdin's numbers (the lower of two
# middles), for the benchmarks' medians of integer ratios
median_lower() {
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

memfree_kb() {
	sed -n 's/^MemFree: *\([0-9]*\) kB/\1/p' /proc/meminfo
}

# Nothing of vflash is left in the system.
expect_gone() {
	[ ! -e /sys/module/vflash ] || fail "module still loaded"
	[ ! -e /sys/class/vflash ] || fail "/sys/class/vflash still there"
	! grep -q vflash /proc/iomem || fail "/proc/iomem still has a vflash claim"
}

# expect_nvme_status CODE WHAT COMMAND...: COMMAND (nvme-cli) fails with
# NVMe status CODE (hex, without DNR), as nvme-cli prints it
expect_nvme_status() {
	local code=$1 what=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		fail "$what succeeded"
	fi
	echo "$out" | grep -iq "0x[0-9a-f]*$code)" ||
		fail "$what: want status $code, got: $out"
}

# expect_load_error ERRNO_TEXT WHY PARAMS...: the load fails with an
# errno whose strerror text is ERRNO_TEXT, printing exactly one dmesg line,
# which matches WHY (grep -E; it names the parameter, and may go on to the
# reason), and leaves nothing behind; a good load then works.
expect_load_error() {
	local errtext=$1 why=$2 out
	shift 2
	need_configfs
	dmesg -c >/dev/null
	if out=$(insmod "$KO" "$@" 2>&1); then
		fail "insmod vflash $* succeeded"
	fi
	echo "$out"
	expect_match "$out" "$errtext" "insmod error"
	vflash_log
	expect_eq "$VFLASH_LOG_LINES" 1 "dmesg lines about vflash"
	echo "$VFLASH_LOG_LAST" | grep -Eq -- "$why" ||
		fail "the dmesg line does not match /$why/"
	expect_gone
	# A good load works afterwards: nothing the failed one registered
	# was left behind. The Debian kernel's run checks that; the debug
	# kernel's (where a load takes seconds) is there for what the failed
	# load itself did, which kmemleak and KASAN see.
	debug_kernel && return 0
	load frontend=none size=16M
	unload
	expect_gone
}

# --- Device images (docs/images.md): the store, zns and fdp suites -----
IMG=/tmp/image

# dev_sum: md5 of the whole of $DEV
dev_sum() {
	dd if=$DEV bs=1M iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
}

# hold_nvme: the host shuts the controller down, then the device is held
hold_nvme() {
	basename "$(readlink -f /sys/class/nvme/nvme0/device)" \
		>/sys/bus/pci/drivers/nvme/unbind || fail "unbind"
	echo held >"${SYS:?the suite sets SYS}/state" || fail "state=held"
	expect_eq "$(cat $SYS/state)" held "state"
}

# save_image: the held device's image to $IMG
save_image() {
	dd if="${SYS:?the suite sets SYS}/image" of=$IMG bs=64k 2>/dev/null || fail "reading the image"
	echo "image: $(wc -c <$IMG) bytes"
}

# image_round_trip PARAM...: the host shuts the controller down, the held
# device's image goes to $IMG, the module is unloaded, and a new device of
# PARAM made held takes the image (restore_image); it stays held.
# HELD_WRITTEN: the saved device's host_write_pages once held (a CXL
# cache's dirty pages are written back by the hold)
image_round_trip() {
	hold_nvme
	# shellcheck disable=SC2034 # read by the suites
	HELD_WRITTEN=$(cat "$SYS/stats/host_write_pages")
	save_image
	unload
	restore_image "$@"
}

# restore_image PARAM...: a new device of PARAM made held takes $IMG
restore_image() {
	load hold=1 "$@"
	: "${SYS:?the suite sets SYS}"
	expect_eq "$(cat $SYS/state)" held "state of a hold=1 device"
	[ ! -e $DEV ] || fail "a held device has a namespace"
	dd if=$IMG of=$SYS/image bs=64k 2>/dev/null ||
		fail "restore refused: $(dmesg | grep 'image:' | tail -n 1)"
}
