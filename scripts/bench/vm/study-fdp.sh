# SPDX-License-Identifier: GPL-2.0
# `make study-fdp`: scripts/bench/study/fdp.sh at full scale in the project's VM
# (docs/studies.md). Not a test: it lives outside scripts/vm/suites/, so
# `make check` skips it (the fdp suite's test "study" runs it at a tiny
# scale). Its CSV goes to the host, where scripts/bench/study/report-fdp.py makes
# the table and the plot in build/vmtest/study-fdp/report/.
# vmtest-mem: 2G
# vmtest-timeout: 3600
# vmtest-host: scripts/bench/study/report-fdp.py

study_fdp() {
	local rc=0 f

	/vflash/bench/study/fdp.sh -k "$KO" -o /tmp/study || rc=$?
	for f in fdp.csv checks.txt; do
		[ -f "/tmp/study/$f" ] && save_file "$f" "/tmp/study/$f"
	done
	[ "$rc" -eq 0 ] || fail "fdp.sh exited $rc"
}

run_test study-fdp study_fdp
