# SPDX-License-Identifier: GPL-2.0
# `make bench-peer NVMEVIRT=DIR`: scripts/bench/peer.sh -m conv in the
# project's VM: vflash (frontend=nvme profile=samsung-970pro, cpus=3
# spin_us=500 workers=0) beside NVMeVirt's 970 PRO build (cpus=2,3) and null_blk in
# one boot, fio on vCPUs 0-1. NVMeVirt is built on the host from the
# checkout NVMEVIRT names (scripts/bench/nvmevirt-build.sh, the prep step)
# and its 1 GiB device lives in the range memmap= reserves. Kernel
# warnings NVMeVirt raises are counted, not failed (vmtest-splat-module).
# bench-peer-zns.sh (MODE=zns) sources this file with its own header.
# Not a test: it lives outside scripts/vm/suites/, so `make check` skips it.
# The report goes to the results port as "BENCH " lines.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-append: memmap=1025M$1G
# vmtest-prep: scripts/bench/nvmevirt-build.sh ssd
# vmtest-splat-module: nvmev
# vmtest-timeout: 1800

# bench_peer MODE: peer.sh -m MODE (and the prep's PEER_ARGS), each
# line of its report sent as it comes (a kernel that dies midway keeps
# what came before)
bench_peer() {
	[ -f /vflash/nvmev.ko ] || fail "no /vflash/nvmev.ko: the prep step failed"
	report "BENCH $(cat /vflash/nvmevirt.txt)"
	# stdout is the report; stderr (progress, nvme-cli's output) the console
	# shellcheck disable=SC2046 # PEER_ARGS: one word per option
	{ /vflash/bench/peer.sh -m "$1" $(cat /vflash/peer-args)
		echo "peer.sh exit $?" >/tmp/peer.rc; } |
		while IFS= read -r line; do
			report "BENCH $line"
		done
	cat /tmp/peer.rc
	[ "$(cat /tmp/peer.rc)" = "peer.sh exit 0" ] || fail "scripts/bench/peer.sh failed"
}

# shellcheck disable=SC2154 # suite: set by the guest's /init
case $suite in
bench-peer-zns) run_test bench-peer-zns bench_peer zns ;;
*) run_test bench-peer bench_peer conv ;;
esac
