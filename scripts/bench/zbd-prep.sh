#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host's half of `make check-zbd` (scripts/bench/vm/check-zbd.sh, run
# by scripts/vmtest.sh before the VM boots as its "# vmtest-prep:" step):
# puts three outside conformance suites for zoned block devices into the
# VM, none of which Debian 12 packages, so none is part of the
# repository, of CI or of `make check` (CI has no network):
#
#   FIO_SRC=DIR   (environment) a git checkout of fio
#                 (https://github.com/axboe/fio): its t/zbd/test-zbd-support
#                 and t/zbd/functions are taken at the tag of the guest's
#                 own fio (Debian's 3.33 at the time of writing), since the
#                 script tests the fio it is shipped with
#   FIO_ZBD_REV=REV (environment) take t/zbd at REV instead of the
#                 guest fio's tag (e.g. an upstream fix of a test case)
#   FIO_ZBD_ARGS=ARGS (environment) more options of test-zbd-support
#                 (e.g. "-t 54" for one test case)
#   BLKTESTS=DIR  (environment) a checkout of blktests
#                 (https://github.com/osandov/blktests): copied whole, its
#                 src/zbdioctl built static here
#   ZONEFS_TOOLS=DIR (environment) a git checkout of zonefs-tools
#                 (https://github.com/westerndigitalcorporation/zonefs-tools):
#                 built here by its own autotools build, static
#                 (configure --with-tests, make LDFLAGS=-all-static; needs
#                 autoconf, automake, libtool and libblkid-dev on the
#                 host), for its mkzonefs and tests/tools/zio, zopen; the
#                 VM runs its tests/zonefs-tests.sh
#   ZONEFS_ARGS=ARGS (environment) options of zonefs-tests.sh (e.g. "-t 0010"
#                 for one case)
#   ZBD_SUITES=LIST (environment) run only these of "fio blktests zonefs
#                 fs" (default: all of them)
#
# The overlay also gets what scripts/vm/nsprep.sh leaves (vflashctl and
# the line's f2fs.ko, for the f2fs case), and fsck.f2fs, mkswap.
# usage: scripts/bench/zbd-prep.sh DIR
# Leaves in DIR/overlay/zbd/: fio/t/zbd/ with fio/fio linked to the guest's
# fio; blktests/; zonefs/ (zonefs-tests.sh, scripts/, tools/); bin/ with
# mkzonefs and the GNU programs the suites assume (bash, gawk, coreutils,
# diffutils, util-linux; the initramfs has busybox's), each with the
# shared libraries it loads; suites (ZBD_SUITES). Any checkout may be
# left out (its suite is then skipped: a SKIP line). Prints PASS/FAIL/SKIP
# lines, counted with the VM's.
set -uo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../common.sh"

case ${1:-} in
-h | --help | '')
	sed -n '4,/^set -u/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'
	exit 0
	;;
esac
ov=$1/overlay/zbd
# vflashctl and f2fs.ko (it empties the overlay first)
"$REPO/scripts/vm/nsprep.sh" "$1"
mkdir -p "$ov/bin"
printf '%s\n' "${ZBD_SUITES:-}" >"$ov/suites"

# carry PROGRAM: PROGRAM into $ov/bin with the shared libraries it loads
# (in their own paths, where the initramfs's loader finds them)
carry() {
	local p lib

	p=$(command -v "$1") || { echo "SKIP zbd-prep-$1 (not on this host)"; return 0; }
	cp -L "$p" "$ov/bin/$1"
	for lib in $(ldd "$p" 2>/dev/null | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
		[ -e "$ov/..$lib" ] && continue
		mkdir -p "$ov/../$(dirname "$lib")"
		cp -L "$lib" "$ov/..$lib"
	done
}

for p in bash gawk dd stat realpath readlink mktemp timeout sort uniq comm \
	diff cmp head tail cut tr wc seq date sleep cat cp mv rm mkdir rmdir \
	ls ln tee touch basename dirname env id nproc sed grep find xargs \
	blockdev lsblk findmnt losetup udevadm sync truncate expr \
	chmod stdbuf od hexdump gzip column chown mkswap swapon fallocate fsck.f2fs; do
	carry "$p"
done
ln -s gawk "$ov/bin/awk"
# zgrep FLAGS PATTERN FILE, as blktests calls it on the kernel's config:
# Debian's zgrep puts /bin first in PATH, where busybox's gzip is
cat >"$ov/bin/zgrep" <<'ZGREP'
#!/zbd/bin/bash
/zbd/bin/gzip -cdf -- "${@: -1}" | /zbd/bin/grep "${@:1:$#-1}"
ZGREP
chmod +x "$ov/bin/zgrep"
# sudo COMMAND, as zonefs-tests' 0401 calls it: the VM's suites run as
# root
cat >"$ov/bin/sudo" <<'SUDO'
#!/zbd/bin/bash
exec "$@"
SUDO
chmod +x "$ov/bin/sudo"

fiover=$("$VFLASH_CACHE/guest-fio/fio" --version 2>/dev/null || fio --version)
if [ -z "${FIO_SRC:-}" ]; then
	echo "SKIP zbd-prep-fio (FIO_SRC= not given: no t/zbd/test-zbd-support)"
elif ! git -C "$FIO_SRC" rev-parse -q --verify "${FIO_ZBD_REV:-$fiover}^{commit}" >/dev/null; then
	echo "FAIL zbd-prep-fio ($FIO_SRC is not a fio git checkout with ${FIO_ZBD_REV:-$fiover} (default: the guest fio's tag))"
else
	rev=${FIO_ZBD_REV:-$fiover}
	mkdir -p "$ov/fio/t/zbd"
	for f in test-zbd-support functions; do
		git -C "$FIO_SRC" show "$rev:t/zbd/$f" >"$ov/fio/t/zbd/$f"
	done
	chmod +x "$ov/fio/t/zbd/test-zbd-support"
	ln -s /usr/bin/fio "$ov/fio/fio"
	echo "$rev ($(git -C "$FIO_SRC" rev-parse --short=12 "$rev^{commit}")), fio $fiover" >"$ov/fio/version"
	printf '%s\n' "${FIO_ZBD_ARGS:-}" >"$ov/fio/args"
	echo "PASS zbd-prep-fio"
fi

if [ -z "${BLKTESTS:-}" ]; then
	echo "SKIP zbd-prep-blktests (BLKTESTS= not given)"
elif [ ! -x "$BLKTESTS/check" ] || [ ! -d "$BLKTESTS/tests/zbd" ]; then
	echo "FAIL zbd-prep-blktests ($BLKTESTS is not a blktests checkout)"
else
	mkdir -p "$ov/blktests"
	(cd "$BLKTESTS" && tar -c --exclude=./.git --exclude=./results .) |
		tar -x -C "$ov/blktests"
	# _have_kver reads uname -r's third number up to its first non-digit
	# but drops only one character: Debian's 6.12.118+deb12 leaves
	# "118deb12", bash's arithmetic fails, and every case that asks for a
	# kernel version (nvme/046, 049) is left out without a line. The copy
	# cuts the number at its first non-digit.
	sed -i 's|s/-\.\*//;s/\[^\.0-9\]//|s/-.*//;s/[^.0-9].*//|' "$ov/blktests/common/rc"
	# blktests reads the kernel's configuration (CONFIG_BLK_DEV_ZONED, ...)
	# from /boot/config-RELEASE
	kver=$(kernel_release)
	if [ "${VMTEST_FLAVOUR:-debian}" = debian ] && [ -f "$VFLASH_CACHE/image-$kver/boot/config-$kver" ]; then
		mkdir -p "$1/overlay/boot"
		cp "$VFLASH_CACHE/image-$kver/boot/config-$kver" "$1/overlay/boot/"
	fi
	if gcc -static -O2 -Wall -DHAVE_LINUX_BLKZONED_H -o "$ov/blktests/src/zbdioctl" \
		"$BLKTESTS/src/zbdioctl.c"; then
		rev=$(git -C "$BLKTESTS" rev-parse --short=12 HEAD 2>/dev/null || echo "not a git checkout")
		echo "$rev" >"$ov/blktests/version"
		echo "PASS zbd-prep-blktests"
	else
		echo "FAIL zbd-prep-blktests (src/zbdioctl.c does not build)"
	fi
fi

if [ -z "${ZONEFS_TOOLS:-}" ]; then
	echo "SKIP zbd-prep-zonefs (ZONEFS_TOOLS= not given)"
elif [ ! -x "$ZONEFS_TOOLS/tests/zonefs-tests.sh" ] || [ ! -f "$ZONEFS_TOOLS/configure.ac" ]; then
	echo "FAIL zbd-prep-zonefs ($ZONEFS_TOOLS is not a zonefs-tools checkout)"
else
	zb=$1/zonefs-build
	rm -rf "$zb"
	mkdir -p "$zb"
	(cd "$ZONEFS_TOOLS" && tar -c --exclude=./.git .) | tar -x -C "$zb"
	if (cd "$zb" && ./autogen.sh && ./configure --with-tests &&
		make -j"$(nproc)" LDFLAGS=-all-static) >"$1/zonefs-build.log" 2>&1 &&
		file "$zb/src/mkzonefs" | grep -q 'statically linked'; then
		mkdir -p "$ov/zonefs"
		cp -r "$zb/tests/zonefs-tests.sh" "$zb/tests/scripts" "$ov/zonefs/"
		mkdir -p "$ov/zonefs/tools"
		cp "$zb/tests/tools/zio" "$zb/tests/tools/zopen" "$ov/zonefs/tools/"
		cp "$zb/src/mkzonefs" "$ov/bin/mkzonefs"
		strip "$ov/bin/mkzonefs" "$ov/zonefs/tools/zio" "$ov/zonefs/tools/zopen"
		rev=$(git -C "$ZONEFS_TOOLS" describe --always --tags 2>/dev/null ||
			echo "not a git checkout")
		echo "$rev ($(git -C "$ZONEFS_TOOLS" rev-parse --short=12 HEAD 2>/dev/null))" >"$ov/zonefs/version"
		printf '%s\n' "${ZONEFS_ARGS:-}" >"$ov/zonefs/args"
		echo "PASS zbd-prep-zonefs"
	else
		echo "FAIL zbd-prep-zonefs (its static build failed: autoconf, automake, libtool, libblkid-dev? $1/zonefs-build.log)"
	fi
	rm -rf "$zb"
fi
