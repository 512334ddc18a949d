#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything that building and testing vflash need on a Debian 12
# machine, from Debian packages only. Idempotent: a few seconds when done.
#
#  - build: gcc, make, sparse, and the kernel headers (cloud flavour) of
#    both kernel lines make check covers, 6.1 and 6.12 (docs/develop/kernels.md)
#  - KUnit: linux-source-6.1 and linux-source-6.12, unpacked into the
#    cache, and what a UML kernel build needs (flex, bison, bc, python3)
#  - VM suites: qemu-system-x86, busybox-static, cpio, kmod, fio,
#    nvme-cli, ndctl, daxctl, jq, e2fsprogs, sqlite3, btrfs-progs,
#    f2fs-tools (the ns suite's mkfs.f2fs), and for each line the Debian
#    kernel image whose version is exactly the headers' one (apt-get
#    download + dpkg -x into the cache)
#  - guest-only programs, which only the test VM runs: redis-server,
#    redis-tools, memcached and libmemcached-tools (the apps and appstudy
#    suites, make study-apps). They are not installed on the host (Debian
#    would start and enable redis and memcached as services there): they
#    and the libraries they need that the host lacks are fetched with
#    apt-get download and unpacked with dpkg -x into $VFLASH_CACHE/guest-root,
#    where scripts/vmtest.sh finds them
#  - benchmarks and traces: gnuplot-nox (make bench-cxl plots its CDFs,
#    scripts/trace/plot.sh the trace suite's traces); trace-cmd (the
#    trace suite copies it into the VM)
#  - studies: shellcheck (make check lints scripts/bench/study/)
#  - make check-zbd (fio's t/zbd and blktests' zbd/ from checkouts of
#    them, docs/zns.md): gawk, which both suites assume
#  - install: dkms (the tool suite builds and installs vflash with it)
#  - the guest's fio: Debian's fio source package, built static without
#    the engines that need other libraries (scripts/guest-fio.sh; it
#    needs dpkg-dev and libaio-dev), so that the VM's fio starts fast
#
# The cache (VFLASH_CACHE, default /var/cache/vflash) is shared by every
# clone of the repository on the machine. scripts/setup.sh -h: the options.
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
	dkms dpkg-dev libaio-dev gawk openssl"

# Programs only the test VM runs, unpacked into $GUEST_ROOT, never
# installed on the host. Daemons among them that an earlier setup.sh
# installed on the host are named in DAEMONS (--disable-host-daemons).
GUEST_PACKAGES="redis-server redis-tools memcached libmemcached-tools"
GUEST_ROOT=$VFLASH_CACHE/guest-root
DAEMONS="redis-server memcached"

usage() {
	cat <<EOF
usage: scripts/setup.sh [-h] [--disable-host-daemons]

Installs, from Debian 12 packages, what building and testing vflash need
(as root, or through sudo; idempotent: seconds when already done):

  build     gcc, make, sparse, the 6.1 and 6.12 cloud kernel headers
  KUnit     linux-source-6.1 and -6.12, unpacked into the cache, flex,
            bison, bc, python3
  VM suites qemu-system-x86, busybox-static, cpio, kmod, fio, nvme-cli,
            ndctl, daxctl, jq, e2fsprogs, sqlite3, btrfs-progs, f2fs-tools,
            trace-cmd, and each line's kernel image (apt-get download +
            dpkg -x into the cache, not installed)
  other     gnuplot-nox, shellcheck, gawk, dkms, dpkg-dev, libaio-dev, git

and builds a static fio for the VM (scripts/guest-fio.sh).

Guest-only programs ($GUEST_PACKAGES)
are not installed on the host, where Debian would start their services:
they and the libraries the host lacks are unpacked (apt-get download +
dpkg -x) into $GUEST_ROOT, and scripts/vmtest.sh carries
them into the VM from there.

Where: packages in the system; everything else in the cache,
VFLASH_CACHE (now $VFLASH_CACHE), shared by every clone.

Options:
  -h, --help               this help; does nothing else
  --disable-host-daemons   stop and disable the redis-server and memcached
                           services that an earlier setup.sh installed on
                           this host (the packages stay; vflash does not
                           need them there)
EOF
}

disable_daemons=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--disable-host-daemons)
		disable_daemons=1
		;;
	*)
		echo "setup: unknown argument '$1'" >&2
		usage >&2
		exit 2
		;;
	esac
	shift
done

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

# The guest-only programs: the packages, and whatever they depend on that
# the host lacks (what apt-get would install), each pinned to its
# candidate version, unpacked afresh when that list changes.
apt-cache show "${GUEST_PACKAGES%% *}" >/dev/null 2>&1 || as_root apt-get update -q
# shellcheck disable=SC2086
want=$( {
	for p in $GUEST_PACKAGES; do
		echo "$p=$(apt-cache policy "$p" | sed -n 's/^ *Candidate: //p')"
	done
	apt-get -s -q install --no-install-recommends $GUEST_PACKAGES 2>/dev/null |
		sed -n 's/^Inst \([^ ]*\) .*(\([^ ]*\) .*/\1=\2/p'
} | sort -u)
if [ "$(cat "$GUEST_ROOT/.vflash-packages" 2>/dev/null)" != "$want" ]; then
	echo "setup: unpacking the guest-only programs into $GUEST_ROOT: $(echo "$want" | tr "\n" " ")"
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	# shellcheck disable=SC2086
	(cd "$tmp" && apt-get download -q $want)
	rm -rf "$GUEST_ROOT.tmp"
	for deb in "$tmp"/*.deb; do
		dpkg -x "$deb" "$GUEST_ROOT.tmp"
	done
	echo "$want" >"$GUEST_ROOT.tmp/.vflash-packages"
	rm -rf "$GUEST_ROOT" "$tmp"
	mv "$GUEST_ROOT.tmp" "$GUEST_ROOT"
fi
summary="$summary; guest-only programs in $GUEST_ROOT"

# daemon_live NAME: NAME's service is enabled or running on the host
daemon_live() {
	if [ -d /run/systemd/system ]; then
		systemctl -q is-enabled "$1" 2>/dev/null || systemctl -q is-active "$1"
	else
		compgen -G "/etc/rc[2-5].d/S[0-9][0-9]$1" >/dev/null || pidof "$1" >/dev/null
	fi
}

# Daemons an earlier setup.sh installed on the host and left enabled or
# running: said, or with --disable-host-daemons stopped and disabled.
for d in $DAEMONS; do
	dpkg-query -W -f='${Status}\n' "$d" 2>/dev/null |
		grep -q '^install ok installed$' || continue
	daemon_live "$d" || continue
	if [ $disable_daemons = 1 ]; then
		echo "setup: stopping and disabling the host's $d service"
		if [ -d /run/systemd/system ]; then
			as_root systemctl disable --now "$d"
		else
			as_root update-rc.d "$d" disable
			[ ! -x "/etc/init.d/$d" ] || as_root "/etc/init.d/$d" stop || :
		fi
	else
		echo "setup: note: $d runs or is enabled on this host (an earlier" \
			"setup.sh installed it); vflash needs it only in the VM. Stop and" \
			"disable its service with scripts/setup.sh --disable-host-daemons," \
			"or remove it: apt-get remove $d"
	fi
done

echo "setup: ready${summary#;}"
