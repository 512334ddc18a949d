#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the debug kernel the VM suites also run under: the
# Debian linux-source-6.1 tree, x86_64_defconfig plus
# scripts/debug-kernel.config (KASAN, lockdep, kmemleak, UBSAN, ...).
#
# The build lives in $VFLASH_CACHE/debug-kernel and is reused until the
# config fragment, this script or the source package changes. Output:
#   $VFLASH_CACHE/debug-kernel/build       O= tree (KDIR for vflash.ko)
#   $VFLASH_CACHE/debug-kernel/bzImage
#   $VFLASH_CACHE/debug-kernel/modroot     modules_install tree
set -euo pipefail
. "$(dirname "$0")/common.sh"

OUT=$VFLASH_CACHE/debug-kernel
FRAG=$REPO/scripts/debug-kernel.config
[ -f "$KSRC/Makefile" ] || die "debug-kernel: no kernel source at $KSRC; run scripts/setup.sh"

key=$(cat "$FRAG" "$0" "$KSRC/.vflash-unpacked" 2>/dev/null | sha256sum | cut -c1-16)
if [ "$(cat "$OUT/.key" 2>/dev/null)" = "$key" ] && [ -f "$OUT/bzImage" ]; then
	echo "debug-kernel: reusing $OUT ($key)"
	exit 0
fi

echo "debug-kernel: building in $OUT ($key); this takes a while"
rm -f "$OUT/.key" "$OUT/bzImage"
mkdir -p "$OUT/build"
# The KUnit rig links the repository into drivers/ (kunit/Kconfig only
# applies with CONFIG_KUNIT, which is off here): linked here too, so that
# the tree is the same whichever ran first.
ksrc_link_vflash
make -s -C "$KSRC" O="$OUT/build" x86_64_defconfig
"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$OUT/build" \
	"$OUT/build/.config" "$FRAG" >/dev/null
make -s -C "$KSRC" O="$OUT/build" olddefconfig

# Every line of the fragment must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%=n}
		grep -q "^$opt=" "$OUT/build/.config" && { echo "debug-kernel: $opt is still set" >&2; bad=1; } ;;
	CONFIG_*) grep -qxF "$line" "$OUT/build/.config" || { echo "debug-kernel: $line did not stick" >&2; bad=1; } ;;
	esac
done <"$FRAG"
[ "$bad" -eq 0 ] || die "debug-kernel: the config fragment does not apply"

make -s -C "$KSRC" O="$OUT/build" -j"$(nproc)" bzImage modules
rm -rf "$OUT/modroot"
make -s -C "$KSRC" O="$OUT/build" INSTALL_MOD_PATH="$OUT/modroot" \
	INSTALL_MOD_STRIP=1 DEPMOD=/bin/true modules_install
cp "$OUT/build/arch/x86/boot/bzImage" "$OUT/bzImage"
echo "$key" >"$OUT/.key"
echo "debug-kernel: done"
