# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Shell helpers that every script shares, on the host and in the VM guest,
# sourced, never run. POSIX sh: the guest's scripts run under busybox sh.
# Where it is: scripts/helpers.sh in the repository, /vflash/helpers.sh in
# the guest (scripts/vm/boot.sh carries it), PREFIX/share/vflash/helpers.sh
# once installed (scripts/install/install.sh, for the trace scripts). A
# script finds it from its own folder, the same way in all three places:
#   . "$(dirname "$0")/../helpers.sh"      (scripts/trace/, scripts/bench/)
# scripts/common.sh (the host's test scripts) sources it too.
# vflashctl alone keeps its own die(): it is installed and carried into
# the guest as one file (its messages name the command as well).

# die MESSAGE: "DIE_PREFIX: MESSAGE" (MESSAGE alone without DIE_PREFIX)
# on stderr, then die_cleanup if the script defines one (unloading what
# it loaded), then exit with DIE_STATUS (default 1).
die() {
	echo "${DIE_PREFIX:+$DIE_PREFIX: }$*" >&2
	if command -v die_cleanup >/dev/null 2>&1; then
		die_cleanup
	fi
	exit "${DIE_STATUS:-1}"
}

# common_opt OPT: the options the study and benchmark scripts share, for
# their getopts loop's last branch: -k KO, -o OUT, -s SCALE (sets KO, OUT,
# SCALE from OPTARG), -h (the script's usage, exit 0); anything else is
# bad usage (exit 2). The script defines usage().
# shellcheck disable=SC2034 # KO, OUT and SCALE are the script's
common_opt() {
	case $1 in
	k) KO=$OPTARG ;;
	o) OUT=$OPTARG ;;
	s) SCALE=$OPTARG ;;
	h)
		usage
		exit 0
		;;
	*)
		usage >&2
		exit 2
		;;
	esac
}

# The study reports (scripts/bench/study/report-*.sh, on the host): their tests
# are PASS/FAIL lines on stdout.
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; }

# report_usage: the report script's header comment, from its third line
# to "set -uo", without the "# ".
report_usage() {
	sed -n '3,/^set -uo/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'
}

# report_start NAME CSVNAME [ARG]: a report's prologue. ARG -h or --help
# prints its usage (exit 0), none is bad usage (exit 2); else sets DIR
# (ARG), SRC (DIR, or DIR/files where DIR has no CSVNAME: a VM suite's
# directory), CSV (SRC/CSVNAME) and OUT (DIR/report, made), and fails
# NAME (exit 1) if there is no CSV.
report_start() {
	case ${3:-} in
	-h | --help)
		report_usage
		exit 0
		;;
	'')
		report_usage >&2
		exit 2
		;;
	esac
	DIR=$3
	SRC=$DIR
	[ -f "$SRC/$2" ] || SRC=$DIR/files
	CSV=$SRC/$2
	OUT=$DIR/report
	mkdir -p "$OUT"
	[ -f "$CSV" ] || {
		fail "$1: no $CSV"
		exit 1
	}
}

# report_mechanisms NAME [count]: PASS NAME if SRC/checks.txt, the
# study's mechanism checks, has PASS lines and no FAIL line ("count":
# saying how many passed), else FAIL with the failures' count.
report_mechanisms() {
	if [ -f "$SRC/checks.txt" ] && ! grep -q '^FAIL' "$SRC/checks.txt" &&
		grep -q '^PASS' "$SRC/checks.txt"; then
		pass "$1: the mechanism checks${2:+ ($(grep -c '^PASS' "$SRC/checks.txt") passed)}"
	else
		fail "$1: the mechanism checks ($(grep -c '^FAIL' "$SRC/checks.txt" 2>/dev/null) failed)"
	fi
}
