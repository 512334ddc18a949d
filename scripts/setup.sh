#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything that building and testing vflash need on a Debian 12
# machine, from Debian packages only. Idempotent: a few seconds when done.
#
#  - build: gcc, make, kernel headers (cloud flavour), sparse
#  - KUnit: linux-source-6.1, unpacked into the cache, and what a UML
#    kernel build needs (flex, bison, bc, python3)
#  - VM suites: qemu-system-x86, busybox-static, cpio, kmod, fio,
#    nvme-cli, ndctl, daxctl, jq, e2fsprogs, and the Debian kernel image whose version is
#    exactly the headers' one (apt-get download + dpkg -x, not installed)
#  - benchmarks and traces: gnuplot-nox (make bench-cxl plots its CDFs,
#    scripts/trace/plot.sh the trace suite's traces); trace-cmd (the
#    trace suite copies it into the VM)
#  - studies: shellcheck (make check lints scripts/study/)
#  - install: dkms (the tool suite builds and installs vflash with it)
#
# The cache (VFLASH_CACHE, default /var/cache/vflash) is shared by every
# clone of the repository on the machine.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
VFLASH_CACHE=${VFLASH_CACHE:-/var/cache/vflash}
export DEBIAN_FRONTEND=noninteractive

PACKAGES="gcc make libc6-dev bc flex bison libelf-dev libssl-dev perl
	python3 xz-utils sparse linux-headers-cloud-amd64 linux-source-6.1
	qemu-system-x86 busybox-static cpio kmod fio nvme-cli ndctl daxctl
	jq e2fsprogs coreutils util-linux git gnuplot-nox trace-cmd shellcheck
	dkms"

as_root() {
	if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=""
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	as_root apt-get update -q
	# shellcheck disable=SC2086
	as_root apt-get install -y -q --no-install-recommends $missing
fi

as_root mkdir -p "$VFLASH_CACHE"
as_root chown "$(id -u):$(id -g)" "$VFLASH_CACHE"

# The kernel the module is built against, and the same version's image.
KDIR=${KDIR:-$("$REPO/scripts/kdir.sh")}
[ -n "$KDIR" ] || { echo "setup: no kernel headers found" >&2; exit 1; }
KVER=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$KDIR/include/generated/utsrelease.h")
IMG=$VFLASH_CACHE/image-$KVER
if [ ! -f "$IMG/boot/vmlinuz-$KVER" ]; then
	hdrver=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER")
	echo "setup: fetching linux-image-$KVER $hdrver for the test VM"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -q "linux-image-$KVER=$hdrver")
	rm -rf "$IMG.tmp"
	dpkg -x "$tmp"/linux-image-*.deb "$IMG.tmp"
	mv "$IMG.tmp" "$IMG"
	rm -rf "$tmp"
fi

# The kernel source for KUnit, unpacked once per package version.
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
KSRC=$VFLASH_CACHE/linux-source-6.1
if [ "$(cat "$KSRC/.vflash-unpacked" 2>/dev/null)" != "$srcver" ]; then
	echo "setup: unpacking linux-source-6.1 $srcver"
	rm -rf "$KSRC" "$VFLASH_CACHE/kunit-build"
	tar -C "$VFLASH_CACHE" -xf /usr/src/linux-source-6.1.tar.xz
	echo "$srcver" >"$KSRC/.vflash-unpacked"
fi
echo "setup: ready (headers $KDIR, VM kernel $KVER, source $srcver)"
