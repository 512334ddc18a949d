# SPDX-License-Identifier: GPL-2.0
# `make bench-peer NVMEVIRT=DIR MODE=zns`: scripts/bench/peer.sh -m zns in
# the project's VM: vflash's zoned namespace (zoned=1 zone_size=32M
# zone_max_open=14, no active limit) beside NVMeVirt's ZNS build
# (ZNS_PROTOTYPE, 32 MiB zones): fio zonemode=zbd jobs and the conformance
# probes. bench-peer.sh does the work; this file is its header for ZNS.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-append: memmap=1025M$1G
# vmtest-prep: scripts/bench/nvmevirt-build.sh zns
# vmtest-splat-module: nvmev
# vmtest-timeout: 1800

# shellcheck source=scripts/bench/vm/bench-peer.sh
. /vflash/suites/bench-peer.sh
