#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# usage: scripts/vm/ktap-check.sh VMDIR
#
# make check's ktap test: the kernel's own KTAP reader (kunit.py parse,
# from the Debian source tree setup.sh unpacked) reads VMDIR.ktap, which
# scripts/vmtest.sh wrote, and must count what VMDIR.counts counts:
# the same passed, failed and skipped tests, and no parse error.
set -uo pipefail
. "$(dirname "$0")/../common.sh"
[ $# -eq 1 ] || die "usage: scripts/vm/ktap-check.sh VMDIR"
dir=$(realpath -m "$1")
tool=$VFLASH_CACHE/linux-source-6.1/tools/testing/kunit/kunit.py
[ -f "$tool" ] || die "ktap-check: no $tool; run scripts/setup.sh"
read -r p f s <"$dir.counts" || die "ktap-check: no $dir.counts"
out=$(cd "$(dirname "$tool")" && python3 kunit.py parse "$dir.ktap" 2>&1)
line=$(echo "$out" | sed -n 's/.*Testing complete\. //p' | tail -n 1)
[ -n "$line" ] || { echo "$out" | tail -n 5; die "ktap-check: kunit.py parse printed no total"; }
# "Ran N tests: passed: P, failed: F, skipped: S, errors: E" (zero
# counts left out)
count() {
	local n
	n=$(echo "$line" | sed -n "s/.*[ :]$1: \([0-9]*\).*/\1/p")
	echo "$1 ${n:-0}"
}
want="passed $p failed $f skipped $s crashed 0 errors 0"
got="$(count passed) $(count failed) $(count skipped) $(count crashed) $(count errors)"
if [ "$got" != "$want" ]; then
	echo "$out" | grep -E 'ERROR|CRASHED' | head -n 5
	die "ktap-check: kunit.py read $dir.ktap as \"$line\"; vmtest counted $want"
fi
echo "ktap-check: kunit.py read $dir.ktap: $line"
