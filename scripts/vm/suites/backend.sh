# SPDX-License-Identifier: GPL-2.0
# The backend's sysfs: policy/, stats/ and config/ on every profile, with
# bad values rejected and nothing changed by them. (I/O through the
# backend comes with the frontends' suites.)
# vmtest-mem: 2G

SYS=/sys/class/vflash/vflash0
EXPECTED_KINDS="eviction gc maintenance migration placement prefetch"

# write_fails FILE VALUE: writing VALUE to FILE is refused
write_fails() {
	if echo "$2" 2>/dev/null >"$1"; then
		fail "writing '$2' to $1 succeeded"
	fi
}

test_directories() {
	load frontend=none size=64M
	for d in policy stats config; do
		[ -d $SYS/$d ] || fail "$SYS/$d missing"
	done
	expect_eq "$(ls $SYS/policy | tr '\n' ' ')" "$EXPECTED_KINDS " "policy kinds"
	unload
}

test_policies_switch_and_reject() {
	load frontend=none size=64M
	for kind in $EXPECTED_KINDS; do
		list=$(cat $SYS/policy/$kind)
		echo "$kind: $list"
		expect_match "$list" '^([a-z0-9-]+ )*\[[a-z0-9-]+\]( [a-z0-9-]+)*$' "$kind list"
		for name in $(echo "$list" | tr -d '[]'); do
			echo "$name" >$SYS/policy/$kind || fail "switch $kind to $name"
			expect_match "$(cat $SYS/policy/$kind)" "\[$name\]" "$kind after switching to $name"
		done
		before=$(cat $SYS/policy/$kind)
		write_fails $SYS/policy/$kind bogus
		write_fails $SYS/policy/$kind ""
		write_fails $SYS/policy/$kind "[$name]"
		expect_eq "$(cat $SYS/policy/$kind)" "$before" "$kind after bad writes"
	done
	unload
}

test_config_knobs() {
	load frontend=none size=64M
	n=0
	for k in $SYS/config/*; do
		v=$(cat "$k")
		expect_match "$v" '^[0-9]+$' "$k"
		echo "$v" >"$k" || fail "rewriting $v to $k"
		write_fails "$k" abc
		write_fails "$k" -1
		write_fails "$k" 99999999999999999999
		write_fails "$k" 20000000000
		expect_eq "$(cat "$k")" "$v" "$k after bad writes"
		n=$((n + 1))
	done
	[ $n -ge 18 ] || fail "only $n knobs"
	echo 123456 >$SYS/config/slc_read_ns
	expect_eq "$(cat $SYS/config/slc_read_ns)" 123456 slc_read_ns
	# The watermarks stay ordered.
	write_fails $SYS/config/gc_low_pct 40
	write_fails $SYS/config/gc_high_pct 1
	echo 40 >$SYS/config/gc_high_pct
	echo 30 >$SYS/config/gc_low_pct
	expect_eq "$(cat $SYS/config/gc_low_pct)" 30 gc_low_pct
	# Read heat is a 4-bit counter: 15 is the top.
	write_fails $SYS/config/migrate_hot_reads 16
	write_fails $SYS/config/migrate_hot_reads 0
	echo 15 >$SYS/config/migrate_hot_reads
	expect_eq "$(cat $SYS/config/migrate_hot_reads)" 15 migrate_hot_reads
	unload
}

test_stats() {
	load frontend=none size=64M
	for s in host_read_pages host_write_pages nand_read_pages \
		nand_program_pages nand_erase_blocks gc_runs gc_copied_pages \
		migrated_pages repromoted_pages free_blocks_slc free_blocks_qlc \
		write_amplification read_latency_p50_ns read_latency_p99_ns \
		read_latency_p999_ns model_read_latency_ns; do
		v=$(cat $SYS/stats/$s) || fail "reading $s"
		expect_match "$v" '^[0-9]+$' "$s"
	done
	[ "$(cat $SYS/stats/free_blocks_slc)" -gt 0 ] || fail "no free SLC blocks"
	[ "$(cat $SYS/stats/free_blocks_qlc)" -gt 0 ] || fail "no free QLC blocks"
	expect_eq "$(stat -c %a $SYS/stats/reset)" 200 "mode of reset"
	echo 0 >$SYS/stats/reset || fail "reset"
	write_fails $SYS/stats/reset 1
	write_fails $SYS/stats/host_read_pages 0
	unload
}

# stats/model_read_latency_ns follows the live knobs; host_overhead_ns is
# the host's share and leaves it alone, up to 1 ms.
test_model_read_latency() {
	local c=$SYS/config sum
	load frontend=none size=64M profile=tlc
	sum=$(($(cat $c/main_read_ns) + $(cat $c/channel_xfer_ns) +
		$(cat $c/host_xfer_ns) + $(cat $c/fw_overhead_ns)))
	expect_eq "$(cat $SYS/stats/model_read_latency_ns)" "$sum" "tlc model"
	expect_eq "$sum" 63599 "tlc model"
	echo 1000 >$c/main_read_ns
	echo 50000 >$c/host_overhead_ns
	expect_eq "$(cat $SYS/stats/model_read_latency_ns)" \
		$((sum - 35760 + 1000)) "model after main_read_ns=1000"
	echo 1000000 >$c/host_overhead_ns
	write_fails $c/host_overhead_ns 1000001
	expect_eq "$(cat $c/host_overhead_ns)" 1000000 host_overhead_ns
	unload
	load frontend=none size=64M profile=qlc-hybrid
	sum=$(($(cat $c/slc_read_ns) + $(cat $c/channel_xfer_ns) +
		$(cat $c/host_xfer_ns) + $(cat $c/fw_overhead_ns)))
	expect_eq "$(cat $SYS/stats/model_read_latency_ns)" "$sum" \
		"qlc-hybrid model"
	unload
}

test_every_profile() {
	for p in qlc-hybrid samsung-970pro tlc optane cxdvirt-znand znand cylon zn540; do
		load frontend=none size=64M profile=$p
		expect_eq "$(cat $SYS/profile)" $p profile
		cat $SYS/config/main_read_ns $SYS/stats/free_blocks_qlc >/dev/null
		case $p in
		qlc-hybrid) [ "$(cat $SYS/stats/free_blocks_slc)" -gt 0 ] ||
			fail "$p has no SLC region" ;;
		*) expect_eq "$(cat $SYS/stats/free_blocks_slc)" 0 "$p SLC blocks" ;;
		esac
		unload
	done
}

# Regression: the GC/migration worker slept between rounds in
# TASK_UNINTERRUPTIBLE (usleep_range()), so an idle device showed a task in
# D state all the time: a load average of 1 per device, and what hung-task
# tooling looks for; so did the NVMe dispatcher between idle polls. Idle
# threads must sleep interruptibly or idle.
test_idle_threads_not_in_d_state() {
	load "$@"
	[ "$1" != frontend=nvme ] || wait_for /dev/nvme0n1
	sleep 1
	pids=""
	# Shell builtins only: a process per read made this test take 80 s
	# under the debug kernel.
	for p in /proc/[0-9]*; do
		c=
		read -r c 2>/dev/null <"$p/comm" || true
		case "$c" in
		vflash*) pids="$pids ${p#/proc/}" ;;
		esac
	done
	[ -n "$pids" ] || fail "no vflash kernel thread"
	d=0
	for i in $(seq 50); do
		for pid in $pids; do
			# The state is the field after the ")" that ends comm.
			read -r st </proc/$pid/stat
			st=${st##*) }
			st=${st%% *}
			[ "$st" != D ] || d=$((d + 1))
		done
		usleep 10000
	done
	echo "D states seen: $d of $((50 * $(echo $pids | wc -w))) samples"
	expect_eq "$d" 0 "samples of an idle vflash thread in D state"
	unload
}

run_test directories test_directories
run_test idle_threads_not_in_d_state test_idle_threads_not_in_d_state \
	frontend=none size=64M
run_test idle_nvme_threads_not_in_d_state test_idle_threads_not_in_d_state \
	frontend=nvme size=64M
run_test policies_switch_and_reject test_policies_switch_and_reject
run_test_full_debug config_knobs "policies_switch_and_reject runs sysfs writes taken and refused, cxl's knobs sets config knobs and checks data under them" test_config_knobs
run_test stats test_stats
run_test_full_debug every_profile "core's every_profile_loads" test_every_profile
run_test model_read_latency test_model_read_latency

# Threads on every CPU hammer the backend while policies switch and the GC
# worker runs; the FTL's invariants must hold afterwards.
torture() {
	load frontend=none size=${2:-32M} store=${3:-full} profile=$1
	T=/sys/kernel/debug/vflash/vflash0/torture
	# A large device: the worker cleans once 1 % of a region is used.
	[ -z "${2:-}" ] || echo 99 >$SYS/config/gc_high_pct ||
		fail "gc_high_pct=99"
	expect_eq "$(cat $T)" "not run" "torture before"
	echo "$(($(nproc) * 2)) 20000" >$T || fail "torture: $(cat $T)"
	cat $T
	expect_match "$(cat $T)" '^ok ' "torture result"
	[ "$(cat /sys/class/vflash/vflash0/stats/gc_runs)" -gt 0 ] ||
		fail "torture ran no GC"
	if echo "0 10" 2>/dev/null >$T; then
		fail "0 threads accepted"
	fi
	unload
}

run_test torture_qlc_hybrid torture qlc-hybrid
run_test torture_tlc torture tlc
# Over 64 GiB a p2l entry holds a group of pages (2 at 128 GiB), found
# among its group's l2p entries: the same torture, on the SMP guest.
run_test torture_p2l_groups torture qlc-hybrid 128G none
