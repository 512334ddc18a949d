#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run sparse over every vflash source (C=2) and fail on any report.
set -uo pipefail
. "$(dirname "$0")/common.sh"

[ -n "$KDIR" ] || die "sparse: no kernel headers; run scripts/setup.sh"
command -v sparse >/dev/null || die "sparse: not installed; run scripts/setup.sh"
mkdir -p "$BUILD"
make -C "$KDIR" M="$REPO" C=2 CHECK=sparse modules 2>&1 | tee "$BUILD/sparse.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
! grep -E '(warning|error):' "$BUILD/sparse.log"
