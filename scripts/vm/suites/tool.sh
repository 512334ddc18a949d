# SPDX-License-Identifier: GPL-2.0
# Install and tool: the module DKMS built and installed on the host side
# (scripts/install/vmprep.sh: make install and dkms into a staging root,
# added to this VM's initramfs) loads with modprobe here; vflashctl as
# make install put it (/usr/local/bin) drives it: every subcommand, and
# wrong arguments (exit 2, a message naming the command).
# selftest's verdict rests on timing: the tests check its figures' lines
# and that its verdict and exit status agree; they expect PASS only with
# the timing bounds lifted (--tolerance, --hit-factor), where what is left
# are the functional checks (reads reached the NAND, the model's charge,
# no early completion).
# vmtest-mem: 2G
# One vCPU, as the trace suite: trace_plot enables the trace points, and
# the live text patching of that under TCG with two vCPUs once let the
# other run the int3 after the patch was done ("Oops: int3" in
# ttwu_do_activate, 6.12, CI of 2026-12-03): the emulation's race.
# vmtest-smp: 1
# vmtest-timeout: 240
# vmtest-prep: scripts/install/vmprep.sh
# vmtest-debug-skip: vflashctl is shell; what it drives (loads, fio and mmap_lat I/O, unloads) runs under the debug kernel in core, nvme and cxl, and CI's time is near its budget

SYS=/sys/class/vflash/vflash0
KVER=$(uname -r)
PATH=/usr/local/bin:$PATH
VCTL=/usr/local/bin/vflashctl

# usage_error ARGS...: vflashctl ARGS is refused with exit 2 and a message
# naming vflashctl and the subcommand
usage_error() {
	local who=vflashctl
	case $1 in
	up | down | status | stats | policy | config | selftest | trace | plot | help)
		who="vflashctl $1" ;;
	esac
	expect_usage_error "$who" "$VCTL" "$@"
}

# fails ARGS...: vflashctl ARGS fails with exit 1 and a message
fails() {
	local rc=0 out
	out=$("$VCTL" "$@" 2>&1) || rc=$?
	echo "$out" | head -n 3
	expect_eq "$rc" 1 "exit status of vflashctl $*"
	expect_match "$out" "vflashctl" "the message"
}

# timed FUNCTION: run it, and say on the console how long it took (the
# suite has a time budget in make check)
timed() {
	local t0 t1
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@"
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "vmtest: $1 took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
}

# sum_of NAME FILE: the sum of NAME's values over FILE's "name value" lines
sum_of() {
	awk -v n="$1" '$1 == n { s += $2 } END { print s + 0 }' "$2"
}

# The module that dkms installed is the one modprobe finds, and loads.
test_dkms_module_modprobe() {
	# vflash.ko.xz where the kernel's modules are compressed (6.12)
	ko=$(ls /lib/modules/$KVER/updates/dkms/vflash.ko* 2>/dev/null | head -n 1)
	[ -f "$ko" ] || fail "no /lib/modules/$KVER/updates/dkms/vflash.ko*: the host's dkms step failed (prep.log)"
	if ls /lib/modules/$KVER/extra/vflash.ko* >/dev/null 2>&1; then fail "make install's module is here too"; fi
	# What dkms install does after copying the module.
	/sbin/depmod -a
	expect_eq "$(modinfo -n vflash)" "$ko" "modinfo -n vflash"
	expect_eq "$(modinfo -F vermagic vflash | cut -d' ' -f1)" "$KVER" vermagic
	# (64 MiB: zeroing the default 1 GiB takes seconds under TCG)
	modprobe vflash frontend=nvme size=64M
	wait_for /dev/nvme0n1
	expect_eq "$(cat $SYS/frontend)" nvme frontend
	out=$(vflashctl status)
	echo "$out"
	expect_match "$(echo "$out" | head -n 1)" \
		'^vflash0: frontend nvme, 64\.0 MiB \(67108864 bytes\), profile qlc-hybrid' "status line 1"
	expect_match "$out" '  node: /dev/nvme0n1' "status node"
	for k in gc placement migration maintenance eviction prefetch; do
		cur=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $SYS/policy/$k)
		expect_match "$out" " $k=$cur( |\$)" "status policy $k"
	done
	expect_match "$out" "model read $(cat $SYS/stats/model_read_latency_ns) ns" "status model latency"
	expect_match "$out" 'early completions 0' "status early completions"

	# The issue's sequence: selftest PASS (the timing bound lifted), down.
	rc=0
	out=$(vflashctl selftest --tolerance 1000000 --reads 500) || rc=$?
	echo "$out"
	expect_eq "$rc" 0 "selftest exit status"
	expect_match "$out" '^PASS vflash0' "selftest verdict"
	expect_match "$out" 'ok +every read reached the device \(5[0-9]{2} of 500\)' "reads counted"
	expect_match "$out" 'ok +reads paid NAND reads' "NAND reads"
	expect_match "$out" 'ok +charged p50' "model charge"
	expect_match "$out" 'lateness \(completion after its model due time\): p50 [0-9]+ p99 [0-9]+ p99\.9 [0-9]+ max [0-9]+ ns' "lateness line"
	expect_match "$out" 'host \(fio psync\): mean [0-9]+ p50 [0-9]+ p99 [0-9]+ ns' "host line"
	# A rewrite keeps the data: those pages were never written (zeros).
	cmp -n $((8 << 20)) /dev/nvme0n1 /dev/zero || fail "selftest changed the data"

	# At its default bounds, whatever the verdict on this (TCG) host, the
	# figures are there and the verdict, the exit status and the advice
	# agree.
	rc=0
	out=$(vflashctl selftest --reads 200) || rc=$?
	echo "$out"
	case $rc in
	0) expect_match "$(echo "$out" | tail -n 1)" '^PASS vflash0' verdict ;;
	1)
		expect_match "$out" '^FAIL vflash0: what to tune:' verdict
		expect_match "$out" '^  FAIL  ' "the failed check"
		expect_match "$out" '^  - ' "the advice"
		;;
	*) fail "selftest exited $rc" ;;
	esac
	expect_match "$out" "model read latency $(cat $SYS/stats/model_read_latency_ns) ns, tolerance 50%" header
	! echo "$out" | grep -q 'rewriting' || fail "rewrote written pages"
	vflashctl down
	expect_gone
}

test_selftest_cxl() {
	vflashctl up --frontend cxl --size 64M --cache-size 1M --profile znand >/dev/null
	[ -c /dev/vflash0 ] || fail "no /dev/vflash0"
	rc=0
	out=$(vflashctl selftest --tolerance 1000000 --hit-factor 1000000 --reads 500) || rc=$?
	echo "$out"
	expect_eq "$rc" 0 "selftest exit status"
	expect_match "$out" 'preconditioning' precondition
	expect_eq "$(cat $SYS/config/precondition)" 1 "config/precondition"
	for m in miss hit DRAM; do
		expect_match "$out" "^  $m +[(].*[)]: p50 [0-9]+ p99 [0-9]+ p99\\.9 [0-9]+ ns" "$m percentiles"
	done
	expect_match "$out" 'ok +first touches missed \([0-9]+ of 500; [0-9]+ probed before\)' misses
	expect_match "$out" 'ok +miss p50 [0-9]+ ns >= the model' "miss not early"
	expect_match "$out" '^PASS vflash0' verdict
	vflashctl down
}

test_selftest_errors() {
	usage_error selftest --tolerance
	usage_error selftest --tolerance x
	usage_error selftest --reads 3
	usage_error selftest --hit-factor 0
	usage_error selftest --frob
	fails selftest
	vflashctl up --frontend none --size 16M >/dev/null
	usage_error selftest vflash4
	usage_error selftest vflash0 vflash0
	out=$("$VCTL" selftest 2>&1) && fail "selftest of frontend=none passed"
	expect_match "$out" "frontend 'none': selftest needs nvme or cxl" message
	vflashctl down
}

# options in /etc/modprobe.d/vflash.conf apply to modprobe and to up
test_modprobe_conf() {
	conf=/etc/modprobe.d/vflash.conf
	# make install shipped the example: all comments
	grep -q 'options vflash' $conf || fail "not the example"
	! grep -q '^[^#]' $conf || fail "the example sets something"
	cp $conf /tmp/vflash.conf.orig
	echo "options vflash frontend=cxl size=32M cache_size=1M profile=znand" >>$conf
	vflashctl up
	expect_eq "$(cat $SYS/frontend)" cxl frontend
	expect_eq "$(cat $SYS/size)" $((32 << 20)) size
	expect_eq "$(cat $SYS/profile)" znand profile
	[ -c /dev/vflash0 ] || fail "no /dev/vflash0"
	fails up
	expect_match "$("$VCTL" up 2>&1)" "already loaded" message
	vflashctl down
	# the command line wins
	vflashctl up --profile tlc >/dev/null
	expect_eq "$(cat $SYS/profile)" tlc "profile from --profile"
	expect_eq "$(cat $SYS/frontend)" cxl "frontend from the file"
	vflashctl down
	cp /tmp/vflash.conf.orig $conf
}

test_up_down() {
	out=$(vflashctl up --frontend nvme --size 32M --profile cylon lba_size=512 workers=2)
	echo "$out"
	expect_eq "$(cat /sys/module/vflash/parameters/lba_size)" 512 lba_size
	expect_eq "$(cat /sys/module/vflash/parameters/workers)" 2 workers
	expect_match "$out" '^vflash0: frontend nvme, 32\.0 MiB' "up prints the status"
	[ -b /dev/nvme0n1 ] || fail "no namespace after up"
	usage_error down vflash3
	usage_error down --force
	usage_error down vflash0 vflash0
	vflashctl down vflash0
	expect_gone
	fails down
	fails status
	# --ko: a module file instead of modprobe
	vflashctl up --ko "$KO" --frontend=none --size=16M >/dev/null
	expect_eq "$(cat $SYS/frontend)" none frontend
	# in use: refused, and still loaded
	vflashctl down
	vflashctl up --frontend cxl --size 16M --cache-size 1M >/dev/null
	exec 3</dev/vflash0
	fails down
	[ -d /sys/module/vflash ] || fail "unloaded while open"
	exec 3<&-
	vflashctl down
}

test_up_errors() {
	usage_error up --frontend
	usage_error up --frontend scsi
	usage_error up --size
	usage_error up --bogus
	usage_error up stray
	usage_error up size=1G
	usage_error up =1
	usage_error up --ko /nonexistent.ko
	usage_error up --frontend nvme --cache-size 1M
	# the module refuses: its own message, exit 2, nothing loaded
	dmesg -c >/dev/null
	rc=0
	out=$("$VCTL" up --profile nosuch 2>&1) || rc=$?
	echo "$out"
	expect_eq "$rc" 2 "exit status of a refused profile"
	expect_match "$out" 'kernel: .*profile' "the kernel's line"
	expect_match "$out" 'vflashctl up: the module refused' message
	expect_gone
}

test_stats() {
	vflashctl up --size 64M --profile tlc >/dev/null
	out=$(vflashctl stats)
	echo "$out" | head -n 5
	expect_match "$out" '^host_read_pages [0-9]+$' "a counter line"
	expect_match "$out" "^model_read_latency_ns $(cat $SYS/stats/model_read_latency_ns)\$" "model latency"
	! echo "$out" | grep -q '^reset' || fail "stats lists reset"
	n=$(echo "$out" | wc -l)
	expect_eq "$n" "$(find $SYS/stats -type f ! -name reset | wc -l)" "one line per counter"
	vflashctl stats vflash0 --json >/tmp/s.json
	expect_eq "$(jq -r .device /tmp/s.json)" vflash0 "json device"
	expect_eq "$(jq '.stats | length' /tmp/s.json)" "$n" "json counters"
	expect_eq "$(jq '.stats.model_read_latency_ns' /tmp/s.json)" \
		"$(cat $SYS/stats/model_read_latency_ns)" "json value"
	# --watch: the changes over the intervals add up to the reads made
	# between its first snapshot and its last (--json: one object each)
	dd if=/dev/nvme0n1 of=/dev/null bs=4k count=10 iflag=direct 2>/dev/null
	vflashctl stats --json --watch 1 >/tmp/watch.json &
	pid=$!
	wait_lines '{"device":"vflash0","interval":1,' /tmp/watch.json
	dd if=/dev/nvme0n1 of=/dev/null bs=4k count=100 iflag=direct 2>/dev/null
	done_iv=$(wc -l </tmp/watch.json)
	wait_lines "{\"device\":\"vflash0\",\"interval\":$((done_iv + 1))," /tmp/watch.json
	kill $pid
	wait $pid || true
	cat /tmp/watch.json
	expect_eq "$(jq -s 'map(.stats.host_read_pages) | add' /tmp/watch.json)" 100 "host_read_pages deltas"
	n=$(wc -l </tmp/watch.json)
	expect_eq "$(jq -s 'map(.interval) | map(tostring) | join(",")' /tmp/watch.json)" \
		"\"$(seq -s, 1 "$n")\"" intervals
	# a level is shown as it is, not as its change
	expect_eq "$(jq -s 'map(.stats.model_read_latency_ns) | unique | join(",")' /tmp/watch.json)" \
		"\"$(cat $SYS/stats/model_read_latency_ns)\"" "a level"
	vflashctl stats --watch 1 --count 1 >/tmp/watch.out
	cat /tmp/watch.out
	expect_eq "$(grep -c '^# vflash0 interval 1 (1 s)' /tmp/watch.out)" 1 "text block"
	expect_eq "$(grep -vc '^#' /tmp/watch.out)" "$(find $SYS/stats -type f ! -name reset | wc -l)" "text lines"
	expect_eq "$(sed -n 's/^host_read_pages //p' /tmp/watch.out)" 0 "no reads, no change"
	vflashctl stats --reset >/dev/null
	expect_eq "$(vflashctl stats | sed -n 's/^host_read_pages //p')" 0 "after --reset"
	usage_error stats --watch
	usage_error stats --watch 1.5
	usage_error stats --count 2
	usage_error stats vflash1
	usage_error stats nvme0
	vflashctl down
}

# wait_lines LINE FILE: a line starting with LINE appears in FILE (10 s)
wait_lines() {
	local i=0
	while ! grep -q "^$1" "$2" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "^$1" "$2" || fail "no '$1' in $2"
}

test_policy() {
	vflashctl up --frontend none --size 16M >/dev/null
	out=$(vflashctl policy vflash0)
	echo "$out"
	for k in gc placement migration maintenance eviction prefetch; do
		expect_match "$out" "^$k +.*\\[" "kind $k listed"
	done
	expect_eq "$(vflashctl policy 0 gc)" "$(cat $SYS/policy/gc)" "one kind"
	out=$(vflashctl policy /dev/vflash0 gc fifo)
	expect_match "$out" '\[fifo\]' "switched (printed)"
	expect_match "$(cat $SYS/policy/gc)" '\[fifo\]' "switched (sysfs)"
	before=$(cat $SYS/policy/gc)
	usage_error policy vflash0 gc nosuch
	expect_match "$("$VCTL" policy vflash0 gc nosuch 2>&1)" "valid: greedy cost-benefit fifo" "valid names"
	usage_error policy vflash0 nokind
	expect_match "$("$VCTL" policy vflash0 nokind 2>&1)" "kinds: .*eviction" "valid kinds"
	usage_error policy vflash0 gc ''
	expect_eq "$(cat $SYS/policy/gc)" "$before" "unchanged"
	usage_error policy
	usage_error policy vflash2 gc
	usage_error policy vflash0 gc fifo extra
	vflashctl down
}

test_config() {
	vflashctl up --frontend none --size 16M >/dev/null
	out=$(vflashctl config vflash0)
	echo "$out" | head -n 3
	expect_match "$out" "^gc_low_pct $(cat $SYS/config/gc_low_pct)\$" "a knob listed"
	expect_eq "$(echo "$out" | wc -l)" "$(find $SYS/config -type f | wc -l)" "every knob"
	expect_eq "$(vflashctl config 0 host_overhead_ns)" "$(cat $SYS/config/host_overhead_ns)" "one knob"
	out=$(vflashctl config vflash0 host_overhead_ns 1500)
	expect_match "$out" '^host_overhead_ns 1500 \(was [0-9]+\)$' "set (printed)"
	expect_eq "$(cat $SYS/config/host_overhead_ns)" 1500 "set (sysfs)"
	before=$(cat $SYS/config/gc_low_pct)
	usage_error config vflash0 gc_low_pct 99
	expect_match "$("$VCTL" config vflash0 gc_low_pct 99 2>&1)" "refused gc_low_pct=99.*stays $before" "refusal message"
	usage_error config vflash0 gc_low_pct abc
	usage_error config vflash0 gc_low_pct -1
	expect_eq "$(cat $SYS/config/gc_low_pct)" "$before" "unchanged"
	usage_error config vflash0 noknob
	expect_match "$("$VCTL" config vflash0 noknob 2>&1)" "knobs: .*gc_high_pct" "valid knobs"
	usage_error config
	usage_error config vflash9
	vflashctl down
}

test_help() {
	out=$(vflashctl --help)
	for c in up down status stats policy config selftest trace plot help; do
		expect_match "$out" "^  $c( |\$)" "$c in --help"
		[ "$c" = help ] && continue
		expect_match "$(vflashctl "$c" --help)" "^usage: vflashctl $c" "$c --help"
	done
	expect_eq "$(vflashctl help stats)" "$(vflashctl stats --help)" "help stats"
	expect_eq "$(vflashctl -h)" "$out" "-h"
	expect_match "$(vflashctl policy -h)" '^usage: vflashctl policy' "policy -h"
	rc=0
	"$VCTL" >/dev/null 2>&1 || rc=$?
	expect_eq "$rc" 2 "no command"
	usage_error frobnicate
	usage_error help nosuch
	usage_error status extra
}

test_trace_plot() {
	vflashctl up --size 64M --profile tlc >/dev/null
	# the command's exit status is trace's
	rc=0
	"$VCTL" trace -b 256 -o /tmp/t.trace sh -c \
		'dd if=/dev/nvme0n1 of=/dev/null bs=4k count=20 iflag=direct; exit 3' || rc=$?
	expect_eq "$rc" 3 "trace's exit status"
	expect_eq "$(grep -c 'vflash_request_complete:' /tmp/t.trace)" 20 "traced completions"
	usage_error trace
	usage_error trace -Z true
	usage_error plot /tmp/t.trace
	usage_error plot /nonexistent /tmp/plots
	usage_error plot -x /tmp/t.trace /tmp/plots
	if command -v gnuplot >/dev/null; then
		vflashctl plot /tmp/t.trace /tmp/plots
	else
		fails plot /tmp/t.trace /tmp/plots
		expect_match "$("$VCTL" plot /tmp/t.trace /tmp/plots 2>&1)" "needs gnuplot" message
	fi
	vflashctl down
	fails trace true
}

# The udev rule matches the device vflash makes: its KERNEL pattern the
# node's name, its SUBSYSTEM the device's class. (No udevd runs here: the
# rule's OWNER/GROUP/MODE are not applied in this VM.)
test_udev_rule_matches() {
	rule=/etc/udev/rules.d/60-vflash.rules
	line=$(grep -v '^#' $rule | grep .)
	expect_eq "$(echo "$line" | wc -l)" 1 "one rule"
	kpat=$(echo "$line" | sed -n 's/.*KERNEL=="\([^"]*\)".*/\1/p')
	subsys=$(echo "$line" | sed -n 's/.*SUBSYSTEM=="\([^"]*\)".*/\1/p')
	expect_match "$line" 'GROUP="vflash", MODE="0660"' "group and mode"
	vflashctl up --frontend cxl --size 16M --cache-size 1M >/dev/null
	expect_eq "$(basename "$(readlink -f $SYS/subsystem)")" "$subsys" SUBSYSTEM
	grep -q '^DEVNAME=vflash0$' $SYS/uevent || fail "uevent has no DEVNAME=vflash0"
	node=vflash0
	# shellcheck disable=SC2254 # the rule's glob
	case $node in $kpat) ;; *) fail "KERNEL==\"$kpat\" does not match $node" ;; esac
	[ -c /dev/vflash0 ] || fail "no /dev/vflash0"
	vflashctl down
}

if debug_kernel; then
	# DKMS built vflash for Debian's kernel, not this one: modprobe gets
	# this kernel's build of vflash.ko instead, installed as DKMS would.
	report "SKIP dkms_module_modprobe (debug kernel: DKMS built vflash for Debian's kernel)"
	mkdir -p "/lib/modules/$KVER/updates"
	cp "$KO" "/lib/modules/$KVER/updates/"
	/sbin/depmod -a
	# What drives the module (load, selftest's I/O and faults, unload
	# while in use) runs here too; vflashctl's own argument handling is
	# the same shell on both kernels and runs under Debian's only (the
	# debug kernel is about ten times slower).
	run_test selftest_cxl timed test_selftest_cxl
	run_test up_down timed test_up_down
	run_test modprobe_conf timed test_modprobe_conf
	for t in selftest_errors up_errors stats policy config help trace_plot udev_rule_matches; do
		report "SKIP $t (debug kernel: vflashctl's shell logic, tested under Debian's kernel)"
	done
else
	run_test dkms_module_modprobe timed test_dkms_module_modprobe
	run_test selftest_cxl timed test_selftest_cxl
	run_test selftest_errors timed test_selftest_errors
	run_test up_down timed test_up_down
	run_test up_errors timed test_up_errors
	run_test stats timed test_stats
	run_test policy timed test_policy
	run_test config timed test_config
	run_test help timed test_help
	run_test trace_plot timed test_trace_plot
	run_test udev_rule_matches timed test_udev_rule_matches
	# last: it edits /etc/modprobe.d/vflash.conf, which the others leave alone
	run_test modprobe_conf timed test_modprobe_conf
fi
