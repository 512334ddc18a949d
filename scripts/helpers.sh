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

# kv_field LINE KEY: the value of KEY= among LINE's words (a line of
# key=value words, such as mmap_lat's)
kv_field() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# median: the median of the numbers on stdin, one a line ("nan" if none)
median() {
	sort -g | awk '{ v[NR] = $1 } END {
		if (NR == 0) print "nan"
		else if (NR % 2) print v[(NR + 1) / 2]
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# For the scripts that load vflash themselves: SYS is its sysfs
# directory, RMMOD the command that unloads it, LOADED set while loaded.
# stat_of NAME: the counter SYS/stats/NAME
stat_of() {
	cat "$SYS/stats/$1"
}

# vunload: unload vflash (die if it cannot be)
# shellcheck disable=SC2034 # LOADED is the script's
vunload() {
	$RMMOD vflash || die "rmmod vflash"
	LOADED=
}
