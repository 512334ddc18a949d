#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run vflash's KUnit suites under UML with the kernel's own kunit.py, from
# the unpacked Debian linux-source tree. The repository is linked into that
# tree as drivers/vflash (see Kbuild and kunit/Kconfig); the build directory
# lives in the cache, so a rerun only rebuilds what changed.
#
# usage: scripts/kunit.sh [SUITE_GLOB]   (default: every suite but the
#        benchmark, vflash-bench, which `make bench-backend` runs)
# Writes build/kunit.log and build/kunit.counts ("PASSED FAILED SKIPPED");
# with KERNEL=6.12, from linux-source-6.12, build/kunit-6.12.log and
# build/kunit-6.12.counts.
set -uo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$BUILD"
counts=$BUILD/kunit$KSFX.counts
echo "0 1 0" >"$counts"	# until proven otherwise: the stage failed

[ -x "$KSRC/tools/testing/kunit/kunit.py" ] ||
	die "kunit: no kernel source at $KSRC; run scripts/setup.sh"

# One KUnit run at a time per kernel line: the tree's drivers/vflash link and
# the build directory are shared by every clone of the repository.
exec 9>"$VFLASH_CACHE/kunit$KSFX.lock"
flock 9

# Link the repository into the tree; idempotent.
ksrc_link_vflash

builddir=$VFLASH_CACHE/kunit-build$KSFX
# Objects built from another clone may be newer than this clone's sources,
# so make would keep them: rebuild vflash's own objects every time.
rm -rf "$builddir/drivers/vflash"
(cd "$KSRC" && python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$REPO/kunit/.kunitconfig" \
	--build_dir="$builddir" --jobs="$(nproc)" --timeout=300 \
	"${1:-vflash-[!b]*}") \
	2>&1 | tee "$BUILD/kunit$KSFX.log"
rc=${PIPESTATUS[0]}

# "Testing complete. Ran 14 tests: passed: 13, failed: 1, skipped: 0"
summary=$(grep -a 'Testing complete' "$BUILD/kunit$KSFX.log" | tail -n 1)
field() {
	sed -n "s/.*[ ,]$1: \([0-9]\+\).*/\1/p" <<<"$summary"
}
passed=$(field passed)
failed=$(field failed)
skipped=$(field skipped)
crashed=$(field crashed)
errors=$(field errors)
if [ -z "$summary" ]; then
	echo "kunit: no test summary (build or boot failed), see $BUILD/kunit$KSFX.log" >&2
	exit 1
fi
failed=$((${failed:-0} + ${crashed:-0} + ${errors:-0}))
echo "${passed:-0} $failed ${skipped:-0}" >"$counts"
[ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
