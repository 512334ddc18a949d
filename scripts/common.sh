# SPDX-License-Identifier: GPL-2.0
# Sourced by the test scripts: where things live.
#
# VFLASH_CACHE holds what is expensive to make and shared by every clone of
# the repository on this machine: the unpacked kernel source, the KUnit
# build, the VM's kernel image and modules.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VFLASH_CACHE=${VFLASH_CACHE:-/var/cache/vflash}
# The kernel line under test: 6.1 (the default) or 6.12 (docs/kernels.md).
KERNEL=${KERNEL:-6.1}
KSRC=${KSRC:-$VFLASH_CACHE/linux-source-$KERNEL}
BUILD=$REPO/build

# The kernel the module is built against, and its release string.
KDIR=${KDIR:-$("$REPO/scripts/kdir.sh" "$KERNEL")}
kernel_release() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$KDIR/include/generated/utsrelease.h" 2>/dev/null
}

die() {
	echo "$*" >&2
	exit 1
}
