#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the vflash.ko of another git revision, for benchmarks that compare
# an older module with the current one in the same VM boot (make
# bench-faultcost, docs/performance.md).
#
# usage: scripts/bench/baseline-ko.sh [REV]    (default 73267b7^, the
#        commit before fault injection was added)
#
# The revision's tree is exported with `git archive` into
# build/baseline-ko/<full commit hash>/ and built there against the same
# KDIR as the repository's own vflash.ko (scripts/kdir.sh, or KDIR= from
# the environment). A module already built for that commit is reused. The
# path of the module is the only thing printed on stdout; the build's
# output goes to build/baseline-ko/<hash>.log.
set -euo pipefail
# shellcheck source=scripts/common.sh
. "$(dirname "$0")/../common.sh"

REV=${1:-73267b7^}
case $REV in
-h | --help)
	sed -n '4,/^set -e/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'
	exit 0
	;;
esac
[ -n "$KDIR" ] || die "baseline-ko: no kernel headers found (scripts/setup.sh, or KDIR=)"
SHA=$(git -C "$REPO" rev-parse --verify -q "$REV^{commit}") ||
	die "baseline-ko: $REV is not a commit of $REPO"
DIR=$BUILD/baseline-ko/$SHA
LOG=$BUILD/baseline-ko/$SHA.log
KO=$DIR/vflash.ko

# A module built by a finished run (the stamp is written last) is reused.
if [ -f "$KO" ] && [ -f "$DIR/.built" ]; then
	echo "$KO"
	exit 0
fi
rm -rf "$DIR"
mkdir -p "$DIR"
git -C "$REPO" archive --format=tar "$SHA" | tar -x -C "$DIR" ||
	die "baseline-ko: cannot export $SHA"
echo "baseline-ko: building vflash.ko of $REV ($SHA) in $DIR" >&2
make -C "$KDIR" M="$DIR" modules >"$LOG" 2>&1 ||
	{ tail -n 20 "$LOG" >&2; die "baseline-ko: the build of $SHA failed (see $LOG)"; }
[ -f "$KO" ] || die "baseline-ko: no $KO after the build"
touch "$DIR/.built"
echo "$KO"
