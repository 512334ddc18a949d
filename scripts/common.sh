# SPDX-License-Identifier: GPL-2.0
# Sourced by the test scripts: where things live.
#
# VFLASH_CACHE holds what is expensive to make and shared by every clone of
# the repository on this machine: the unpacked kernel source, the KUnit
# build, the VM's kernel image and modules.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VFLASH_CACHE=${VFLASH_CACHE:-/var/cache/vflash}
# The kernel line under test: 6.1 (the default) or 6.12 (docs/develop/kernels.md).
# The default line's results keep their plain names (build/kunit.counts,
# build/vmtest/, vflash.ko in the repository); another line's carry
# KSFX (build/kunit-6.12.counts, build/vmtest-6.12/, build/ko-6.12/).
KERNEL=${KERNEL:-6.1}
case $KERNEL in
6.1) KSFX= ;;
*) KSFX=-$KERNEL ;;
esac
KSRC=${KSRC:-$VFLASH_CACHE/linux-source-$KERNEL}
BUILD=$REPO/build

# directive SUITE_FILE NAME: the value of "# vmtest-NAME: VALUE" in a VM
# suite's file (scripts/vmtest.sh)
directive() {
	sed -n "s/^# vmtest-$2: *//p" "$1" | head -n 1
}

# by_timeout SUITE...: the VM suites, those of the longest timeout (the
# longest suites) first, one a line; a suite without a timeout line has
# vmtest.sh's default, 300 s
by_timeout() {
	local s t

	for s; do
		t=$(directive "$REPO/scripts/vm/suites/$s.sh" timeout)
		echo "${t:-300} $s"
	done | sort -k1,1nr -k2,2 | awk '{ print $2 }'
}

# The kernel the module is built against, and its release string.
KDIR=${KDIR:-$("$REPO/scripts/kdir.sh" "$KERNEL")}
kernel_release() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$KDIR/include/generated/utsrelease.h" 2>/dev/null
}

# die (scripts/helpers.sh: the helpers the guest's scripts share)
# shellcheck source=scripts/helpers.sh
. "$REPO/scripts/helpers.sh"

# ksrc_link_vflash: link the repository into $KSRC as drivers/vflash, with
# a line each in drivers/Kconfig and drivers/Makefile, for KUnit (its
# tests build only with CONFIG_KUNIT). Each step only if not yet done:
# scripts/kunit.sh and scripts/debug-kernel.sh both call it.
ksrc_link_vflash() {
	[ "$(readlink "$KSRC/drivers/vflash")" = "$REPO" ] ||
		ln -sfn "$REPO" "$KSRC/drivers/vflash"
	if ! grep -q 'drivers/vflash/kunit/Kconfig' "$KSRC/drivers/Kconfig"; then
		tac "$KSRC/drivers/Kconfig" |
			sed '0,/^endmenu/s//endmenu\nsource "drivers\/vflash\/kunit\/Kconfig"/' |
			tac >"$KSRC/drivers/Kconfig.vflash" &&
			mv "$KSRC/drivers/Kconfig.vflash" "$KSRC/drivers/Kconfig"
	fi
	grep -q 'CONFIG_VFLASH_KUNIT_TEST' "$KSRC/drivers/Makefile" ||
		echo 'obj-$(CONFIG_VFLASH_KUNIT_TEST) += vflash/' >>"$KSRC/drivers/Makefile"
}

# copy_sources KDIR DIR: a fresh copy of the sources in DIR, its objects
# cleaned for KDIR (so the repository's own objects, built for another
# kernel or in use by a VM, stay as they are)
copy_sources() {
	rm -rf "$2"
	mkdir -p "$2"
	(cd "$REPO" && tar -c --exclude=./build --exclude=./.git . | tar -x -C "$2")
	make -C "$1" M="$2" W=1 clean >/dev/null 2>&1
}

# build_ko_copy KDIR DIR LOG: build vflash.ko with W=1 against KDIR from a
# copy of the sources in DIR (copy_sources); the make output goes to LOG.
# Fails if the build fails or shows a compiler or modpost warning.
build_ko_copy() {
	local kdir=$1 dir=$2 log=$3

	copy_sources "$kdir" "$dir"
	make -C "$kdir" M="$dir" W=1 -j"$(nproc)" modules >"$log" 2>&1 || return 1
	! grep -E '(warning|error):|WARNING:' "$log"
}
