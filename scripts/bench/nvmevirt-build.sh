#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build NVMeVirt's nvmev.ko (https://github.com/snu-csl/nvmevirt) from a
# checkout of it, for `make bench-peer` (docs/performance.md). NVMeVirt is
# never part of this repository: the checkout is copied (without .git and
# build output) into build/nvmevirt/MODE/ and built there, against the same
# kernel headers as vflash.ko (scripts/kdir.sh, or KDIR= from the
# environment), so the checkout itself is left as it is.
#
# usage: scripts/bench/nvmevirt-build.sh ssd|zns [VMDIR]
#   NVMEVIRT=DIR (environment) the NVMeVirt checkout (required)
#   ssd   its conventional SSD build, the Samsung 970 PRO model (make
#         variables CONFIG_NVMEVIRT_NVM= CONFIG_NVMEVIRT_SSD=y: its Kbuild
#         picks the device type from these at compile time)
#   zns   its ZNS build (CONFIG_NVMEVIRT_NVM= CONFIG_NVMEVIRT_ZNS=y) with
#         the ZNS_PROTOTYPE model of its ssd_config.h (32 MiB zones, 8
#         channels x 16 dies, one die per zone), chosen by giving
#         ccflags-y on the make command line: "-DBASE_SSD=ZNS_PROTOTYPE"
#         plus the warning flags its Kbuild sets. The Kbuild's default
#         ZNS model, WD_ZN540, has 2 GiB zones: a 1 GiB device has none.
#   VMDIR a VM suite's directory (scripts/vmtest.sh's "vmtest-prep" step
#         passes it): the module is also copied to
#         VMDIR/overlay/vflash/nvmev.ko, with VMDIR/overlay/vflash/
#         nvmevirt.txt saying what was built, for the VM's initramfs,
#         and PEER_ARGS (environment: more options for the guest's
#         scripts/bench/peer.sh, e.g. "-r 1 -t 5") in
#         VMDIR/overlay/vflash/peer-args.
#
# Nothing in NVMeVirt is patched; if it does not build, the compiler's
# output is printed and the script fails ("FAIL nvmevirt-build" as a
# vmtest-prep step). Prints the module's path on the last line.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../common.sh"

case ${1:-} in
-h | --help)
	sed -n '4,/^set -e/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'
	exit 0
	;;
ssd | zns) MODE=$1 ;;
*)
	echo "nvmevirt-build: want ssd or zns, got '${1:-}' (-h for help)" >&2
	exit 2
	;;
esac
VMDIR=${2:-}

# fail MESSAGE: a FAIL line (counted by vmtest-prep), then exit 1
fail() {
	echo "FAIL nvmevirt-build ($*)"
	echo "nvmevirt-build: $*" >&2
	exit 1
}

SRC=${NVMEVIRT:-}
[ -n "$SRC" ] || fail "NVMEVIRT= is not set: give the NVMeVirt checkout, make bench-peer NVMEVIRT=DIR"
{ [ -f "$SRC/Kbuild" ] && [ -f "$SRC/ssd_config.h" ]; } ||
	fail "$SRC is not an NVMeVirt checkout (no Kbuild or ssd_config.h)"
[ -n "$KDIR" ] || fail "no kernel headers found (scripts/setup.sh, or KDIR=)"
SRC=$(cd "$SRC" && pwd)

case $MODE in
ssd)
	MODEL=SAMSUNG_970PRO
	VARS=(CONFIG_NVMEVIRT_NVM= CONFIG_NVMEVIRT_SSD=y)
	;;
zns)
	MODEL=ZNS_PROTOTYPE
	VARS=(CONFIG_NVMEVIRT_NVM= CONFIG_NVMEVIRT_ZNS=y
		"ccflags-y=-Wno-unused-variable -Wno-unused-function -Wno-implicit-fallthrough -DBASE_SSD=$MODEL")
	;;
esac

DIR=$BUILD/nvmevirt/$MODE
LOG=$BUILD/nvmevirt/$MODE.log
rm -rf "$DIR"
mkdir -p "$DIR"
(cd "$SRC" && tar -c --exclude=./.git --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude=Module.symvers --exclude=modules.order .) | tar -x -C "$DIR" ||
	fail "cannot copy $SRC"
REV=$(git -C "$SRC" rev-parse --short=12 HEAD 2>/dev/null || echo "not a git checkout")
echo "nvmevirt-build: NVMeVirt $REV ($SRC), $MODE build ($MODEL), against $KDIR" >&2
echo "nvmevirt-build: make -C $KDIR M=$DIR ${VARS[*]} modules" >&2
if ! make -C "$KDIR" M="$DIR" "${VARS[@]}" modules >"$LOG" 2>&1; then
	grep -E 'error|Error' "$LOG" | head -n 20 >&2
	fail "NVMeVirt $REV does not build against $KDIR as it is (see $LOG)"
fi
KO=$DIR/nvmev.ko
[ -f "$KO" ] || fail "no $KO after the build (see $LOG)"
# The model the Kbuild chose, from the compiler's own command line.
grep -q -- "-DBASE_SSD=$MODEL" "$DIR/.main.o.cmd" ||
	fail "main.o was not built with -DBASE_SSD=$MODEL (see $DIR/.main.o.cmd)"
want=$(kernel_release)
got=$(modinfo -F vermagic "$KO" | awk '{ print $1 }')
[ "$got" = "$want" ] || fail "nvmev.ko is for $got, the VM runs $want"

if [ -n "$VMDIR" ]; then
	mkdir -p "$VMDIR/overlay/vflash"
	cp "$KO" "$VMDIR/overlay/vflash/nvmev.ko"
	echo "NVMeVirt $REV, $MODE build ($MODEL): make ${VARS[*]}" \
		>"$VMDIR/overlay/vflash/nvmevirt.txt"
	printf '%s\n' "${PEER_ARGS:-}" >"$VMDIR/overlay/vflash/peer-args"
	echo "PASS nvmevirt-build-$MODE"
fi
echo "$KO"
