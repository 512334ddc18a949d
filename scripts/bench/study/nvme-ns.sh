# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# Sourced by the NVMe studies (maintenance.sh, fdp.sh): find_ns prints the
# block device of namespace 1 of the vflash controller (model "vflash
# <profile>"), waiting up to 10 s for it to appear; status 1 if it does not.

find_ns() {
	local n i=0

	while [ $i -lt 100 ]; do
		for n in /sys/class/nvme/nvme*; do
			[ -e "$n/model" ] || continue
			case $(cat "$n/model") in
			vflash*)
				[ -b "/dev/${n##*/}n1" ] && { echo "/dev/${n##*/}n1"; return 0; }
				;;
			esac
		done
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
