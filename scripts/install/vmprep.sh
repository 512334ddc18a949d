#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host's half of the `tool` VM suite (scripts/vm/suites/tool.sh),
# run by scripts/vmtest.sh before the VM boots ("# vmtest-prep:").
#
# usage: scripts/install/vmprep.sh DIR
# Prints PASS/FAIL/SKIP lines (counted with the suite's) and leaves in
# DIR/overlay/ the files the VM gets on top of its initramfs:
#  - what `make install DESTDIR=DIR/overlay` installs (vflashctl, mmap_lat,
#    the trace scripts, the completion, the udev rule, the modprobe.d
#    example), less its vflash.ko and module index;
#  - /lib/modules/RELEASE/updates/dkms/vflash.ko, built and installed by
#    `dkms build` and `dkms install` (scripts/install/dkms.sh -r, a staged
#    DKMS tree) for the VM's kernel; the guest runs depmod and modprobe.
# The DKMS result is cached in VFLASH_CACHE under the hash of the module's
# sources, dkms.conf, the dkms version and the kernel, so that a rerun on
# the same sources does not compile the module again.
# shellcheck disable=SC2317 # the tests are called through run()
set -uo pipefail
# shellcheck source=SCRIPTDIR/../common.sh
. "$(dirname "$0")/../common.sh"

dir=${1:?usage: vmprep.sh DIR}
ov=$dir/overlay
KVER=$(kernel_release)
# make install builds in the tree it runs in: for a second kernel line
# that is make check's copy (build/ko-LINE), so that the repository's
# vflash.ko stays built for the first.
SRC=$REPO
[ -z "$KSFX" ] || SRC=$BUILD/ko$KSFX
rm -rf "$ov" "$dir/stage-uninstall"
mkdir -p "$ov"

pass() { echo "PASS $1"; }
failed() { echo "FAIL $1${2:+ ($2)}"; }

# make install into a staging root: every file where docs/install.md says.
t_install() {
	local f
	make -s -C "$SRC" install DESTDIR="$ov" KDIR="$KDIR" || return 1
	for f in usr/local/bin/vflashctl usr/local/libexec/vflash/mmap_lat \
		usr/local/libexec/vflash/crashcheck \
		usr/local/share/vflash/trace/record.sh usr/local/share/vflash/trace/plot.sh \
		usr/local/share/vflash/helpers.sh \
		usr/local/share/bash-completion/completions/vflashctl \
		usr/local/share/man/man8/vflashctl.8 \
		etc/udev/rules.d/60-vflash.rules etc/modprobe.d/vflash.conf; do
		[ -e "$ov/$f" ] || { echo "make install: no $f"; return 1; }
	done
	# vflash.ko.xz where the kernel compresses its modules (6.12)
	ls "$ov/lib/modules/$KVER/extra"/vflash.ko* >/dev/null 2>&1 ||
		{ echo "make install: no lib/modules/$KVER/extra/vflash.ko*"; return 1; }
	[ -x "$ov/usr/local/bin/vflashctl" ] || return 1
	# the man page has every command's help
	[ "$(grep -c '^usage: vflashctl [a-z]' "$ov/usr/local/share/man/man8/vflashctl.8")" -eq 14 ] ||
		{ echo "the man page lacks a command"; return 1; }
	if command -v man >/dev/null; then
		man -l "$ov/usr/local/share/man/man8/vflashctl.8" 2>&1 | grep -q 'usage: vflashctl selftest' ||
			{ echo "man -l does not render it"; return 1; }
	fi
	grep -q "^/lib/modules/$KVER/extra/vflash.ko[.a-z]*:\|^extra/vflash.ko[.a-z]*:" \
		"$ov/lib/modules/$KVER/modules.dep" || { echo "depmod did not index it"; return 1; }
	# The modprobe.d file is an example: it sets nothing.
	! grep -q '^[^#]' "$ov/etc/modprobe.d/vflash.conf" || return 1
}

# make uninstall removes every file make install put there (the module
# index files of depmod stay, as on a real system), and keeps an edited
# modprobe.d file.
t_uninstall() {
	local s=$dir/stage-uninstall left
	# a copy of what make install installed
	cp -a "$ov" "$s" || return 1
	echo "# edited" >>"$s/etc/modprobe.d/vflash.conf"
	make -s -C "$SRC" uninstall DESTDIR="$s" KDIR="$KDIR" || return 1
	left=$(cd "$s" && find . -type f ! -name 'modules.*' | sort)
	echo "left after uninstall: $left"
	[ "$left" = ./etc/modprobe.d/vflash.conf ]
}

# The module sources and everything else the DKMS result depends on.
dkms_key() {
	{
		git -C "$REPO" ls-files -s -- Kbuild Makefile dkms.conf module core \
			frontend_cxl frontend_nvme backend_flash policy kunit scripts/kdir.sh \
			scripts/install/dkms.sh
		git -C "$REPO" diff -- Kbuild Makefile dkms.conf module core frontend_cxl \
			frontend_nvme backend_flash policy kunit scripts/install/dkms.sh
		dkms --version
		echo "$KVER $KDIR"
	} | sha256sum | cut -c1-16
}

# dkms_ko ROOT: the module dkms installed under ROOT, relative to it:
# vflash.ko, or vflash.ko.xz (or .gz, .zst) where the kernel's own modules
# are compressed (Debian's 6.12)
dkms_ko() {
	(cd "$1" 2>/dev/null && find "lib/modules/$KVER/updates/dkms" -maxdepth 1 -name "vflash.ko*" 2>/dev/null) |
		head -n 1
}

t_dkms() {
	local key cache tmp ko
	command -v dkms >/dev/null || { echo "dkms is not installed (scripts/setup.sh)"; return 2; }
	key=$(dkms_key)
	cache=$VFLASH_CACHE/dkms-stage/$key
	ko=$(dkms_ko "$cache")
	if [ -n "$ko" ] && [ -f "$cache/status" ]; then
		echo "dkms: the build for these sources is cached in $cache"
		cat "$cache/status"
	else
		tmp=$(mktemp -d "$VFLASH_CACHE/dkms-stage.XXXXXX") || return 1
		if ! "$REPO/scripts/install/dkms.sh" -k "$KVER" -K "$KDIR" -r "$tmp/root" >"$tmp/log" 2>&1; then
			cat "$tmp/log"
			rm -rf "$tmp"
			return 1
		fi
		cat "$tmp/log"
		grep "installed" "$tmp/log" | tail -n 1 >"$tmp/status"
		grep -q "^vflash/.*, $KVER, .*: installed" "$tmp/status" || { rm -rf "$tmp"; return 1; }
		ko=$(dkms_ko "$tmp/root")
		[ -n "$ko" ] || { echo "dkms installed no vflash.ko*"; rm -rf "$tmp"; return 1; }
		mkdir -p "$tmp/cache/$(dirname "$ko")"
		cp "$tmp/root/$ko" "$tmp/cache/$ko"
		cp "$tmp/status" "$tmp/cache/status"
		rm -rf "$cache"
		mkdir -p "$(dirname "$cache")"
		mv "$tmp/cache" "$cache"
		rm -rf "$tmp"
		# Older entries are other sources' builds.
		find "$VFLASH_CACHE/dkms-stage" -mindepth 1 -maxdepth 1 ! -name "$key" \
			-exec rm -rf {} +
	fi
	echo "dkms: $ko"
	mkdir -p "$ov/$(dirname "$ko")"
	cp "$cache/$ko" "$ov/$ko"
	modinfo -F vermagic "$ov/$ko" | grep -q "^$KVER " || { echo "vermagic is not $KVER"; return 1; }
}

# The completion offers commands, options, and (given a sysfs tree) devices.
t_completion() {
	local out
	out=$(bash -c '. "$1"
		c() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _vflashctl; echo "${COMPREPLY[*]}"; }
		c vflashctl st; c vflashctl up --frontend ""; c vflashctl up --pro
		c vflashctl help sel; c vflashctl stats --w; c vflashctl fa
		c vflashctl down --a; c vflashctl status --j; c vflashctl faults a
		c vflashctl faults arm read_error ra; c vflashctl up --na' _ \
		"$REPO/scripts/vflashctl/vflashctl.bash") || return 1
	echo "$out"
	[ "$out" = "status stats
nvme cxl none nvme,cxl
--profile
selftest
--watch
faults
--all
--json
arm
range=
--name" ]
}

run() {
	local name=$1 rc
	shift
	echo "== $name"
	"$@" >"$dir/prep-$name.log" 2>&1
	rc=$?
	sed 's/^/  /' "$dir/prep-$name.log"
	case $rc in
	0) pass "$name" ;;
	2) echo "SKIP $name" ;;
	*) failed "$name" "see $dir/prep-$name.log" ;;
	esac
}

run make-install t_install
run make-uninstall t_uninstall
# The guest's vflash.ko is the one DKMS installs, not make install's.
rm -f "$ov/lib/modules/$KVER"/extra/vflash.ko* "$ov/lib/modules/$KVER"/modules.*
rmdir "$ov/lib/modules/$KVER/extra" 2>/dev/null
run dkms-build-install t_dkms
run bash-completion t_completion
exit 0
