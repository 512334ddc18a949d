#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the whole test suite, in order
#   1. build vflash.ko with W=1 (any compiler warning fails it)
#   2. static checks: sparse (C=2), checkpatch --strict, shellcheck over
#      scripts/study/ and over vflashctl and scripts/install/
#   3. KUnit suites under UML                       (scripts/kunit.sh)
#   4. VM suites in QEMU                            (scripts/vmtest.sh)
# and end with one line "N passed, N failed, N skipped" that counts KUnit
# cases and VM tests together; the build and the static checks count as one
# test each. A stage that cannot run counts as a failure. Exit status is
# non-zero if anything failed.
set -uo pipefail
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

build_w1() {
	make -C "$REPO" W=1 modules tools 2>&1 | tee "$BUILD/build.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || return 1
	! grep -E '(warning|error):' "$BUILD/build.log"
}

# sparse prints every file it checks: show only what it reports.
sparse_quiet() {
	"$REPO/scripts/sparse.sh" >"$BUILD/sparse.out" 2>&1 && return 0
	grep -E '(warning|error):' "$BUILD/sparse.out" || tail -n 20 "$BUILD/sparse.out"
	return 1
}

built=1
one_test build-W=1 build_w1 || built=0
one_test sparse sparse_quiet
one_test checkpatch "$REPO/scripts/checkpatch.sh"
one_test shellcheck-study shellcheck -x "$REPO"/scripts/study/*.sh
one_test shellcheck-vflashctl shellcheck -x "$REPO"/scripts/vflashctl/vflashctl \
	"$REPO"/scripts/install/*.sh "$REPO"/scripts/vflashctl/vflashctl.bash

echo "== kunit"
"$REPO/scripts/kunit.sh" >"$BUILD/kunit.out" 2>&1
grep -aE '^\[[0-9:]+\] (=|\[(PASSED|FAILED|SKIPPED|CRASHED)\]|Testing complete)|# .*(not ok|fail)' "$BUILD/kunit.out" ||
	tail -n 40 "$BUILD/kunit.out"
add_counts "$BUILD/kunit.counts"

echo "== vmtest"
if [ "$built" -eq 1 ]; then
	"$REPO/scripts/vmtest.sh"
	add_counts "$BUILD/vmtest.counts"
else
	echo "check: vmtest not run: the module did not build"
	failed=$((failed + 1))
fi

echo "$passed $failed $skipped" >"$BUILD/check.counts"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
