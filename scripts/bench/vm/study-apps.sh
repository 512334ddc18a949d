# SPDX-License-Identifier: GPL-2.0
# `make study-apps`: scripts/bench/study/apps.sh at full scale in the project's VM
# (docs/studies.md): redis, memcached, sqlite3 and graphrank in DRAM and
# under vflashctl run at three cache sizes. Not a test: it lives outside
# scripts/vm/suites/, so `make check` skips it (the apps suite's test
# apps-study runs it at a tiny scale). Its CSV goes to the host, where
# scripts/bench/study/report-apps.py makes the table and the plots in
# build/vmtest/study-apps/report/.
# vmtest-mem: 2G
# vmtest-timeout: 1800
# vmtest-host: scripts/bench/study/report-apps.py

study_apps() {
	local rc=0 f

	/vflash/bench/study/apps.sh -k "$KO" -o /tmp/study || rc=$?
	for f in apps.csv checks.txt apps.log; do
		[ -f "/tmp/study/$f" ] && save_file "$f" "/tmp/study/$f"
	done
	[ "$rc" -eq 0 ] || fail "apps.sh exited $rc"
}

run_test study-apps study_apps
