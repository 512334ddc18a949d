# SPDX-License-Identifier: GPL-2.0
# frontend=cxl races (issue 13): faults against eviction, slot reuse,
# prefetch, policy switches and SIGKILL, with the mapping invariant checked
# during the stress (a present PTE maps a resident page: present pages
# never outnumber the cache's slots, nor, once quiet, its resident pages);
# O_RDONLY mappings; dirty accounting through fork; many short-lived
# processes; rmmod after each. Bounded: every wait here has a limit.
# vmtest-mem: 2G
# vmtest-smp: 4
# vmtest-timeout: 300

DEV=/dev/vflash0
SYS=/sys/class/vflash/vflash0

stat() { cat $SYS/stats/$1; }

load_cxl() {
	load frontend=cxl "$@"
	[ -c $DEV ] || fail "$DEV is not a character device"
}

# Regression: O_RDONLY + MAP_SHARED + PROT_READ was refused (EINVAL).
test_rdonly() {
	load_cxl size=16M cache_size=1M
	cxl_check rdonly $DEV
	expect_eq "$(stat misses)" 2 "misses of the two pages read"
	unload
}

# Every eviction policy x every prefetch policy, next-n and stride at the
# highest degree, on a 32-slot cache under 8 writer threads (on the first
# 1 MiB, Z-NAND timing) and a reader that zaps and re-protects its own mapping; the
# mincore() invariant is checked about every millisecond.
test_thrash() {
	local ev pf out ms=400
	debug_kernel && ms=1000
	load_cxl size=16M cache_size=128K profile=znand
	echo 64 >$SYS/config/prefetch_degree
	echo 1 >$SYS/config/sample_period_ms
	for ev in fifo lifo clock lru s3fifo random; do
		for pf in none next-n stride; do
			echo $ev >$SYS/policy/eviction
			echo $pf >$SYS/policy/prefetch
			out=$(cxl_check thrash $DEV $((1 << 20)) 32 8 $ms \
				$SYS/stats/resident_pages) ||
				fail "thrash with $ev + $pf"
			echo "$ev + $pf: $out"
		done
	done
	[ "$(stat evictions)" -gt 1000 ] || fail "only $(stat evictions) evictions"
	[ "$(stat resident_pages)" -le 32 ] || fail "more resident pages than slots"
	unload
	expect_gone
}

# No user task is in D state (kernel threads, with an empty command line,
# may sleep uninterruptibly when idle).
# (The status files are read by the shell, not a grep per task: a
# process costs the debug kernel a tenth of a second or more.)
expect_no_d_state() {
	local f key val name
	for f in /proc/[0-9]*/task/[0-9]*/status; do
		[ -s "${f%/task/*}/cmdline" ] || continue
		name=
		while read -r key val; do
			case $key in
			Name:) name=$val ;;
			State:)
				case $val in
				D*)
					cat "${f%status}stack" 2>/dev/null || true
					fail "$name in D state"
					;;
				esac
				break
				;;
			esac
		done 2>/dev/null <"$f" || true
	done
}

# gone PID: the process exited (or is a zombie) within 10 s
gone() {
	local n=0
	while [ $n -lt 100 ]; do
		grep -q '^State:.*Z' /proc/$1/status 2>/dev/null && return 0
		[ -e /proc/$1 ] || return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# SIGKILL of 8 threads faulting on slow (QLC) misses, with lifo + next-n
# at the highest degree on a small cache: the process goes at once (well
# within the bound) and leaves no task in D state.
test_sigkill() {
	local i pid n
	load_cxl size=64M cache_size=256K profile=qlc-hybrid
	echo 1 >$SYS/config/precondition
	echo lifo >$SYS/policy/eviction
	echo next-n >$SYS/policy/prefetch
	echo 64 >$SYS/config/prefetch_degree
	for i in 1 2 3 4; do
		rm -f /tmp/fault.out
		cxl_check fault $DEV $((64 << 20)) 8 >/tmp/fault.out &
		pid=$!
		n=0
		while ! grep -q faulting /tmp/fault.out 2>/dev/null && [ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		sleep 0.$i
		kill -9 $pid
		gone $pid || {
			cat /proc/$pid/task/*/stack 2>/dev/null || true
			fail "round $i: killed process still there after 10 s"
		}
		wait $pid 2>/dev/null || true
		expect_no_d_state
	done
	[ "$(stat misses)" -gt 0 ] || fail "no miss"
	unload
	expect_gone
}

# Pages read by the parent (read-only PTEs), written by a fork()ed child
# (through the inherited PTEs: pfn_mkwrite), then evicted: each is
# written back once.
test_fork_dirty() {
	local pages=64
	load_cxl size=16M cache_size=1M
	echo fifo >$SYS/policy/eviction
	echo none >$SYS/policy/prefetch
	cxl_check forkdirty $DEV $((pages * 4096))
	expect_eq "$(stat dirty_writebacks)" 0 "writebacks before eviction"
	cxl_check sweep $DEV $((16 << 20)) 1 >/dev/null
	expect_eq "$(stat dirty_writebacks)" $pages "dirty writebacks"
	unload
}

# 4 rounds of 16 concurrent short-lived processes (map, sweep, exit)
# under clock and lru with the sampler every millisecond, then rmmod.
# Each sweeps 2 MiB, 8x the cache (1 MiB, 4x, on a light run).
test_short_lived() {
	local ev i r sz
	sz=$(light $((2 << 20)) $((1 << 20)))
	load_cxl size=16M cache_size=256K
	echo 1 >$SYS/config/sample_period_ms
	for ev in clock lru; do
		echo $ev >$SYS/policy/eviction
		for r in 1 2; do
			for i in $(seq 16); do
				cxl_check sweep $DEV "$sz" 1 >/dev/null &
			done
			wait
		done
	done
	[ "$(stat resident_pages)" -le 64 ] || fail "more resident pages than slots"
	unload
	expect_gone
}

run_test rdonly test_rdonly
run_test thrash test_thrash
run_test sigkill test_sigkill
run_test fork_dirty test_fork_dirty
run_test short_lived test_short_lived
