#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the Debian kernel whose headers built vflash.ko in QEMU (TCG), once
# per suite, with an initramfs that carries busybox, kmod, fio, nvme-cli,
# ndctl, daxctl, e2fsprogs' mkfs.ext4 and e2fsck, sqlite3, blkzone, btrfs-progs, mkfs.f2fs, trace-cmd, redis,
# memcached and memaslap (if found: from $VFLASH_CACHE/guest-root, where
# setup.sh unpacks them, else the host's), the kernel's nvdimm/dax and NVMe-over-TCP modules, vflash.ko, the suites,
# scripts/trace/ and scripts/bench/study/.
#
# usage: scripts/vmtest.sh [SUITE...]    (default: every scripts/vm/suites/*;
#        a benchmark of scripts/bench/vm/ runs only when named)
#
# A suite reports each test on the VM's second serial port. It fails as a
# whole (one extra failure) if it does not finish within its timeout or if
# the console shows a panic, oops, BUG, WARNING or a lockup. Logs stay in
# build/vmtest/<suite>/ (build/vmtest-debug/ for the debug kernel), files
# a suite sent ("FILE NAME ..." lines) in its files/. A suite's
# "# vmtest-host: COMMAND" line runs COMMAND DIR on the host afterwards;
# its PASS/FAIL/SKIP lines count with the suite's. A suite still running
# 30 s before its timeout gets every task's stack dumped to the console
# (sysrq w and t), so that a hang can be diagnosed from console.log. A
# suite's "# vmtest-prep: COMMAND" line runs COMMAND DIR on the host before
# the VM boots: its PASS/FAIL/SKIP lines count too, and what it leaves in
# DIR/overlay/ is added to that suite's initramfs. Writes
# build/vmtest.counts (or vmtest-debug.counts): "PASSED FAILED SKIPPED",
# and build/vmtest.ktap: every result in KTAP (scripts/vm/ktap.py).
# A suite's "# vmtest-splat-module: MODULE" line keeps kernel warnings
# raised in MODULE (another emulator a benchmark runs beside vflash) from
# failing it; they are counted and shown instead.
# With VMTEST_ONLY=FILE ("SUITE TEST" lines) a suite FILE names runs
# only the tests it lists there (make check's debug line: on Debian's
# kernel, what the debug kernel did not run).
# With VMTEST_BASE_KO=PATH the initramfs also carries that module as
# /vflash/base.ko (a baseline for make bench-faultcost).
# VMTEST_BATCH=N runs up to N suites in one boot (default 1; 4 under the
# debug kernel): see run_suites and make_batches. With VMTEST_REPEAT=1
# (make check's second kernel line) a suite with a "# vmtest-once:
# REASON" line is not booted unless named, and counts as one skip.
# A suite's "# vmtest-env: VAR..." line passes those host variables, if
# set, to the guest (on the kernel command line: one word each).
# VMTEST_TIMEOUT=S: each suite's timeout in place of its own (a long
# benchmark run: BC_SECONDS=100000 VMTEST_TIMEOUT=14400 make bench-crash).
set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$REPO/scripts/vm/boot.sh"

# Which kernel the VM boots: Debian's (the headers vflash.ko was built
# against) or the debug kernel of scripts/debug-kernel.sh (check-debug).
case ${VMTEST_FLAVOUR:-debian} in
debian)
	vm_debian_kernel
	# The default line's module is the repository's own; another
	# line's is built by make check in build/ko-LINE.
	KO=${VMTEST_KO:-$REPO/vflash.ko}
	[ -z "$KSFX" ] || KO=${VMTEST_KO:-$BUILD/ko$KSFX/vflash.ko}
	VMDIR=$BUILD/vmtest$KSFX
	TIME_SCALE=1
	;;
debug)
	DBG=$VFLASH_CACHE/debug-kernel
	KVER=$(cat "$DBG/build/include/config/kernel.release" 2>/dev/null)
	MODROOT=$DBG/modroot
	VMLINUZ=$DBG/bzImage
	KO=$BUILD/debug-ko/vflash.ko
	VMDIR=$BUILD/vmtest-debug
	# KASAN, lockdep and kmemleak make everything several times slower.
	TIME_SCALE=4
	# The local APIC timer's calibration on the console: a boot stuck in
	# the RCU-tasks self-test waits for timer ticks (boot_vm).
	BOOT_APPEND=apic=verbose
	;;
*)
	die "vmtest: unknown VMTEST_FLAVOUR=$VMTEST_FLAVOUR"
	;;
esac
mkdir -p "$VMDIR"
counts=$VMDIR.counts
echo "0 1 0" >"$counts"	# until proven otherwise: the stage failed

[ -f "$VMLINUZ" ] || die "vmtest: no kernel $VMLINUZ; run scripts/setup.sh (or scripts/debug-kernel.sh)"
[ -f "$KO" ] || die "vmtest: no $KO; build it first"

# The initramfs (scripts/vm/boot.sh says what it carries).
build_initramfs() {
	initramfs_root "$VMDIR/root" && initramfs_pack "$VMDIR/root" "$VMDIR/initramfs.cpio"
}

# extract_files DIR: the files a suite sent as "FILE NAME LINE" lines
# (NAME gzipped and base64-encoded, LINE by LINE, then "FILE NAME END")
# into DIR/files/NAME.
extract_files() {
	local dir=$1 name

	for name in $(sed -n 's/^FILE \([^ ]*\) END$/\1/p' "$dir/results.txt"); do
		mkdir -p "$dir/files"
		awk -v n="$name" '$1 == "FILE" && $2 == n && $3 != "END" { print $3 }' \
			"$dir/results.txt" | base64 -d | gzip -dc >"$dir/files/$name" ||
			echo "FAIL file-$name (cannot decode it)" >>"$dir/results.txt"
	done
}


# Console lines that fail a suite whatever its tests said: SPLAT
# (scripts/vm/boot.sh).

total_pass=0
total_fail=0
total_skip=0

# A guest's boot (to /init's first line) takes seconds, or under a
# loaded host a minute; one stuck in the kernel's early boot for longer
# (seen with the debug kernel: its RCU-tasks self-test made no progress
# for 15 minutes under TCG, and again for the whole 8 minutes that were
# the bound then) is killed and booted again. The debug kernel's boots
# reached /init in 23 s at most with another VM beside them, so its
# bound is 180 s, not four times the Debian kernel's. A boot whose console
# has said nothing for BOOT_SILENT s before /init is stuck too: the
# longest silence of a good debug-kernel boot before /init was 8 s (seven
# boots, 2026-12-07), while the stuck ones stop after "Running RCU-tasks
# wait API self tests" for good; so a stuck boot costs 45 s, not 180, and
# a batch gets up to BOOT_TRIES boots (CI's run of 7fd3964 had three
# stuck boots in a row for one batch).
BOOT_TMO=${VMTEST_BOOT_TMO:-120}
[ "$TIME_SCALE" -eq 1 ] || BOOT_TMO=${VMTEST_BOOT_TMO:-180}
BOOT_SILENT=${VMTEST_BOOT_SILENT:-45}
BOOT_TRIES=${VMTEST_BOOT_TRIES:-6}

# boot_vm DIR TIMEOUT SMP MEM SUITE APPEND INITRD [QEMU_ARGS]: run the
# suite's VM to its end; returns qemu's status (timeout's 124 past
# TIMEOUT), or 125 if the guest never printed /init's first line: not
# within BOOT_TMO, or it died before (a panic in early boot, before any
# module of ours is loaded: under an overcommitted host, a soft lockup of
# stop_machine() waiting for a vCPU the host did not run for 26 s was
# seen at 2.7 s into a 4-vCPU boot). QEMU_ARGS: more options, word-split
# (a suite's "# vmtest-qemu:").
boot_vm() {
	local dir=$1 tmo=$2 smp=$3 mem=$4 suite=$5 append=$6 initrd=$7 pid waited=0
	local extra=${8:-} rc s repeat=${VMTEST_REPEAT:-0} size last_size=-1 silent=0

	# A suite with a "# vmtest-once:" line runs once, so never as a light
	# repeat (named on a repeat: make check's debug line runs the studies
	# on Debian's kernel at their one full scale).
	for s in ${suite//,/ }; do
		[ -z "$(directive "$(suite_file "$s")" once)" ] || repeat=0
	done
	: >"$dir/console.log"
	echo "it died in early boot" >"$dir/boot-stuck"
	vm_qemu_argv "$smp" "$mem" "$initrd" \
		"vmsuite=$suite vmflavour=${VMTEST_FLAVOUR:-debian} vmrepeat=$repeat vmtimeout=$tmo ${BOOT_APPEND:-} $append"
	# shellcheck disable=SC2086 # $extra: QEMU options, one per word
	timeout -k 5 "$tmo" "${QEMU_ARGV[@]}" \
		-serial "file:$dir/console.log" -serial "file:$dir/results.log" \
		$extra </dev/null >"$dir/qemu.log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null &&
		! grep -q '^vmtest: suite ' "$dir/console.log"; do
		size=$(stat -c %s "$dir/console.log")
		if [ "$size" != "$last_size" ]; then
			last_size=$size
			silent=0
		fi
		if [ "$waited" -ge "$BOOT_TMO" ] || [ "$silent" -ge "$BOOT_SILENT" ]; then
			echo "no /init after $waited s, the console silent for $silent s" >"$dir/boot-stuck"
			kill "$pid"
			wait "$pid"
			return 125
		fi
		sleep 1
		waited=$((waited + 1))
		silent=$((silent + 1))
	done
	wait "$pid"
	rc=$?
	grep -q '^vmtest: suite ' "$dir/console.log" || return 125
	return "$rc"
}

# children_cpu FILE: CPU seconds (user + system) of this shell's
# waited-for children so far, into FILE; a suite's QEMU is one. (The
# builtin runs in this shell: in a $(...) subshell it would count the
# subshell's children, none.)
children_cpu() {
	times >"$1.times"
	tail -n 1 "$1.times" | awk '
	function secs(x, a) { split(x, a, "m"); sub("s", "", a[2]); return a[1] * 60 + a[2] }
	{ printf "%d\n", secs($1) + secs($2) }' >"$1"
	rm -f "$1.times"
}

# suite_file SUITE: its script (a suite's, else a benchmark's)
suite_file() {
	if [ -f "$REPO/scripts/vm/suites/$1.sh" ]; then
		echo "$REPO/scripts/vm/suites/$1.sh"
	else
		echo "$REPO/scripts/bench/vm/$1.sh"
	fi
}

# not_here SUITE: true (and SUITE counted as one skip) if it is not booted
# this time: the kernel is the debug one and SUITE has a
# "# vmtest-debug-skip: REASON" line, or it is Debian's and SUITE has a
# "# vmtest-debug-only: REASON" line, or this is a repeat on another
# kernel line (VMTEST_REPEAT=1, make check's second and later lines) and
# it has a "# vmtest-once: REASON" line, or a repeat under the debug
# kernel (make check's DEBUG_LINE) and it has a "# vmtest-debug-line-skip:
# REASON" line; a suite named on the command line always runs
not_here() {
	local why=

	[ "$named" -eq 0 ] || return 1
	if [ "${VMTEST_FLAVOUR:-debian}" = debug ]; then
		why=$(directive "$(suite_file "$1")" debug-skip)
		[ -z "$why" ] || why="debug kernel: $why"
	else
		why=$(directive "$(suite_file "$1")" debug-only)
		[ -z "$why" ] || why="Debian's kernel: $why"
	fi
	if [ -z "$why" ] && [ "${VMTEST_REPEAT:-0}" = 1 ]; then
		why=$(directive "$(suite_file "$1")" once)
		[ -z "$why" ] || why="once: $why"
	fi
	# make check's debug line (DEBUG_LINE: the debug kernel with
	# VMTEST_REPEAT=1), whose Debian kernel runs the suite instead
	if [ -z "$why" ] && [ "${VMTEST_REPEAT:-0}" = 1 ] &&
		[ "${VMTEST_FLAVOUR:-debian}" = debug ]; then
		why=$(directive "$(suite_file "$1")" debug-line-skip)
		[ -z "$why" ] || why="debug kernel: $why; make check-debug runs it"
	fi
	[ -n "$why" ] || return 1
	echo "  $1: SKIP ($why)"
	echo "vmtest: $1: 0 passed, 0 failed, 1 skipped (0 s)"
	echo "0 0 1" >"$VMDIR/$1.counts"
}

# finish_suite SUITE QEMU_RC TIMEOUT WHEN: count, print and check what
# the suite's results.txt and console.log (in its directory) say; WHEN
# ends its last line (its time)
finish_suite() {
	local suite=$1 rc=$2 tmo=$3 when=$4 dir=$VMDIR/$1 file host
	local pass fail skip done_ok console splatmod n

	file=$(suite_file "$suite")
	[ ! -f "$dir/prep.log" ] || grep -E '^(PASS|FAIL|SKIP) ' "$dir/prep.log" >>"$dir/results.txt"
	extract_files "$dir"
	# "# vmtest-host: COMMAND": host-side tests on what the suite left
	# in $dir (run as COMMAND DIR, printing PASS/FAIL/SKIP lines).
	host=$(directive "$file" host)
	if [ -n "$host" ]; then
		(cd "$REPO" && $host "$dir") >"$dir/host.log" 2>&1 ||
			echo "FAIL $suite-host ($host exited $?; see $dir/host.log)" >>"$dir/host.log"
		grep -E '^(PASS|FAIL|SKIP) ' "$dir/host.log" >>"$dir/results.txt"
	fi
	pass=$(grep -c '^PASS ' "$dir/results.txt")
	fail=$(grep -c '^FAIL ' "$dir/results.txt")
	skip=$(grep -c '^SKIP ' "$dir/results.txt")
	grep -E '^(PASS|FAIL|SKIP) ' "$dir/results.txt" | sed "s/^/  $suite: /"
	done_ok=1
	if ! grep -q '^DONE' "$dir/results.txt"; then
		if [ "$rc" -eq 125 ]; then
			echo "  $suite: FAIL the guest did not reach /init in $BOOT_TRIES boots (${BOOT_TMO} s each, or ${BOOT_SILENT} s of a silent console)"
		else
			echo "  $suite: FAIL suite did not finish (qemu exit $rc; timeout ${tmo}s)"
		fi
		fail=$((fail + 1))
		done_ok=0
	fi
	# "# vmtest-splat-module: MODULE": kernel warnings of another
	# emulator that a benchmark runs beside vflash (make bench-peer) are
	# its own, not vflash's: a warning block ("cut here" to "end trace")
	# whose task or call trace names MODULE is counted and shown, not
	# failed; every other line is checked as always.
	console=$dir/console.log
	splatmod=$(directive "$file" splat-module)
	if [ -n "$splatmod" ]; then
		console=$dir/console-checked.log
		tr -d '\r' <"$dir/console.log" | awk -v m="$splatmod" -v n="$dir/splat-module.count" '
			/------------\[ cut here \]------------/ { inb = 1; buf = ""; his = 0 }
			inb { buf = buf $0 "\n"
				if (index($0, "[" m "]") || index($0, "Comm: " m)) his = 1
				if ($0 ~ /---\[ end trace/) {
					inb = 0
					if (his) c++; else printf "%s", buf
				}
				next }
			{ print }
			END { if (inb) printf "%s", buf; print c + 0 >n }' >"$console"
		n=$(cat "$dir/splat-module.count")
		[ "$n" -eq 0 ] ||
			echo "  $suite: $n kernel warning(s) in $splatmod (not vflash), not counted: see $dir/console.log"
	fi
	if grep -Eq "$SPLAT" "$console"; then
		echo "  $suite: FAIL kernel log shows a problem:"
		grep -En "$SPLAT" "$console" | head -n 5 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
	if [ "$fail" -gt 0 ] || [ "$done_ok" -eq 0 ]; then
		# What a failed test printed last, so that a log that keeps
		# only these lines (CI's) still says why.
		grep -E '^FAIL ' "$dir/results.txt" | sed 's/^FAIL \([^ ]*\).*/\1/' |
			while read -r t; do
				echo "  $suite: console before FAIL $t:"
				tr -d '\r' <"$dir/console.log" |
					grep -a -B 12 -m 1 -x "vmtest: FAIL $t" | sed 's/^/    /'
			done
		[ "$done_ok" -eq 1 ] || tr -d '\r' <"$dir/console.log" | tail -n 12 | sed 's/^/    /'
		echo "  $suite: logs in $dir"
	fi
	echo "vmtest: $suite: $pass passed, $fail failed, $skip skipped ($when)"
	echo "$pass $fail $skip" >"$dir.counts"
}

# mem_mib SIZE: a "# vmtest-mem:" size (NG or NM; empty: the 4G default)
# in MiB
mem_mib() {
	case ${1:-4G} in
	*G) echo $((${1%G} * 1024)) ;;
	*M) echo "${1%M}" ;;
	*) die "vmtest: memory size $1 is neither NG nor NM" ;;
	esac
}

# run_suites SUITE...: boot one VM for the suites (a batch, if more than
# one: they share the first one's CPUs, kernel command line and QEMU
# options, which make_batches saw to, and the largest memory any of them
# asks for), run them one after another and count each.
run_suites() {
	local first=$1 file mem=0 smp append tmo=0 t qemu_args prep initrd dir s
	local rc t0 t1 c0 c1 name list overlays='' took

	name=$(IFS=+; echo "$*")
	list=$(IFS=,; echo "$*")
	file=$(suite_file "$first")
	for s; do
		[ -f "$(suite_file "$s")" ] || continue
		t=$(directive "$(suite_file "$s")" mem)
		# "# vmtest-debug-mem:": what a light run under the debug
		# kernel needs, where the full scale needs more. Its boot
		# initialises every page's struct page in a kthread that the
		# early RCU-tasks self-test waits for: with 6 GiB, on a busy
		# host, that wait outlasted two boots of 180 s (2026-12-07).
		if [ "${VMTEST_FLAVOUR:-}" = debug ] &&
			[ -n "$(directive "$(suite_file "$s")" debug-mem)" ]; then
			t=$(directive "$(suite_file "$s")" debug-mem)
		fi
		t=$(mem_mib "$t")
		[ "$t" -le "$mem" ] || mem=$t
	done
	mem=${mem}M
	smp=$(directive "$file" smp)
	append=$(directive "$file" append)
	for s; do
		# "# vmtest-env: VAR...": each VAR set on the host goes to the
		# guest as VAR=VALUE on the kernel command line (the kernel
		# gives init the words it does not know as its environment):
		# a benchmark's knobs (BC_CUTS=... make bench-crash). A value
		# is one word: no blanks.
		[ -f "$(suite_file "$s")" ] || continue
		for t in $(directive "$(suite_file "$s")" env); do
			[ -z "${!t:-}" ] || append="$append $t=${!t}"
		done
	done
	for s; do
		echo "0 1 0" >"$VMDIR/$s.counts"	# until the suite ends
		[ -f "$(suite_file "$s")" ] || { echo "vmtest: no suite $s" >&2; return; }
		t=$(directive "$(suite_file "$s")" timeout)
		tmo=$((tmo + ${VMTEST_TIMEOUT:-${t:-300}} * TIME_SCALE))
		rm -rf "${VMDIR:?}/$s"
		mkdir -p "$VMDIR/$s"
	done
	dir=$VMDIR/$first
	if [ $# -gt 1 ]; then
		dir=$VMDIR/batch-$name
		rm -rf "$dir"
		mkdir -p "$dir"
	fi
	# "# vmtest-qemu: ARGS": more QEMU options, @DIR@ standing for the
	# suite's log directory (make bench-icount's plugin).
	qemu_args=$(directive "$file" qemu)
	qemu_args=${qemu_args//@DIR@/$dir}
	t0=$(date +%s)
	children_cpu "$dir/cpu0"
	# "# vmtest-prep: COMMAND": host-side work before the boot (run as
	# COMMAND DIR); DIR/overlay/ goes on top of the initramfs, as a second
	# cpio archive the kernel unpacks after the first.
	initrd=$VMDIR/initramfs.cpio
	for s; do
		prep=$(directive "$(suite_file "$s")" prep)
		[ -n "$prep" ] || continue
		(cd "$REPO" && $prep "$VMDIR/$s") >"$VMDIR/$s/prep.log" 2>&1 ||
			echo "FAIL $s-prep ($prep exited $?; see $VMDIR/$s/prep.log)" >>"$VMDIR/$s/prep.log"
		if [ -d "$VMDIR/$s/overlay" ]; then
			(cd "$VMDIR/$s/overlay" && find . | cpio -o -H newc --quiet) >"$VMDIR/$s/overlay.cpio"
			overlays="$overlays $VMDIR/$s/overlay.cpio"
		fi
	done
	if [ -n "$overlays" ]; then
		# shellcheck disable=SC2086 # one path per word
		cat "$VMDIR/initramfs.cpio" $overlays >"$dir/initramfs.cpio"
		initrd=$dir/initramfs.cpio
	fi
	boot_vm "$dir" "$tmo" "${smp:-2}" "$mem" "$list" "$append" "$initrd" "$qemu_args"
	rc=$?
	# A boot that never reached /init ran no test: up to BOOT_TRIES boots
	# in all (the debug kernel's RCU-tasks self-test stalled both boots of
	# one batch at the start of two CI runs on 2026-12-07, and all three
	# of one batch in a third; each stuck console is kept, numbered).
	for s in $(seq 2 "$BOOT_TRIES"); do
		[ "$rc" -eq 125 ] || break
		mv "$dir/console.log" "$dir/console-stalled-boot-$((s - 1)).log"
		echo "  $name: the guest did not reach /init ($(cat "$dir/boot-stuck"): $dir/console-stalled-boot-$((s - 1)).log); boot $s of $BOOT_TRIES"
		boot_vm "$dir" "$tmo" "${smp:-2}" "$mem" "$list" "$append" "$initrd" "$qemu_args"
		rc=$?
	done
	t1=$(date +%s)
	children_cpu "$dir/cpu1"
	c0=$(cat "$dir/cpu0") c1=$(cat "$dir/cpu1")

	tr -d '\r' <"$dir/results.log" >"$dir/results.txt"
	if [ $# -eq 1 ]; then
		finish_suite "$first" "$rc" "$tmo" "$((t1 - t0)) s, $((c1 - c0)) s CPU"
		return
	fi
	# A batch: the results port and the console split at the lines
	# /init prints before each suite (the boot's lines go with the
	# first suite's, the kmemleak scan's after the last with the batch's).
	for s; do
		: >"$VMDIR/$s/results.txt"
		: >"$VMDIR/$s/console.log"
	done
	awk -v d="$VMDIR" -v s="$first" '
		BEGIN { out = d "/" s "/results.txt" }
		/^SUITE / { out = d "/" $2 "/results.txt"; next }
		{ print >out }' "$dir/results.txt"
	tr -d '\r' <"$dir/console.log" | awk -v d="$VMDIR" -v s="$first" -v end="$dir/console-end.log" '
		BEGIN { out = d "/" s "/console.log"; printf "" >end }
		/^vmtest: suite [^ ]+ on / { out = d "/" $3 "/console.log" }
		/^vmtest: batch end$/ { out = end }
		{ print >out }'
	for s; do
		took=$(sed -n "s/^vmtest: suite $s took \([0-9]*\) s$/\1/p" "$VMDIR/$s/console.log")
		finish_suite "$s" "$rc" "$tmo" "${took:-?} s in the guest, in batch $name"
	done
	# The batch's end (its kmemleak scan) fails the batch's last suite.
	if grep -Eq "$SPLAT" "$dir/console-end.log"; then
		echo "  $name: FAIL kernel log after the batch's last suite (its kmemleak scan) shows a problem:"
		grep -En "$SPLAT" "$dir/console-end.log" | head -n 5 | sed 's/^/    /'
		echo "  $name: logs in $dir"
		read -r p f k <"$VMDIR/$s.counts"
		echo "$p $((f + 1)) $k" >"$VMDIR/$s.counts"
	fi
	echo "vmtest: $name: a batch of $# suites in one boot ($((t1 - t0)) s, $((c1 - c0)) s CPU)"
}

# make_batches MAX SUITE...: the suites in groups of at most MAX that can
# share a boot (the same CPUs, kernel command line and QEMU options; a
# suite with QEMU options of its own runs alone; the batch gets the
# largest memory of its suites, run_suites), one group a
# line, comma-separated, each after its timeouts' sum and a tab, in the
# order of their first suites
make_batches() {
	local max=$1 s f

	shift
	for s; do
		f=$(suite_file "$s")
		printf '%s\t%s\t%s|%s|%s\n' "$s" "$(directive "$f" timeout)" \
			"$(directive "$f" smp)" "$(directive "$f" append)" \
			"$(directive "$f" qemu)"
	done | awk -F'\t' -v max="$max" '
		{ k = $3
		  if (k !~ /\|$/) k = k $1
		  if (!(k in cur) || n[k] == max) { cur[k] = ++nb; n[k] = 0 }
		  b = cur[k]
		  batch[b] = batch[b] (n[k] ? "," : "") $1
		  tmo[b] += $2 == "" ? 300 : $2
		  n[k]++ }
		END { for (i = 1; i <= nb; i++) print tmo[i] "\t" batch[i] }'
}

build_initramfs || die "vmtest: cannot build the initramfs"
named=1
if [ $# -eq 0 ]; then
	named=0
	set -- $(cd "$REPO/scripts/vm/suites" && ls *.sh | sed 's/\.sh$//')
fi
# VMTEST_JOBS=N boots up to N suites at a time (default 1). Each suite's
# lines are printed whole when it ends, so they never interleave.
jobs=${VMTEST_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0) die "vmtest: VMTEST_JOBS=$jobs is not a positive number" ;; esac
# Several at a time, the whole list starts with the suites of the longest
# timeout (the longest suites), so that none of them is left running alone
# at the end (common.sh's by_timeout).
if [ "$jobs" -gt 1 ] && [ "$named" -eq 0 ]; then
	n=$#
	set -- $(by_timeout "$@")
	[ $# -eq "$n" ] || die "vmtest: lost suites ordering $n of them: $*"
fi
# VMTEST_BATCH=N: up to N suites in one boot (make_batches), default 1,
# and 4 under the debug kernel, whose boot and kmemleak scan cost ~40 s
# of CPU a boot (docs/develop/testing.md).
batch=${VMTEST_BATCH:-}
[ -n "$batch" ] || { [ "$TIME_SCALE" -eq 1 ] && batch=1 || batch=4; }
case $batch in '' | *[!0-9]* | 0) die "vmtest: VMTEST_BATCH=$batch is not a positive number" ;; esac
torun=
for s in "$@"; do
	not_here "$s" || torun="$torun $s"
done
# Several at a time, the longest batches (by their timeouts) first, as
# with the suites above.
# shellcheck disable=SC2086 # suite names, one per word
units=$(make_batches "$batch" $torun |
	if [ "$jobs" -gt 1 ] && [ "$named" -eq 0 ]; then sort -s -k1,1nr; else cat; fi |
	cut -f 2)
all="$*"
running=0
for u in $units; do
	# shellcheck disable=SC2046 # a batch's suites, one per word
	set -- $(echo "$u" | tr , ' ')
	if [ "$jobs" -eq 1 ]; then
		run_suites "$@"
		continue
	fi
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	(run_suites "$@" >"$VMDIR/${u//,/+}.out" 2>&1; flock "$VMDIR/.print.lock" cat "$VMDIR/${u//,/+}.out") &
	running=$((running + 1))
done
wait
for s in $all; do
	read -r p f k <"$VMDIR/$s.counts" || { p=0 f=1 k=0; }
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + k))
done
echo "$total_pass $total_fail $total_skip" >"$counts"
# The same results in KTAP (what KUnit prints) for kernel tooling, and
# where the guest's time went.
# shellcheck disable=SC2086 # suite names, one per word
python3 "$REPO/scripts/vm/ktap.py" "$VMDIR" $all >"$VMDIR.ktap" ||
	echo "vmtest: cannot write $VMDIR.ktap"
# shellcheck disable=SC2086
[ "$(echo $all | wc -w)" -le 1 ] || python3 "$REPO/scripts/vm/ktap.py" --slowest 5 "$VMDIR" $all | sed 's/^/vmtest: /'
echo "vmtest: $total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
