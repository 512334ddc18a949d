#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-debug: every VM suite again, under the debug kernel
# (KASAN, lockdep, kmemleak, UBSAN, DEBUG_VM/LIST/OBJECTS, hung-task and
# lockup detectors; scripts/debug-kernel.config).
#   1. build or reuse the debug kernel            (scripts/debug-kernel.sh)
#   2. build vflash.ko against it, W=1, in build/debug-ko (a copy of the
#      sources, so the repository's own vflash.ko stays Debian's), and
#      sign it with the key that kernel's build made (the unsigned build
#      kept as vflash-unsigned.ko, for the signed suite)
#   3. run the VM suites under it, two at a time  (VMTEST_FLAVOUR=debug)
# Ends with "N passed, N failed, N skipped" and writes
# build/check-debug.counts.
set -uo pipefail
. "$(dirname "$0")/common.sh"

mkdir -p "$BUILD"
out=$BUILD/check-debug.counts
echo "0 1 0" >"$out"

finish() {
	echo "$1 $2 $3" >"$out"
	echo "$1 passed, $2 failed, $3 skipped"
	[ "$2" -eq 0 ]
	exit
}

echo "== debug kernel"
t0=$SECONDS
if ! "$REPO/scripts/debug-kernel.sh"; then
	echo "check-debug: FAIL debug-kernel (cannot build it)"
	finish 0 1 0
fi
# Built or reused: CI's time on a fresh machine depends on which.
echo "check-debug: debug kernel ready in $((SECONDS - t0)) s"

echo "== build vflash.ko for the debug kernel"
ko=$BUILD/debug-ko
if ! build_ko_copy "$VFLASH_CACHE/debug-kernel/build" "$ko" "$BUILD/debug-build.log"; then
	cat "$BUILD/debug-build.log"
	echo "check-debug: FAIL debug-build-W=1"
	finish 0 1 0
fi
echo "check-debug: PASS debug-build-W=1"
# Signed with the key the debug kernel's build made (its
# MODULE_SIG_ALL signed the kernel's own modules with it): the signed
# suite boots lockdown=integrity, which loads only signed modules; the
# unsigned build stays beside it for that suite to be refused.
kb=$VFLASH_CACHE/debug-kernel/build
cp "$ko/vflash.ko" "$ko/vflash-unsigned.ko"
if ! "$kb/scripts/sign-file" sha256 "$kb/certs/signing_key.pem" \
	"$kb/certs/signing_key.x509" "$ko/vflash.ko" ||
	! tail -c 28 "$ko/vflash.ko" | grep -q '~Module signature appended~'; then
	echo "check-debug: FAIL debug-sign (sign-file with $kb/certs/signing_key.pem)"
	finish 1 1 0
fi
echo "check-debug: PASS debug-sign"

echo "== vmtest (debug kernel)"
VMTEST_FLAVOUR=debug VMTEST_JOBS=${VMTEST_JOBS:-2} "$REPO/scripts/vmtest.sh" "$@"
read -r p f s <"$BUILD/vmtest-debug.counts" || { p=0 f=1 s=0; }
if "$REPO/scripts/vm/ktap-check.sh" "$BUILD/vmtest-debug"; then
	echo "check-debug: PASS ktap"
	p=$((p + 1))
else
	echo "check-debug: FAIL ktap"
	f=$((f + 1))
fi
finish $((p + 2)) "$f" "$s"
