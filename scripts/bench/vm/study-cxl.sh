# SPDX-License-Identifier: GPL-2.0
# `make study-cxl`: scripts/bench/study/cxl.sh at full scale in the project's
# VM (docs/studies.md, study-cxl): eviction (6) x prefetch (3) x working set
# (0.5x, 1x, 2x, 4x a 1 MiB cache) x pattern (seq, rand, zipf, stride) on
# znand and cylon, 3 seeds (1728 runs), then, when the VM has kvstore,
# YCSB mixes a-d x eviction x prefetch (none, next-n) on cylon with a
# 4 MiB heap (3 MiB in use). Not a test: it lives outside
# scripts/vm/suites/, so `make check` skips it (the suite "studycxl" runs
# it at a tiny scale). Its CSVs go to the host, where
# scripts/bench/study/report-cxl.py makes the tables and the plots in
# build/vmtest/study-cxl/report/.
# As bench-cxl: two vCPUs (as many as the host has cores: with more, the
# evictor's TLB-flush IPIs wait for descheduled vCPU threads), and NAND
# waits spun whole (wait_spin_ns 100 us > cylon's 41 us: waking a halted
# vCPU from an hrtimer sleep costs tens of us or more in TCG).
# vmtest-mem: 2G
# vmtest-smp: 2
# vmtest-timeout: 1800
# vmtest-host: scripts/bench/study/report-cxl.py

study_cxl() {
	local rc=0 f

	/vflash/bench/study/cxl.sh -k "$KO" -o /tmp/study -P 100000 || rc=$?
	for f in cxl.csv kv.csv mechanism.txt cxl.log; do
		[ -f "/tmp/study/$f" ] && save_file "$f" "/tmp/study/$f"
	done
	[ "$rc" -eq 0 ] || fail "cxl.sh exited $rc"
}

run_test study-cxl study_cxl
