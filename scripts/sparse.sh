#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run sparse over every vflash source (C=2) and fail on any report.
# usage: scripts/sparse.sh [DIR]   (a copy of the sources, built for KDIR,
#        as make check makes for a second kernel line; default the
#        repository)
set -uo pipefail
. "$(dirname "$0")/common.sh"

[ -n "$KDIR" ] || die "sparse: no kernel headers; run scripts/setup.sh"
command -v sparse >/dev/null || die "sparse: not installed; run scripts/setup.sh"
mkdir -p "$BUILD"
make -C "$KDIR" M="${1:-$REPO}" C=2 CHECK=sparse -j"$(nproc)" modules 2>&1 |
	tee "$BUILD/sparse$KSFX.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
! grep -E '(warning|error):' "$BUILD/sparse$KSFX.log"
