#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything that building and testing vflash need on a Debian 12
# machine, from Debian packages only. Idempotent: a few seconds when done.
#
#  - build: gcc, make, sparse, and the kernel headers (cloud flavour) of
#    both kernel lines make check covers, 6.1 and 6.12 (docs/kernels.md)
#  - KUnit: linux-source-6.1 and linux-source-6.12, unpacked into the
#    cache, and what a UML kernel build needs (flex, bison, bc, python3)
#  - VM suites: qemu-system-x86, busybox-static, cpio, kmod, fio,
#    nvme-cli, ndctl, daxctl, jq, e2fsprogs, sqlite3, btrfs-progs,
#    f2fs-tools (the ns suite's mkfs.f2fs), redis-server, redis-tools,
#    memcached and libmemcached-tools (the apps and appstudy suites, make
#    study-apps), and for each line the Debian kernel image whose version
#    is exactly the headers' one (apt-get download + dpkg -x into the cache)
#  - benchmarks and traces: gnuplot-nox (make bench-cxl plots its CDFs,
#    scripts/trace/plot.sh the trace suite's traces); trace-cmd (the
#    trace suite copies it into the VM)
#  - studies: shellcheck (make check lints scripts/study/)
#  - make check-zbd (fio's t/zbd and blktests' zbd/ from checkouts of
#    them, docs/zns.md): gawk, which both suites assume
#  - install: dkms (the tool suite builds and installs vflash with it)
#  - the guest's fio: Debian's fio source package, built static without
#    the engines that need other libraries (scripts/guest-fio.sh; it
#    needs dpkg-dev and libaio-dev), so that the VM's fio starts fast
#
# The cache (VFLASH_CACHE, default /var/cache/vflash) is shared by every
# clone of the repository on the machine.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
VFLASH_CACHE=${VFLASH_CACHE:-/var/cache/vflash}
export DEBIAN_FRONTEND=noninteractive

# The kernel lines make check builds and tests vflash on.
LINES="6.1 6.12"

PACKAGES="gcc make libc6-dev bc flex bison libelf-dev libssl-dev perl
	python3 xz-utils sparse linux-headers-cloud-amd64 linux-source-6.1
	linux-headers-6.12-cloud-amd64 linux-source-6.12
	qemu-system-x86 busybox-static cpio kmod fio nvme-cli ndctl daxctl
	jq e2fsprogs sqlite3 coreutils util-linux btrfs-progs f2fs-tools git gnuplot-nox trace-cmd shellcheck
	dkms dpkg-dev libaio-dev redis-server redis-tools
	memcached libmemcached-tools gawk"

# line_suffix LINE: what names of the line's files carry ("" for 6.1)
line_suffix() {
	[ "$1" = 6.1 ] || echo "-$1"
}

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

# For each line: the headers' kernel image, for the test VM, and the
# kernel source, for KUnit, unpacked once per package version.
summary=""
for line in $LINES; do
	KDIR=$("$REPO/scripts/kdir.sh" "$line")
	[ -n "$KDIR" ] || { echo "setup: no $line kernel headers found" >&2; exit 1; }
	KVER=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$KDIR/include/generated/utsrelease.h")
	IMG=$VFLASH_CACHE/image-$KVER
	if [ ! -f "$IMG/boot/vmlinuz-$KVER" ]; then
		hdrver=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER")
		# 6.1's image is linux-image-<release>; 6.12's on Debian 12
		# only comes as linux-image-<release>-unsigned.
		pkg=linux-image-$KVER
		apt-cache show "$pkg=$hdrver" >/dev/null 2>&1 || pkg=$pkg-unsigned
		echo "setup: fetching $pkg $hdrver for the test VM"
		tmp=$(mktemp -d)
		chmod 755 "$tmp"
		(cd "$tmp" && apt-get download -q "$pkg=$hdrver")
		rm -rf "$IMG.tmp"
		dpkg -x "$tmp"/linux-image-*.deb "$IMG.tmp"
		mv "$IMG.tmp" "$IMG"
		rm -rf "$tmp"
	fi

	srcver=$(dpkg-query -W -f='${Version}' "linux-source-$line")
	KSRC=$VFLASH_CACHE/linux-source-$line
	if [ "$(cat "$KSRC/.vflash-unpacked" 2>/dev/null)" != "$srcver" ]; then
		echo "setup: unpacking linux-source-$line $srcver"
		rm -rf "$KSRC" "$VFLASH_CACHE/kunit-build$(line_suffix "$line")"
		tar -C "$VFLASH_CACHE" -xf "/usr/src/linux-source-$line.tar.xz"
		echo "$srcver" >"$KSRC/.vflash-unpacked"
	fi
	summary="$summary; $line: headers $KDIR, VM kernel $KVER, source $srcver"
done
# The guest's fio, rebuilt when the host's fio package changes version.
fiover=$(dpkg-query -W -f='${Version}' fio)
if [ "$(cat "$VFLASH_CACHE/guest-fio/.version" 2>/dev/null)" != "$fiover" ]; then
	echo "setup: building the guest's fio $fiover (static; about 2 minutes)"
	"$REPO/scripts/guest-fio.sh" "$VFLASH_CACHE/guest-fio"
fi
summary="$summary; guest fio $fiover (static)"

echo "setup: ready${summary#;}"
