# SPDX-License-Identifier: GPL-2.0
# The maintenance study (scripts/bench/study/maintenance.sh) at a tiny scale:
# it runs end to end on a few variants with every mechanism check
# passing, its CSVs go to the host, where report-maintenance.py must turn
# them into the table and the plots and compare.py must tell a rerun
# from a changed result (smoke-host.sh, the vmtest-host line); its mechanism
# checks fail a run whose read-priority variant may defer nothing; bad
# options are refused. make study-maintenance runs the full study.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 600
# vmtest-host: scripts/bench/study/smoke-host.sh
# vmtest-once: the study scripts do not depend on the kernel line; the paths they drive run there in core, nvme and backend
# vmtest-debug-skip: the study is scripts driving loads, fio and policy switches that core, nvme and backend run under the debug kernel; CI's time is near its budget

STUDY=/vflash/bench/study/maintenance.sh

# One variant of each placement, migration and maintenance policy. The
# debug kernel runs fio at a few hundred IOPS, too slow for the writes of
# a 3 s phase to start cleaning every time: there, two variants, and the
# study must run cleanly (KASAN, lockdep) but its mechanism checks may
# fail (and the test that they do fail is skipped).
TINY_VARIANTS=stripe-heat-inline,affinity-heat-bg,hotcold-heat-rp10,stripe-off-bg
debug_kernel && TINY_VARIANTS=hotcold-heat-rp10,stripe-off-bg

tiny_study() {
	local rc=0

	$STUDY -k "$KO" -s tiny -S 1 -o /tmp/tiny -V $TINY_VARIANTS \
		-a "cpus=$(($(nproc) - 1)) spin_us=500" || rc=$?
	cat /tmp/tiny/checks.txt
	for f in maintenance-raw.csv maintenance-cdf.csv checks.txt; do
		save_file "$f" "/tmp/tiny/$f"
	done
	expect_eq "$(grep -c . /tmp/tiny/maintenance-raw.csv)" \
		$(($(echo $TINY_VARIANTS | tr ',' '\n' | wc -l) + 1)) "CSV lines"
	if debug_kernel; then
		[ "$rc" -le 1 ] || fail "maintenance.sh exited $rc"
	else
		expect_eq "$rc" 0 "maintenance.sh's exit status"
		! grep -q '^FAIL' /tmp/tiny/checks.txt || fail "a mechanism check failed"
	fi
	[ ! -d /sys/module/vflash ] || fail "vflash left loaded"
}

# A read-priority variant allowed no deferral (max_defer_ns 0) defers
# nothing: the study must say so and exit 1, naming the variant and the
# counter, while the variant's other checks pass.
study_catches() {
	local rc=0

	$STUDY -k "$KO" -s tiny -S 7 -D 0 -o /tmp/nodefer \
		-V stripe-heat-rp1 -a "cpus=$(($(nproc) - 1)) spin_us=500" || rc=$?
	cat /tmp/nodefer/checks.txt
	expect_eq "$rc" 1 "maintenance.sh's exit status"
	expect_eq "$(grep -c '^FAIL' /tmp/nodefer/checks.txt)" 1 "failed checks"
	grep -q '^FAIL stripe-heat-rp1 seed 7: read_preempts=0,' /tmp/nodefer/checks.txt ||
		fail "no failed read_preempts check"
	grep -q ',stripe,read-heat,read-priority,0,7,' /tmp/nodefer/maintenance-raw.csv ||
		fail "the run's row does not show max_defer_ns 0"
	[ ! -d /sys/module/vflash ] || fail "vflash left loaded"
}

# bad_usage ARGS...: the study refuses them (exit 2, a message)
bad_usage() {
	expect_usage_error maintenance.sh $STUDY "$@"
}

study_usage() {
	$STUDY -h | grep -q '^usage:' || fail "-h prints no usage"
	expect_eq "$($STUDY -l | wc -l)" 16 "variants listed"
	bad_usage -k "$KO" -s huge
	bad_usage -k "$KO" -V stripe-heat-inline,nosuch
	bad_usage -k "$KO" -w fast
	bad_usage -k "$KO" -S "1 x"
	bad_usage -k /nonexistent.ko
	bad_usage -k "$KO" -q
	bad_usage -k "$KO" -D soon
	bad_usage -k "$KO" -s
	bad_usage -k "$KO" extra
	[ ! -d /sys/module/vflash ] || fail "a refused study loaded vflash"
	# Nor does it touch a vflash that is already loaded.
	load frontend=none size=16M
	bad_usage -k "$KO"
	expect_eq "$(cat /sys/class/vflash/vflash0/frontend)" none "the loaded device"
	unload
}

run_test study-maintenance-tiny tiny_study
run_test_not_debug study-maintenance-catches "too slow for the mechanisms" study_catches
run_test study-maintenance-usage study_usage
