#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make install / make uninstall (docs/install.md).
#
# usage: scripts/install/install.sh install|uninstall
# Environment (the Makefile passes its variables):
#   KDIR              kernel headers to install for (their kernel release
#                     names /lib/modules/<release>)
#   INSTALL_MOD_PATH  prefix of /lib/modules (default: DESTDIR)
#   DESTDIR           staging root for everything (default: none, /)
#   PREFIX            vflashctl and its helpers (default /usr/local)
#   SYSCONFDIR        udev rule and modprobe.d file (default /etc)
#
# install puts:
#   vflash.ko              INSTALL_MOD_PATH/lib/modules/<release>/extra/
#                          (vflash.ko.xz where the kernel compresses modules)
#                          (the kernel's modules_install), then depmod
#   vflashctl              DESTDIR/PREFIX/bin/
#   mmap_lat               DESTDIR/PREFIX/libexec/vflash/ (vflashctl selftest)
#   crashcheck             DESTDIR/PREFIX/libexec/vflash/ (vflashctl crashcheck)
#   libvflash-shim.so      DESTDIR/PREFIX/lib/vflash/ (vflashctl run), if built
#   scripts/trace/*        DESTDIR/PREFIX/share/vflash/trace/ (trace, plot)
#   scripts/helpers.sh     DESTDIR/PREFIX/share/vflash/ (the trace scripts' helpers)
#   bash completion        DESTDIR/PREFIX/share/bash-completion/completions/
#   vflashctl.8            DESTDIR/PREFIX/share/man/man8/ (made from
#                          vflashctl's --help texts)
#   60-vflash.rules        DESTDIR/SYSCONFDIR/udev/rules.d/
#   vflash.conf            DESTDIR/SYSCONFDIR/modprobe.d/, unless one is
#                          there (every line commented out: an example)
# and, installing into / as root, creates the system group "vflash" that
# the udev rule names and reloads udev's rules. uninstall removes what
# install put there (the modprobe.d file only if it is still the example).
set -eu

REPO=$(cd "$(dirname "$0")/../.." && pwd)
: "${KDIR:?KDIR is not set: run make install}"
DESTDIR=${DESTDIR:-}
INSTALL_MOD_PATH=${INSTALL_MOD_PATH:-$DESTDIR}
PREFIX=${PREFIX:-/usr/local}
SYSCONFDIR=${SYSCONFDIR:-/etc}

# The release the headers were made for (what modules_install uses).
release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
	"$KDIR/include/generated/utsrelease.h" 2>/dev/null)
[ -n "$release" ] ||
	{ echo "install: no kernel release in $KDIR (not a kernel build directory?)" >&2; exit 1; }
modlib=$INSTALL_MOD_PATH/lib/modules/$release
running=$(uname -r)
bindir=$DESTDIR$PREFIX/bin
libexec=$DESTDIR$PREFIX/libexec/vflash
share=$DESTDIR$PREFIX/share/vflash
compdir=$DESTDIR$PREFIX/share/bash-completion/completions
mandir=$DESTDIR$PREFIX/share/man/man8
rulesdir=$DESTDIR$SYSCONFDIR/udev/rules.d
modprobedir=$DESTDIR$SYSCONFDIR/modprobe.d

# run_depmod: the module index of the kernel, in the staging root if any
run_depmod() {
	[ -d "$modlib" ] || return 0
	if [ -n "$INSTALL_MOD_PATH" ]; then
		# A staging root holds no modules.order or builtin lists of the
		# kernel's own: depmod says so, and indexes what is there.
		out=$(depmod -b "$INSTALL_MOD_PATH" "$release" 2>&1) ||
			{ echo "$out" >&2; exit 1; }
		echo "$out" | grep -v 'could not open modules\.' >&2 || true
	else
		depmod -a "$release"
	fi
}

# man_page: vflashctl(8), its --help and every command's help, verbatim
man_page() {
	v=$REPO/scripts/vflashctl/vflashctl
	# roff: a backslash is \e, a line may not start with . or '
	esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
	echo '.TH VFLASHCTL 8 "" vflash "System Administration"'
	echo '.SH NAME'
	echo 'vflashctl \- load, inspect, tune and check vflash devices'
	echo '.SH DESCRIPTION'
	echo '.nf'
	"$v" --help | esc
	echo '.fi'
	for c in up down list status stats policy config faults crashcheck namespace selftest run trace plot; do
		echo ".SH $(echo "$c" | tr '[:lower:]' '[:upper:]')"
		echo '.nf'
		"$v" help "$c" | esc
		echo '.fi'
	done
	echo '.SH SEE ALSO'
	echo 'docs/vflashctl.md and docs/install.md in the vflash sources.'
}

do_install() {
	for f in vflash.ko scripts/tools/mmap_lat scripts/tools/crashcheck; do
		[ -f "$REPO/$f" ] || { echo "install: no $f: build first (make)" >&2; exit 1; }
	done
	# The module must be the one built for the kernel it goes to.
	built=$(modinfo -F vermagic "$REPO/vflash.ko" 2>/dev/null | cut -d ' ' -f 1)
	if [ -n "$built" ] && [ "$built" != "$release" ]; then
		echo "install: vflash.ko was built for kernel $built, not for $release ($KDIR): make clean, then make with the same KDIR/KERNEL/KERNELRELEASE as this make install" >&2
		exit 1
	fi
	# Into the live system (no staging root), a kernel other than the
	# running one only when asked: modprobe would not find it.
	if [ -z "$INSTALL_MOD_PATH" ] && [ "$release" != "$running" ] &&
		[ "${VFLASH_OTHER_KERNEL:-}" != 1 ]; then
		echo "install: refusing to install vflash.ko for kernel $release ($KDIR)," >&2
		echo "install: which is not the running kernel $running: modprobe vflash would not find it." >&2
		echo "install: Build for the running kernel (apt-get install linux-headers-$running; make clean; make)," >&2
		echo "install: or install for $release on purpose: make install KERNELRELEASE=$release (or FORCE=1)." >&2
		exit 1
	fi
	# Debian's headers ask for every module to be signed with a key they
	# do not ship: leave the module unsigned (as dkms does without a MOK).
	# extra/ on every kernel (6.12's modules_install defaults to updates/).
	if ! out=$(make -s -C "$KDIR" M="$REPO" INSTALL_MOD_PATH="$INSTALL_MOD_PATH" \
		INSTALL_MOD_DIR=extra CONFIG_MODULE_SIG_ALL= modules_install 2>&1); then
		echo "$out" >&2
		exit 1
	fi
	# (the headers have no System.map, so their own depmod step skips)
	echo "$out" | grep -v 'System.map' || true
	# vflash.ko.xz (or .gz, .zst) where the kernel compresses its
	# modules (Debian's 6.12)
	ko=$(find "$modlib/extra" -maxdepth 1 -name "vflash.ko*" 2>/dev/null | head -n 1)
	[ -n "$ko" ] ||
		{ echo "install: modules_install did not install $modlib/extra/vflash.ko" >&2; exit 1; }
	run_depmod
	echo "install: $ko"

	install -D -m 755 "$REPO/scripts/vflashctl/vflashctl" "$bindir/vflashctl"
	install -D -m 755 "$REPO/scripts/tools/mmap_lat" "$libexec/mmap_lat"
	install -D -m 755 "$REPO/scripts/tools/crashcheck" "$libexec/crashcheck"
	if [ -f "$REPO/scripts/shim/libvflash-shim.so" ]; then
		install -D -m 644 "$REPO/scripts/shim/libvflash-shim.so" \
			"$DESTDIR$PREFIX/lib/vflash/libvflash-shim.so"
	fi
	mkdir -p "$share/trace"
	install -m 755 "$REPO"/scripts/trace/*.sh "$share/trace/"
	install -m 755 "$REPO"/scripts/trace/*.py "$share/trace/"
	chmod 644 "$share/trace/tracelib.py"
	install -m 644 "$REPO"/scripts/trace/*.awk "$share/trace/"
	install -m 644 "$REPO/scripts/helpers.sh" "$share/helpers.sh"
	install -D -m 644 "$REPO/scripts/vflashctl/vflashctl.bash" "$compdir/vflashctl"
	mkdir -p "$mandir"
	man_page >"$mandir/vflashctl.8"
	install -D -m 644 "$REPO/scripts/install/60-vflash.rules" "$rulesdir/60-vflash.rules"
	if [ -e "$modprobedir/vflash.conf" ]; then
		echo "install: $modprobedir/vflash.conf is there: left as it is"
	else
		install -D -m 644 "$REPO/scripts/install/vflash.conf" "$modprobedir/vflash.conf"
	fi
	echo "install: $bindir/vflashctl (helpers in $libexec, $share)"
	if [ -z "$DESTDIR" ] && [ "$(id -u)" -eq 0 ]; then
		getent group vflash >/dev/null || groupadd --system vflash
		if command -v udevadm >/dev/null 2>&1; then
			udevadm control --reload 2>/dev/null || true
		fi
	fi
}

do_uninstall() {
	rm -f "$modlib"/extra/vflash.ko "$modlib"/extra/vflash.ko.*
	rmdir "$modlib/extra" 2>/dev/null || true
	run_depmod
	rm -f "$bindir/vflashctl" "$libexec/mmap_lat" "$libexec/crashcheck" "$compdir/vflashctl" "$mandir/vflashctl.8" \
		"$rulesdir/60-vflash.rules"
	rm -rf "$share/trace"
	rm -f "$share/helpers.sh"
	rm -f "$DESTDIR$PREFIX/lib/vflash/libvflash-shim.so"
	rmdir "$DESTDIR$PREFIX/lib/vflash" 2>/dev/null || true
	rmdir "$libexec" "$share" 2>/dev/null || true
	if cmp -s "$REPO/scripts/install/vflash.conf" "$modprobedir/vflash.conf"; then
		rm -f "$modprobedir/vflash.conf"
	elif [ -e "$modprobedir/vflash.conf" ]; then
		echo "install: $modprobedir/vflash.conf was edited: left as it is"
	fi
	echo "uninstall: done (vflash for $release, vflashctl under $DESTDIR$PREFIX)"
}

case ${1:-} in
install) do_install ;;
uninstall) do_uninstall ;;
*) echo "usage: $0 install|uninstall" >&2; exit 2 ;;
esac
