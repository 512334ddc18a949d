#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the kernel's checkpatch.pl --strict over vflash's C sources. Reports
# that are deliberately left are listed, with the reason, in
# docs/develop/static-analysis.md and passed to --ignore here.
set -uo pipefail
. "$(dirname "$0")/common.sh"

CP=$KSRC/scripts/checkpatch.pl
[ -x "$CP" ] || die "checkpatch: no $CP; run scripts/setup.sh"
cd "$REPO" || exit 1
# Kernel code only: the userspace tools in scripts/ use C99 types and
# volatile loads on purpose (docs/develop/static-analysis.md).
files=$( (git ls-files '*.c' '*.h' 2>/dev/null || find . -name '*.[ch]') |
	grep -v '^\(\./\)\?scripts/' |
	grep -v '^\(\./\)\?backend_flash/trace\.h$\|^\(\./\)\?core/compat\.h$')
# --no-tree: we are not a kernel tree. FILE_PATH_CHANGES and
# SPDX placement do not apply to a standalone repository.
"$CP" --strict --no-tree --terse --show-types --color=never \
	--ignore FILE_PATH_CHANGES \
	-f $files
rc=$?
# The trace-event header is written in the TRACE_EVENT() layout of the
# kernel's own include/trace/events/ (docs/develop/static-analysis.md).
"$CP" --strict --no-tree --terse --show-types --color=never \
	--ignore FILE_PATH_CHANGES,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT \
	-f backend_flash/trace.h || rc=1
# The compat header is the one place kernel versions are tested
# (docs/develop/kernels.md): LINUX_VERSION_CODE is what it is for.
"$CP" --strict --no-tree --terse --show-types --color=never \
	--ignore FILE_PATH_CHANGES,LINUX_VERSION_CODE,CONSTANT_COMPARISON \
	-f core/compat.h || rc=1
exit $rc
