# SPDX-License-Identifier: GPL-2.0
# Real applications on the CXL device (issue 25; docs/apps.md): memcached
# serves memaslap with its values verified and stops cleanly under
# vflashctl run; graphrank (the graph workload) gives under vflashctl run
# the answer it gives in DRAM; and make study-apps at its tiny scale
# (scripts/bench/study/apps.sh -s tiny -f 0.5: redis, sqlite3 and graphrank in
# DRAM and on the device in a cache of half their footprint, every
# mechanism check passing; memcached's part of the study is left to make
# study-apps, its serving is the first test), whose CSV goes to the host,
# where report-apps.py makes the table and the plots (the vmtest-host
# line). Not booted under the debug kernel unless named (apps runs its
# kernel paths there); named, the study runs sqlite3 and graphrank only
# (redis runs under the apps suite there).
# vmtest-mem: 1G
# vmtest-timeout: 300
# vmtest-once: the study scripts do not depend on the kernel line; the paths they drive run there in apps
# vmtest-debug-skip: the study is programs driving mmap misses, fork and region frees that apps runs under the debug kernel (redis, sqlite3, threads, fork, kill); CI's time is near its budget
# vmtest-host: scripts/bench/study/report-apps.py

SYS=/sys/class/vflash/vflash0
PROCS=/sys/kernel/debug/vflash/vflash0/procs
SIZE=$((64 << 20))
PAGES=$((SIZE >> 12))

free_pages() { awk '$1 == "free_pages" { print $2 }' $PROCS; }
procs_field() { awk -v p="$1" -v f="$2" '$1 == p { print $f }' $PROCS; }

load_small() {
	load frontend=cxl profile=znand size=$SIZE cache_size=$((1 << 20))
	echo none >$SYS/policy/prefetch || fail "prefetch none"
}

# memcached under vflashctl run: memaslap's sets and gets, a share of the
# gets checked against what was set; its "shutdown" command stops it
# with exit 0 and every region page given back.
test_memcached() {
	local pid out n=0 rc=0
	command -v memcached >/dev/null && command -v memcaslap >/dev/null ||
		{ echo "no memcached/memcaslap in the VM"; return 0; }
	load_small
	ip link set lo up || fail "ip link set lo up"
	# -u root needs root's passwd line; the initramfs has no /etc/passwd
	[ -f /etc/passwd ] || echo 'root:x:0:0:root:/:/bin/sh' >/etc/passwd
	vflashctl run -- memcached -u root -p 11298 -l 127.0.0.1 -m 32 -t 1 -A >/tmp/mc.log 2>&1 &
	pid=$!
	until memcaslap -s 127.0.0.1:11298 -x 1 -T 1 -c 1 >/dev/null 2>&1; do
		n=$((n + 1))
		[ $n -lt 300 ] || fail "memcached did not answer: $(cat /tmp/mc.log)"
		kill -0 $pid 2>/dev/null || fail "memcached exited: $(cat /tmp/mc.log)"
		sleep 0.1
	done
	expect_eq "$(procs_field $pid 3)" private "memcached's mode in procs"
	out=$(memcaslap -s 127.0.0.1:11298 -x "$(light 1000 300)" -T 1 -c 8 -w 1k -X 512 -v 0.5 2>&1) ||
		fail "memaslap: $out"
	echo "$out"
	expect_eq "$(echo "$out" | sed -n 's/^verify_failed: //p')" 0 "values that failed memaslap's verification"
	expect_eq "$(echo "$out" | sed -n 's/^get_misses: //p')" 0 "memaslap's get misses"
	[ "$(echo "$out" | sed -n 's/^cmd_get: //p')" -gt 0 ] || fail "memaslap made no gets"
	[ "$(procs_field $pid 4)" -gt 0 ] || fail "memcached holds no region pages"
	[ "$(procs_field $pid 6)" -gt 0 ] || fail "no misses counted to memcached"
	cat $PROCS
	# -A: the "shutdown" command stops it (exit 0)
	printf 'shutdown\r\n' | nc 127.0.0.1 11298
	wait $pid || rc=$?
	expect_eq "$rc" 0 "memcached's exit status"
	expect_eq "$(free_pages)" $PAGES "free region pages after memcached exited"
	unload
}

# graphrank under vflashctl run: its answer equals the DRAM run's, with
# its arrays on the device and missing in a 1 MiB cache.
test_graph() {
	local v dram dev
	command -v graphrank >/dev/null || { echo "no graphrank in the VM"; return 0; }
	v=$(light 20000 5000)
	dram=$(graphrank "$v" 8 2 7 | grep '^answer') || fail "graphrank in DRAM"
	load_small
	dev=$(vflashctl run -- graphrank "$v" 8 2 7 $PROCS) || fail "graphrank under vflashctl run: $dev"
	echo "$dev"
	expect_eq "$(echo "$dev" | grep '^answer')" "$dram" "graphrank's answer on the device"
	echo "$dev" | awk '$2 == "graphrank" && $3 == "private" && $4 > 0 && $6 > 0 { ok = 1 } END { exit !ok }' ||
		fail "graphrank's procs line shows no region pages or no misses"
	expect_eq "$(free_pages)" $PAGES "free region pages after graphrank exited"
	unload
}

# make study-apps at its tiny scale; the host makes the report.
test_study() {
	local rc=0 f apps
	apps=$(light "redis sqlite graph" "sqlite graph")
	/vflash/bench/study/apps.sh -k "$KO" -o /tmp/study-apps -s tiny -A "$apps" -f 0.5 || rc=$?
	for f in apps.csv checks.txt; do
		[ -f "/tmp/study-apps/$f" ] && save_file "$f" "/tmp/study-apps/$f"
	done
	[ "$rc" -eq 0 ] || { tail -n 30 /tmp/study-apps/apps.log; fail "apps.sh exited $rc"; }
	cat /tmp/study-apps/apps.csv
	grep -q '^FAIL' /tmp/study-apps/checks.txt && fail "a mechanism check failed"
	[ "$(grep -c '^PASS' /tmp/study-apps/checks.txt)" -ge 8 ] || fail "too few checks passed"
	expect_gone
}

run_test appstudy-memcached test_memcached
run_test appstudy-graph test_graph
run_test appstudy-study test_study
