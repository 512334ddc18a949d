# SPDX-License-Identifier: GPL-2.0
# `make study-maintenance`: scripts/bench/study/maintenance.sh at full scale in
# the project's VM (docs/studies.md). Not a test: it lives outside
# scripts/vm/suites/, so `make check` skips it (the suite "study" runs it
# at a tiny scale). Its CSVs go to the host, where
# scripts/bench/study/report-maintenance.py makes the table and the plots in
# build/vmtest/study-maintenance/report/.
# As bench-nvme: the NVMe frontend's threads on the last vCPU, spinning
# for completions due within 500 us (waking a halted vCPU costs tens to
# hundreds of us in TCG); fio on the others.
# vmtest-mem: 6G
# vmtest-smp: 4
# vmtest-timeout: 1800
# vmtest-host: scripts/bench/study/report-maintenance.py

study_maintenance() {
	local rc=0

	/vflash/bench/study/maintenance.sh -k "$KO" -o /tmp/study \
		-a "cpus=$(($(nproc) - 1)) spin_us=500" || rc=$?
	for f in maintenance-raw.csv maintenance-cdf.csv checks.txt; do
		[ -f "/tmp/study/$f" ] && save_file "$f" "/tmp/study/$f"
	done
	[ "$rc" -eq 0 ] || fail "maintenance.sh exited $rc"
}

run_test study-maintenance study_maintenance
