#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the whole test suite on the kernel lines of KERNELS
# (default: KERNEL, itself 6.1 by default; docs/develop/kernels.md). CI
# runs both Debian 12 lines: make check KERNELS="6.1 6.12".
#   1. the first line's vflash.ko, W=1 (any compiler or modpost warning
#      fails it)
#   2. with it, in the VM: make try DEMO=1's tour and make try's shell
#      with piped input (scripts/try.sh), then the VM suites, two at a
#      time (scripts/vmtest.sh), and their KTAP read back by kunit.py
#      (scripts/vm/ktap-check.sh); meanwhile, in the background:
#      checkpatch --strict, shellcheck over scripts/bench/study/,
#      vflashctl, scripts/install/ and make try's scripts, the layering
#      of docs/design/architecture.md (scripts/layer-check.py), sparse
#      (C=2), the KUnit suites under UML (scripts/kunit.sh; on the lines
#      of KUNIT_KERNELS, default all; a line left out counts one skipped
#      test), and every further line's W=1 build (of a copy of the
#      sources, in build/ko-LINE, so the repository's vflash.ko stays the
#      first line's) and sparse
#   3. on every further line, against its headers, source and Debian
#      kernel: KUnit and the VM suites again: those with a "# vmtest-once:"
#      line (the studies) are not booted there, and the others share
#      boots, four at a time (VMTEST_REPEAT=1, VMTEST_BATCH=4;
#      docs/develop/testing.md).
# DEBUG_LINE=6.1 (CI) runs that line's VM suites under the debug kernel
# built from its source (scripts/check-debug.sh), and on its Debian
# kernel only what the debug kernel did not run: the suites with a
# "# vmtest-debug-skip:" or "# vmtest-debug-line-skip:" line and the
# tests it reported "SKIP NAME (debug kernel: ...)" (debug_vm_line).
# It ends with one line "N passed, N failed, N skipped" that counts
# KUnit cases and VM tests of every line together; each build and static
# check counts as one test. A stage that cannot run counts as a failure.
# Exit status is non-zero if anything failed.
set -uo pipefail
# make check KERNEL=6.12, or KERNELS="6.1 6.12" for both
lines=${KERNELS:-${KERNEL:-6.1}}
# The lines whose KUnit suites run (default: all of them). CI gives
# KUNIT_KERNELS=6.1: the UML build of a second line costs about 7 minutes
# on a fresh machine for the same C code, which that line's W=1 build,
# sparse and VM suites cover (docs/develop/testing.md).
kunit_lines=${KUNIT_KERNELS:-$lines}
first_line=${lines%% *}
debug_line=${DEBUG_LINE:-}
# Suites booted at a time (scripts/vmtest.sh): a suite's QEMU keeps about
# one of the 2 cores busy, so two halve the VM stage (docs/develop/testing.md).
export VMTEST_JOBS=${VMTEST_JOBS:-2}
. "$(dirname "$0")/common.sh"

# Start from nothing: a full rebuild shows every warning, and no result of
# an earlier run can be mistaken for one of this run.
make -C "$REPO" clean >/dev/null 2>&1
mkdir -p "$BUILD"
passed=0
failed=0
skipped=0

# add_counts FILE: add a stage's "PASSED FAILED SKIPPED"
add_counts() {
	local p f s
	read -r p f s <"$1" || { p=0 f=1 s=0; }
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

# one_test NAME COMMAND...: a stage that is a single test
one_test() {
	local name=$1
	shift
	echo "== $name"
	if "$@"; then
		echo "check: PASS $name"
		passed=$((passed + 1))
		return 0
	fi
	echo "check: FAIL $name"
	failed=$((failed + 1))
	return 1
}

# setup_usage: scripts/setup.sh -h prints its usage and does nothing else
# (it once ran the installer), an unknown argument exits 2
setup_usage() {
	local out rc=0 cache=$BUILD/setup-usage-cache

	rm -rf "$cache"
	out=$(VFLASH_CACHE=$cache "$REPO/scripts/setup.sh" -h </dev/null) ||
		{ echo "setup.sh -h: exit status $?"; return 1; }
	echo "$out" | grep -q '^usage: scripts/setup.sh' ||
		{ echo "setup.sh -h: no usage line"; return 1; }
	[ ! -e "$cache" ] || { echo "setup.sh -h made $cache: it ran"; return 1; }
	VFLASH_CACHE=$cache "$REPO/scripts/setup.sh" --frob </dev/null >/dev/null 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { echo "setup.sh --frob: exit status $rc, not 2"; return 1; }
	[ ! -e "$cache" ] || { echo "setup.sh --frob made $cache: it ran"; return 1; }
}

build_w1() {
	make -C "$REPO" W=1 -j"$(nproc)" modules tools 2>&1 | tee "$BUILD/build.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || return 1
	! grep -E '(warning|error):|WARNING:' "$BUILD/build.log"
}

# build_line_w1 DIR: another line's vflash.ko, W=1, from a copy in DIR.
# The test tools, which do not depend on the kernel, are built first (if
# not yet), so that the copy has them too: the tool suite's make install
# runs there (make check KERNEL=6.12 alone once failed it for want of
# scripts/tools/mmap_lat).
build_line_w1() {
	make -C "$REPO" tools || return 1
	build_ko_copy "$KDIR" "$1" "$BUILD/build$KSFX.log" ||
		{ cat "$BUILD/build$KSFX.log"; return 1; }
}

# try_shell: make try's shell with its input piped (docs/try.md): the
# lines run at the guest's prompt (the 42 is the guest's arithmetic, not
# the echoed input) and the VM ends when the input does. Their input once
# never reached the guest (a background job's stdin is /dev/null). A boot
# whose shell never showed its prompt (within try.sh's wait, or the
# 300 s timeout) gets one more try, as vmtest.sh
# gives a boot that never reached /init (CI's run of 980a0c5 failed here
# once and kept no trace of why: the output's end is now printed
# indented, which .ci/run's list of failures keeps).
try_shell() {
	local out=$BUILD/try-shell.out n

	for n in 1 2; do
		# shellcheck disable=SC2016 # the guest's shell expands it
		printf 'vflashctl status | head -n 1\necho "try-shell-$((6 * 7))"\n' |
			timeout 300 "$REPO/scripts/try.sh" >"$out" 2>&1 &&
			grep -q '^vflash0: frontend nvme' "$out" && grep -q '^try-shell-42' "$out" &&
			return 0
		# the prompt shown: the lines reached a shell, no second try
		! grep -q 'vflash-try# ' "$out" || break
		echo "try-shell: boot $n: the guest's shell never showed its prompt; booting again"
		tail -n 5 "$out" | sed 's/^/    /'
	done
	tail -n 30 "$out" | sed 's/^/    /'
	return 1
}

# sparse prints every file it checks: show only what it reports.
sparse_quiet() {
	"$REPO/scripts/sparse.sh" "$@" >"$BUILD/sparse$KSFX.out" 2>&1 && return 0
	grep -E '(warning|error):' "$BUILD/sparse$KSFX.out" ||
		tail -n 20 "$BUILD/sparse$KSFX.out"
	return 1
}

# kunit_line: the KUnit suites on the line of KERNEL (if in KUNIT_KERNELS)
kunit_line() {
	echo "== kunit ($KERNEL)"
	if [[ " $kunit_lines " != *" $KERNEL "* ]]; then
		echo "check: SKIP kunit ($KERNEL): not in KUNIT_KERNELS=\"$kunit_lines\""
		skipped=$((skipped + 1))
		return
	fi
	local t0=$SECONDS
	"$REPO/scripts/kunit.sh" >"$BUILD/kunit$KSFX.out" 2>&1
	# The first UML build of a line is most of it on a fresh machine.
	echo "check: kunit ($KERNEL) took $((SECONDS - t0)) s"
	grep -aE '^\[[0-9:]+\] (=|\[(PASSED|FAILED|SKIPPED|CRASHED)\]|Testing complete)|# .*(not ok|fail)' "$BUILD/kunit$KSFX.out" ||
		tail -n 40 "$BUILD/kunit$KSFX.out"
	add_counts "$BUILD/kunit$KSFX.counts"
}

# vm_line BUILT: the VM suites on the line of KERNEL, if its module BUILT
vm_line() {
	echo "== vmtest ($KERNEL)"
	if [ "$1" -ne 1 ]; then
		echo "check: vmtest not run: the module did not build for $KERNEL"
		failed=$((failed + 1))
		return
	fi
	if [ "$KERNEL" = "$debug_line" ]; then
		debug_vm_line
		return
	fi
	local repeat=()
	# A repeat on another line: the suites with a "vmtest-once"
	# line (the studies) are not booted again, and the others
	# share boots, four at a time (docs/develop/testing.md).
	[ "$KERNEL" = "$first_line" ] ||
		repeat=(VMTEST_REPEAT=1 "VMTEST_BATCH=${VMTEST_BATCH:-4}")
	local t0=$SECONDS
	env "${repeat[@]}" "$REPO/scripts/vmtest.sh"
	echo "check: time: vmtest ($KERNEL) $((SECONDS - t0)) s"
	add_counts "$BUILD/vmtest$KSFX.counts"
	one_test "ktap ($KERNEL)" "$REPO/scripts/vm/ktap-check.sh" "$BUILD/vmtest$KSFX"
}

# debug_vm_line: the VM suites of the line of KERNEL (DEBUG_LINE) under
# the debug kernel built from that line's source (scripts/check-debug.sh),
# then on the line's Debian kernel, light and a suite a boot, what the
# debug kernel did not run and no other line of KERNELS runs: the suites
# with a "# vmtest-debug-skip:" or "# vmtest-debug-line-skip:" line and,
# of the others, the tests the debug kernel's results.txt lists as "SKIP
# NAME (debug kernel: ...)", through VMTEST_ONLY. With another line in
# KERNELS (CI's 6.12), whose pass runs every suite but the studies whole,
# that is only the studies (a suite with a "# vmtest-once:" line too):
# every test so runs once in the whole make check, on the debug kernel
# or on the other line (docs/develop/testing.md; CI's time:
# docs/results/2026-12-07-ci-time.md). A test skipped under the debug
# kernel counts that skip too.
debug_vm_line() {
	local f s t x only=$BUILD/debian-only$KSFX suites=() others=

	for x in $lines; do
		[ "$x" = "$KERNEL" ] || others="$others $x"
	done
	# A repeat (VMTEST_REPEAT=1): the suites with a "# vmtest-debug-line-
	# skip:" line and the tests of run_test_full_debug run below or on
	# another line instead (make check-debug runs them all).
	local t0=$SECONDS
	VMTEST_REPEAT=1 "$REPO/scripts/check-debug.sh"
	echo "check: time: vmtest ($KERNEL, debug kernel) $((SECONDS - t0)) s"
	t0=$SECONDS
	add_counts "$BUILD/check-debug.counts"
	if [ -n "$others" ]; then
		echo "== vmtest ($KERNEL, Debian's kernel): the studies (the debug kernel's skips run on${others}'s line)"
	else
		echo "== vmtest ($KERNEL, Debian's kernel): what the debug kernel did not run"
	fi
	: >"$only"
	for f in "$REPO"/scripts/vm/suites/*.sh; do
		s=$(basename "$f" .sh)
		if [ -n "$(directive "$f" debug-skip)$(directive "$f" debug-line-skip)" ]; then
			if [ -n "$(directive "$f" once)" ]; then
				[ "$KERNEL" = "$first_line" ] || continue
			else
				[ -z "$others" ] || continue
			fi
		else
			[ -z "$others" ] || continue
			t=$(sed -n 's/^SKIP \([^ ]*\) (debug kernel: .*/\1/p' \
				"$BUILD/vmtest-debug/$s/results.txt" 2>/dev/null)
			[ -n "$t" ] || continue
			for x in $t; do
				echo "$s $x" >>"$only"
			done
		fi
		suites+=("$s")
	done
	# the longest first, as vmtest.sh orders a list it was not given
	# shellcheck disable=SC2207 # suite names, one a line
	suites=($(by_timeout "${suites[@]}"))
	echo "vmtest: on Debian's $KERNEL: ${suites[*]}"
	sed 's/^/vmtest: only /' "$only"
	# One suite a boot (vmtest.sh's default under Debian's kernel): a few
	# tests of most of them, and zns and crash whole, longest first,
	# keep both VM places busy to the end.
	VMTEST_REPEAT=1 VMTEST_ONLY=$only "$REPO/scripts/vmtest.sh" "${suites[@]}"
	echo "check: time: vmtest ($KERNEL, Debian's kernel) $((SECONDS - t0)) s"
	add_counts "$BUILD/vmtest$KSFX.counts"
	one_test "ktap ($KERNEL)" "$REPO/scripts/vm/ktap-check.sh" "$BUILD/vmtest$KSFX"
}

# line_env KERNEL: the kernel line whose headers, source and build
# suffix the stages use
line_env() {
	KERNEL=$1
	case $KERNEL in
	6.1) KSFX= ;;
	*) KSFX=-$KERNEL ;;
	esac
	KSRC=$VFLASH_CACHE/linux-source-$KERNEL
	KDIR=$("$REPO/scripts/kdir.sh" "$KERNEL")
	export KERNEL KSFX KSRC KDIR
}

# static_stages: every stage that needs no VM, run beside the first
# line's VM suites (whose QEMUs leave part of the 2 cores idle while
# their guests wait on the model's time): the static checks, the first
# line's sparse (on a copy of the sources, so that the vflash.ko the VMs
# boot is not rebuilt under them) and KUnit, and every further line's
# W=1 build and sparse. Writes build/static.counts and, per further line
# that built, build/built-LINE.
static_stages() {
	local l

	passed=0 failed=0 skipped=0
	one_test checkpatch "$REPO/scripts/checkpatch.sh"
	one_test shellcheck-study shellcheck -x "$REPO"/scripts/bench/study/*.sh
	one_test shellcheck-vflashctl shellcheck -x "$REPO"/scripts/vflashctl/vflashctl \
		"$REPO"/scripts/install/*.sh "$REPO"/scripts/vflashctl/vflashctl.bash
	one_test shellcheck-try shellcheck -x "$REPO"/scripts/try.sh "$REPO"/scripts/vm/try.sh \
		"$REPO"/scripts/vm/boot.sh
	one_test help-complete "$REPO/scripts/help-check.sh"
	one_test doc-safety "$REPO/scripts/doc-safety.py"
	one_test doc-xref "$REPO/scripts/doc-xref.py"
	one_test setup-usage setup_usage
	one_test layers "$REPO/scripts/layer-check.py" --selftest
	line_env "$first_line"
	one_test "sparse ($KERNEL)" sparse_copy "$BUILD/sparse-src"
	kunit_line
	for l in $lines; do
		[ "$l" != "$first_line" ] || continue
		line_env "$l"
		echo "=== kernel $KERNEL (${KDIR:-no headers})"
		if [ -z "$KDIR" ]; then
			echo "check: FAIL no $KERNEL kernel headers: run scripts/setup.sh"
			failed=$((failed + 1))
			continue
		fi
		one_test "build-W=1 ($KERNEL)" build_line_w1 "$BUILD/ko$KSFX" &&
			touch "$BUILD/built$KSFX"
		one_test "sparse ($KERNEL)" sparse_quiet "$BUILD/ko$KSFX"
	done
	echo "$passed $failed $skipped" >"$BUILD/static.counts"
}

# sparse_copy DIR: sparse over a fresh copy of the sources in DIR
sparse_copy() {
	copy_sources "$KDIR" "$1" && sparse_quiet "$1"
}

# The debug kernel is built from the 6.1 line's source (docs/develop/kernels.md).
why=
case $debug_line in
"") ;;
6.1) [[ " $lines " == *" 6.1 "* ]] || why="is not one of KERNELS=\"$lines\"" ;;
*) why="names no debug kernel: it is built from 6.1's source" ;;
esac
if [ -n "$why" ]; then
	echo "check: DEBUG_LINE=$debug_line $why" >&2
	echo "0 1 0" >"$BUILD/check.counts"
	exit 1
fi
line_env "$first_line"
echo "=== kernel $KERNEL (${KDIR:-no headers})"
if [ -z "$KDIR" ]; then
	echo "check: FAIL no $KERNEL kernel headers: run scripts/setup.sh"
	echo "0 1 0" >"$BUILD/check.counts"
	exit 1
fi
built=1
one_test "build-W=1 ($KERNEL)" build_w1 || built=0
# The stages that need no VM, in the background; their output is
# printed whole after the first line's VM suites.
static_stages >"$BUILD/static.log" 2>&1 &
static_pid=$!
# make try DEMO=1 (docs/try.md): about 25 s in the VM
t0=$SECONDS
[ "$built" -eq 0 ] || one_test "try-demo ($KERNEL)" env DEMO=1 "$REPO/scripts/try.sh"
[ "$built" -eq 0 ] || one_test "try-shell ($KERNEL)" try_shell
echo "check: time: try ($KERNEL) $((SECONDS - t0)) s"
vm_line "$built"
t0=$SECONDS
wait "$static_pid"
echo "check: time: waiting for the static stages $((SECONDS - t0)) s"
echo "== static checks, sparse, KUnit and further lines' builds (run beside the VMs)"
cat "$BUILD/static.log"
add_counts "$BUILD/static.counts"

for l in $lines; do
	[ "$l" != "$first_line" ] || continue
	line_env "$l"
	echo "=== kernel $KERNEL (${KDIR:-no headers}): KUnit and VM suites"
	[ -n "$KDIR" ] || continue
	kunit_line
	built=0
	[ ! -e "$BUILD/built$KSFX" ] || built=1
	vm_line "$built"
done

echo "$passed $failed $skipped" >"$BUILD/check.counts"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
