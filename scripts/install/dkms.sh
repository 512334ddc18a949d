#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Register vflash with DKMS from this source tree, build it and install it
# (docs/install.md): the module's own sources only (not build/, the test
# tools or .git) are copied to SRCTREE/vflash-<version>, then
#   dkms add -m vflash -v <version>
#   dkms build  -m vflash -v <version> -k RELEASE
#   dkms install -m vflash -v <version> -k RELEASE
# A version registered before is removed first (dkms remove --all).
#
# usage: scripts/install/dkms.sh [-k RELEASE] [-r ROOT] [-K KDIR]
#   -k RELEASE  the kernel to build for (default: the running one)
#   -K KDIR     its headers (default: /lib/modules/RELEASE/build)
#   -r ROOT     stage everything under ROOT instead of the system:
#               --sourcetree ROOT/usr/src, --dkmstree ROOT/var/lib/dkms,
#               --installtree ROOT/lib/modules, depmod -b ROOT; needs no
#               root (the test VM's suite uses it, scripts/vm/suites/tool.sh)
set -eu

REPO=$(cd "$(dirname "$0")/../.." && pwd)
usage() { sed -n '12,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}' >&2; exit 2; }

kver=$(uname -r) root='' kdir=''
while getopts "k:r:K:h" opt; do
	case $opt in
	k) kver=$OPTARG ;;
	r) root=$OPTARG ;;
	K) kdir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
command -v dkms >/dev/null 2>&1 || { echo "dkms.sh: dkms is not installed (apt-get install dkms)" >&2; exit 1; }
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO/dkms.conf")
[ -n "$ver" ] || { echo "dkms.sh: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }

set --
if [ -n "$root" ]; then
	mkdir -p "$root/usr/src" "$root/var/lib/dkms" "$root/lib/modules/$kver"
	root=$(cd "$root" && pwd)
	set -- --sourcetree "$root/usr/src" --dkmstree "$root/var/lib/dkms" \
		--installtree "$root/lib/modules" --no-depmod
fi
[ -z "$kdir" ] || set -- "$@" --kernelsourcedir "$kdir"
src=${root:+$root}/usr/src/vflash-$ver

# The module's sources: what git tracks of them (as they are in the work
# tree), or, outside a git checkout, every file of those folders.
files() {
	set -- Kbuild Makefile dkms.conf module core frontend_cxl frontend_nvme \
		backend_flash policy kunit scripts/kdir.sh
	if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$REPO" ls-files -- "$@"
	else
		(cd "$REPO" && find "$@" -type f ! -name '*.o' ! -name '*.cmd' \
			! -name '*.ko' ! -name '*.mod*')
	fi
}

if dkms status -m vflash "$@" 2>/dev/null | grep -q .; then
	dkms remove -m vflash -v "$ver" --all "$@" >/dev/null 2>&1 || true
fi
rm -rf "$src"
mkdir -p "$src"
files | while read -r f; do
	mkdir -p "$src/$(dirname "$f")"
	cp "$REPO/$f" "$src/$f"
done
dkms add -m vflash -v "$ver" "$@"
dkms build -m vflash -v "$ver" -k "$kver" "$@"
dkms install -m vflash -v "$ver" -k "$kver" "$@"
if [ -n "$root" ]; then
	depmod -b "$root" "$kver" 2>&1 | grep -v 'could not open modules\.' >&2 || true
fi
dkms status -m vflash "$@"
