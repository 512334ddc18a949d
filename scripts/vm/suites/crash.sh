# SPDX-License-Identifier: GPL-2.0
# vmtest-mem: 2G
# vmtest-timeout: 600

SYS=/sys/class/vflash/vflash0
F=/sys/kernel/debug/vflash/vflash0/faults

test_probe() {
	modprobe nvme_core 2>/dev/null || true
	echo 2 >/sys/module/nvme_core/parameters/io_timeout
	load frontend=nvme size=64M profile=tlc
	sleep 1
	crashcheck --cuts 10 --seed 1 || fail "crashcheck"
	unload
}
run_test probe test_probe
