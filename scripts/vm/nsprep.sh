#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host's half of the `ns` VM suite (scripts/vm/suites/ns.sh), run by
# scripts/vmtest.sh before the VM boots ("# vmtest-prep:").
#
# usage: scripts/vm/nsprep.sh DIR
# Leaves in DIR/overlay/ what the VM gets on top of its initramfs:
#  - /usr/local/bin/vflashctl (the suite lists several namespaces with it);
#  - /vflash/f2fs.ko: Debian's cloud kernels are built without F2FS
#    (CONFIG_F2FS_FS is not set on either line), so the kernel's own
#    fs/f2fs is built here as an out-of-tree module from the line's
#    unpacked linux-source (the KUnit tree) against the headers vflash.ko
#    is built with: the same sources, the same configuration, so it loads
#    into the VM's kernel. Cached in VFLASH_CACHE per kernel release and
#    source version (about 20 s to build once). Debian may ship a line's
#    linux-source a stable release ahead of its cloud headers (6.12.118
#    beside 6.12.117 headers, say); a helper the newer fs/f2fs calls and
#    the older headers lack is then given to the build (skew_shims). Without
#    the source, when the build fails anyway, or under the debug kernel (no
#    zoned block devices), there is no f2fs.ko and the suite's f2fs test
#    says SKIP, with this script's reason beside it.
# Prints SKIP lines only, for what it could not do.
set -uo pipefail
# shellcheck source=SCRIPTDIR/../common.sh
. "$(dirname "$0")/../common.sh"

dir=${1:?usage: nsprep.sh DIR}
ov=$dir/overlay
rm -rf "$ov"
mkdir -p "$ov/usr/local/bin" "$ov/vflash"
cp "$REPO/scripts/vflashctl/vflashctl" "$ov/usr/local/bin/vflashctl"

[ "${VMTEST_FLAVOUR:-debian}" = debian ] || exit 0
KVER=$(kernel_release)
srcver=$(cat "$KSRC/.vflash-unpacked" 2>/dev/null)
if [ -z "$KVER" ] || [ ! -d "$KSRC/fs/f2fs" ] || [ -z "$srcver" ]; then
	echo "SKIP f2fs-module (no unpacked linux-source-$KERNEL in $VFLASH_CACHE: run scripts/setup.sh)"
	exit 0
fi
cache=$VFLASH_CACHE/f2fs-ko/$KVER

# build KCFLAGS: make the module, the log in $cache/build.log
build() {
	make -C "$KDIR" M="$cache/src" CONFIG_F2FS_FS=m KCFLAGS="$1" \
		-j"$(nproc)" modules >"$cache/build.log" 2>&1
}

# skew_shims: build again with the helpers a newer source calls that the
# headers do not have yet (each as the newer kernel defines it); fails if
# none applies or the build still fails
skew_shims() {
	local h=$cache/src/vflash-skew.h
	grep -q "implicit declaration of function .bio_in_atomic" "$cache/build.log" ||
		return 1
	# A macro, so that it expands where the caller's headers are in.
	cat >"$h" <<'SHIM'
/* 6.12.118's include/linux/bio.h bio_in_atomic() */
#define bio_in_atomic() \
	((IS_ENABLED(CONFIG_PREEMPTION) && rcu_preempt_depth()) || \
	 !IS_ENABLED(CONFIG_PREEMPT_COUNT) || !preemptible())
SHIM
	build "-include $h"
}
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ "$(cat "$cache/.version" 2>/dev/null)" != "$srcver" ] || [ ! -f "$cache/f2fs.ko" ]; then
	rm -rf "$cache/src" "$cache/f2fs.ko" "$cache/.version"
	cp -r "$KSRC/fs/f2fs" "$cache/src"
	if ! build "" && ! skew_shims; then
		echo "SKIP f2fs-module (building fs/f2fs of linux-source $srcver against $KDIR failed; see $cache/build.log)"
		exit 0
	fi
	# Its debug information would triple the initramfs overlay.
	strip --strip-debug -o "$cache/f2fs.ko" "$cache/src/f2fs.ko"
	echo "$srcver" >"$cache/.version"
fi
cp "$cache/f2fs.ko" "$ov/vflash/f2fs.ko"
