# SPDX-License-Identifier: GPL-2.0
# Unmodified programs on a CXL device (vflashctl run, the LD_PRELOAD heap
# shim, per-open-file private regions; docs/apps.md): malloc'd memory is
# a /dev/vflash0 mapping whose misses count to the process; data under
# thread stress; fork gives parent and child independent copies; exec
# starts clean; two processes at once with their own counters; SIGKILL
# gives every page back (zeroed); a full device is NULL/ENOMEM, not
# SIGBUS; huge blocks; the aligned family; the ioctls' rules; private
# anonymous mmap (madvise DONTNEED zeroes, mremap keeps data, munmap,
# fork; in DRAM with --heap-only); sqlite3.
# vmtest-mem: 1G
# vmtest-timeout: 300
# vmtest-debug-line-skip: cxl and cxlrace run the mmap fault, eviction, fork and teardown paths under the debug kernel; the programs and the shim are user space

DEV=/dev/vflash0
SYS=/sys/class/vflash/vflash0
PROCS=/sys/kernel/debug/vflash/vflash0/procs
SIZE=$((64 << 20))
PAGES=$((SIZE >> 12))

load_apps() {
	load frontend=cxl size=$SIZE cache_size=$((4 << 20))
	[ -c $DEV ] || fail "$DEV is not a character device"
	# Every first touch a miss of its own process.
	echo none >$SYS/policy/prefetch || fail "prefetch none"
	[ -r $PROCS ] || fail "no $PROCS"
}

run() { vflashctl run -- "$@"; }

free_pages() { awk '$1 == "free_pages" { print $2 }' $PROCS; }

# procs_field PID FIELD: FIELD (3 mode, 4 region_pages, 5 resident,
# 6 misses, 7 writebacks) of PID's line; empty if it has none
procs_field() { awk -v p="$1" -v f="$2" '$1 == p { print $f }' $PROCS; }

test_where() {
	load_apps
	run apps_check where || fail "apps_check where"
	expect_eq "$(free_pages)" $PAGES "free region pages after the process exited"
	[ "$(cat $SYS/stats/misses)" -ge 1024 ] || fail "device misses below the process's"
	unload
}

# vflashctl run's own errors: usage (exit 2, naming the command), a
# program that is not there (127), a device that is not CXL (exit 1).
test_run_errors() {
	local rc
	load_apps
	expect_usage_error "vflashctl run" vflashctl run
	expect_usage_error "vflashctl run" vflashctl run --frob -- true
	expect_usage_error "vflashctl run" vflashctl run --device
	rc=0
	vflashctl run -- /nonexistent/prog 2>/dev/null || rc=$?
	expect_eq "$rc" 127 "exit status of a program that is not there"
	rc=0
	vflashctl run -- sh -c 'exit 3' || rc=$?
	expect_eq "$rc" 3 "the program's exit status"
	expect_match "$(vflashctl run --help)" "^usage: vflashctl run" "run --help"
	unload
	load frontend=nvme size=$SIZE
	rc=0
	vflashctl run -- true 2>/dev/null || rc=$?
	expect_eq "$rc" 1 "exit status on an NVMe device"
	unload
}

test_ioctl_rules() {
	load_apps
	apps_check ioctl $DEV || fail "ioctl rules"
	expect_eq "$(free_pages)" $PAGES "free region pages after the checks"
	unload
}

test_threads() {
	load_apps
	run apps_check threads 4 "$(light 3000 800)" || fail "thread stress"
	expect_eq "$(free_pages)" $PAGES "free region pages after the process exited"
	unload
}

test_fork() {
	load_apps
	run apps_check fork || fail "fork"
	expect_eq "$(free_pages)" $PAGES "free region pages after parent and child exited"
	unload
}

test_exec() {
	load_apps
	run apps_check exec || fail "exec"
	unload
}

# wait_ready FILE: the hold command in FILE's output said "ready PID"
wait_ready() {
	local n=0
	while ! grep -q '^ready' "$1" && [ $n -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	grep -q '^ready' "$1" || fail "$1: not ready: $(cat "$1")"
	awk '/^ready/ { print $2 }' "$1"
}

test_two_and_kill() {
	local p1 p2 j1 j2 pg1 pg2 res1 free0 out
	load_apps
	run apps_check hold 8 >/tmp/h1 2>&1 &
	j1=$!
	run apps_check hold 12 >/tmp/h2 2>&1 &
	j2=$!
	# A failed check must not leave them holding the module.
	trap 'kill -9 $j1 $j2 2>/dev/null || :' EXIT
	p1=$(wait_ready /tmp/h1)
	p2=$(wait_ready /tmp/h2)
	cat $PROCS
	out=$(vflashctl stats | sed -n '/^# processes/,$p')
	echo "$out"
	expect_match "$out" "^$p1 apps_check private " "vflashctl stats' line of the first process"
	expect_match "$out" "^$p2 apps_check private " "vflashctl stats' line of the second process"
	expect_eq "$(procs_field "$p1" 3)" private "mode of the first process"
	expect_eq "$(procs_field "$p2" 3)" private "mode of the second process"
	pg1=$(procs_field "$p1" 4)
	pg2=$(procs_field "$p2" 4)
	[ "$pg1" -ge 2048 ] || fail "region pages $pg1 below the block's 2048"
	[ "$pg2" -ge 3072 ] || fail "region pages $pg2 below the block's 3072"
	[ "$pg2" -gt "$pg1" ] || fail "the larger process holds fewer pages ($pg2 <= $pg1)"
	[ "$(procs_field "$p1" 6)" -ge 2048 ] || fail "misses of the first process: $(procs_field "$p1" 6)"
	[ "$(procs_field "$p2" 6)" -ge 3072 ] || fail "misses of the second process: $(procs_field "$p2" 6)"
	# Filling 20 MiB through a 4 MiB cache wrote dirty pages back.
	[ $(($(procs_field "$p1" 7) + $(procs_field "$p2" 7))) -gt 0 ] || fail "no writebacks counted to either process"
	res1=$(procs_field "$p1" 5)
	free0=$(free_pages)
	expect_eq "$free0" $((PAGES - pg1 - pg2)) "free region pages with both running"
	kill -9 "$p1"
	wait "$j1" || :	# 137: killed
	expect_eq "$(procs_field "$p1" 4)" "" "the killed process's line"
	expect_eq "$(free_pages)" $((free0 + pg1)) "free region pages after the kill"
	echo "killed process had $res1 resident pages"
	[ -n "$(procs_field "$p2" 4)" ] || fail "the other process's line went too"
	kill -9 "$p2"
	wait "$j2" || :
	expect_eq "$(free_pages)" $PAGES "free region pages after both were killed"
	trap - EXIT
	# A killed process's data is gone: a new one reads zeros (calloc of a
	# fresh region relies on it; apps_check huge checks calloc).
	run apps_check huge 8 || fail "a new process after the kills"
	unload
}

test_full() {
	load_apps
	run apps_check full || fail "full device"
	expect_eq "$(free_pages)" $PAGES "free region pages after the process exited"
	unload
}

test_huge() {
	load_apps
	run apps_check huge 16 || fail "huge blocks"
	run apps_check aligned || fail "aligned family"
	unload
}

test_anon() {
	load_apps
	run apps_check anon || fail "anonymous mmap"
	vflashctl run --heap-only -- apps_check anon heap-only || fail "anonymous mmap with --heap-only"
	expect_eq "$(free_pages)" $PAGES "free region pages after the process exited"
	unload
}

# redis-server (Debian's, linked with libjemalloc2: our malloc serves it,
# jemalloc's mallctl/nallocx only answer questions) serves
# redis-benchmark, forks for BGSAVE (the child writes the dump from its
# copy), and shuts down with exit 0.
test_redis() {
	local pid out n=0 rc=0
	command -v redis-server >/dev/null || { echo "no redis-server in the VM"; return 0; }
	load_apps
	ip link set lo up || fail "ip link set lo up"
	mkdir -p /tmp/redis
	vflashctl run -- redis-server --port 6390 --bind 127.0.0.1 --save "" \
		--dir /tmp/redis --daemonize no --loglevel warning >/tmp/redis.log 2>&1 &
	pid=$!
	until redis-cli -p 6390 ping 2>/dev/null | grep -q PONG; do
		n=$((n + 1))
		[ $n -lt 300 ] || fail "redis-server did not answer: $(cat /tmp/redis.log)"
		kill -0 $pid 2>/dev/null || fail "redis-server exited: $(cat /tmp/redis.log)"
		sleep 0.1
	done
	expect_eq "$(procs_field $pid 3)" private "redis-server's mode in procs"
	out=$(redis-benchmark -p 6390 -q -n "$(light 3000 500)" -t set,get,lpush,lpop -P 4) ||
		fail "redis-benchmark: $out"
	echo "$out"
	expect_eq "$(echo "$out" | grep -c 'requests per second')" 4 "redis-benchmark's results"
	redis-cli -p 6390 set key-before-save 42 >/dev/null
	redis-cli -p 6390 bgsave >/dev/null || fail "BGSAVE"
	n=0
	while :; do
		out=$(redis-cli -p 6390 info persistence | tr -d '\r') || fail "redis-server died during BGSAVE"
		echo "$out" | grep -q 'rdb_last_bgsave_status:err' && fail "BGSAVE failed: $(tail -n 5 /tmp/redis.log)"
		echo "$out" | grep -q 'rdb_bgsave_in_progress:0' && [ -s /tmp/redis/dump.rdb ] && break
		n=$((n + 1))
		[ $n -lt 100 ] || fail "BGSAVE did not finish: $(echo "$out" | tr '\n' ' ')"
		sleep 0.2
	done
	echo "$out" | grep -q 'rdb_last_bgsave_status:ok' || fail "BGSAVE's status"
	grep -q key-before-save /tmp/redis/dump.rdb || fail "the dump lacks a key set before BGSAVE"
	expect_eq "$(redis-cli -p 6390 get key-before-save)" 42 "a key after BGSAVE"
	[ "$(procs_field $pid 6)" -gt 0 ] || fail "no misses counted to redis-server"
	redis-cli -p 6390 shutdown nosave >/dev/null 2>&1 || :
	wait $pid || rc=$?
	expect_eq "$rc" 0 "redis-server's exit status"
	expect_eq "$(free_pages)" $PAGES "free region pages after redis-server exited"
	unload
}

test_sqlite() {
	local out misses0
	load_apps
	misses0=$(cat $SYS/stats/misses)
	out=$(run sqlite3 :memory: <<'SQL'
CREATE TABLE t(k INTEGER PRIMARY KEY, v TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
INSERT INTO t SELECT x, printf('value-%08d-%s', x, hex(randomblob(16))) FROM c;
CREATE INDEX tv ON t(v);
UPDATE t SET v = v || '!' WHERE k % 3 = 0;
DELETE FROM t WHERE k % 7 = 0;
SELECT count(*), sum(k), sum(length(v)) FROM t;
.system cat /sys/kernel/debug/vflash/vflash0/procs
SQL
) || fail "sqlite3 under vflashctl run: $out"
	echo "$out"
	# 20000 - 2857 rows; the key sum without the multiples of 7; each
	# value 6+8+1+32 = 47 bytes, one more for the 5714 multiples of 3
	# kept.
	expect_eq "$(echo "$out" | head -n 1)" "17143|171431429|$((17143 * 47 + 5714))" "sqlite3's answer"
	echo "$out" | grep -Eq '^[0-9]+ sqlite3 private [0-9]+' || fail "no private line of sqlite3 while it ran"
	[ "$(cat $SYS/stats/misses)" -gt "$misses0" ] || fail "sqlite3 caused no miss"
	expect_eq "$(free_pages)" $PAGES "free region pages after sqlite3 exited"
	unload
}

run_test apps-where test_where
run_test apps-run-errors test_run_errors
run_test apps-ioctl-rules test_ioctl_rules
run_test apps-threads test_threads
run_test apps-fork test_fork
run_test apps-exec test_exec
run_test apps-two-and-kill test_two_and_kill
run_test apps-full test_full
run_test apps-huge test_huge
run_test apps-anon test_anon
run_test apps-redis test_redis
run_test apps-sqlite test_sqlite
