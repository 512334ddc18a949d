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
# vmtest-timeout: 360
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
	up | save | precondition | model | down | list | status | stats | policy | config | faults | crashcheck | namespace | selftest | run | trace | plot | help)
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

# save and up --restore (docs/images.md): the data and the counters come
# back, the device's frontend, size, profile and store from the image, on
# the module's device and on a configfs one; a device that runs again
# after a save; bad arguments and images refused.
test_save_restore() {
	local w s

	vflashctl up --frontend nvme --size 16M --profile tlc store=sparse >/dev/null
	dd if=/dev/urandom of=/tmp/pat bs=4096 count=300 2>/dev/null
	dd if=/tmp/pat of=/dev/nvme0n1 bs=4096 seek=100 oflag=direct 2>/dev/null ||
		fail "writing"
	w=$(cat $SYS/stats/host_write_pages)
	out=$(vflashctl save vflash0 /tmp/img)
	echo "$out"
	expect_match "$out" '^vflash0 saved to /tmp/img' "save's line"
	expect_eq "$(cat $SYS/state)" running "state after save"
	[ -b /dev/nvme0n1 ] || fail "no namespace after save"
	usage_error save vflash0
	usage_error save --frob /tmp/x
	vflashctl down
	usage_error up --restore /nonexistent
	usage_error up --restore /tmp/pat
	usage_error up --restore /tmp/img hold=1
	vflashctl up --restore /tmp/img >/dev/null
	expect_eq "$(cat $SYS/profile) $(cat $SYS/store) $(cat $SYS/size)" \
		"tlc sparse 16777216" "what the image said"
	expect_eq "$(cat $SYS/stats/host_write_pages)" "$w" "host_write_pages"
	dd if=/dev/nvme0n1 of=/tmp/got bs=4096 skip=100 count=300 iflag=direct \
		2>/dev/null
	cmp -s /tmp/pat /tmp/got || fail "data after up --restore"
	# The same image into a configfs device.
	vflashctl up --name img --restore /tmp/img >/dev/null
	s=$(vflashctl namespace vflash1)
	dd if="$s" of=/tmp/got bs=4096 skip=100 count=300 iflag=direct \
		2>/dev/null
	cmp -s /tmp/pat /tmp/got || fail "data in the configfs device"
	vflashctl down vflash1
	# Another size: the kernel's line, the device left held.
	rc=0
	out=$("$VCTL" up --name big --size 32M --restore /tmp/img 2>&1) || rc=$?
	echo "$out"
	expect_eq "$rc" 1 "exit status of a refused image"
	expect_match "$out" 'kernel: .*image: a device of 16777216 bytes' "the kernel's line"
	vflashctl down vflash1
	vflashctl down
	expect_gone
}

# precondition: a running NVMe device is held (its controller shut down),
# preconditioned and runs again, its namespace back with the data as
# written and its counters at zero; bad words are usage errors (exit 2), a
# line the kernel refuses fails with the kernel's line (exit 1) and the
# device runs again all the same.
test_precondition() {
	local out

	vflashctl up --frontend nvme --size 16M --profile tlc >/dev/null
	dd if=/dev/urandom of=/tmp/pat bs=4096 count=64 2>/dev/null
	dd if=/tmp/pat of=/dev/nvme0n1 bs=4096 seek=10 oflag=direct 2>/dev/null ||
		fail "writing"
	out=$(vflashctl precondition vflash0 random seed=2 pe=10)
	echo "$out"
	expect_match "$out" '^vflash0: workload=random fill=100 written=200 .* pe=10 .* seed=2 ' "the request"
	expect_match "$out" '^vflash0: replay=full tiles=0 host_pages=8192 ' "what it did"
	expect_eq "$(cat $SYS/state)" running "state after it"
	[ -b /dev/nvme0n1 ] || fail "no namespace after it"
	dd if=/dev/nvme0n1 of=/tmp/got bs=4096 skip=10 count=64 iflag=direct \
		2>/dev/null
	cmp -s /tmp/pat /tmp/got || fail "data after precondition"
	expect_eq "$(cat $SYS/stats/host_write_pages)" 0 "host_write_pages"
	usage_error precondition vflash0
	usage_error precondition vflash0 zipf
	usage_error precondition vflash0 random colour=red
	usage_error precondition --frob random
	fails precondition vflash0 random fill=0
	expect_eq "$(cat $SYS/state)" running "state after a refusal"
	[ -b /dev/nvme0n1 ] || fail "no namespace after a refusal"
	vflashctl down
	expect_gone
}

# vflashctl model (docs/design/model.md): a preset's figures through a
# configfs directory (removed after it, no device made); a device of that
# preset with its default knobs gives the same through sysfs, its idle
# read is the device's own model_read_latency_ns, and a slower knob moves
# the figures; bad input is refused.
test_model() {
	local out dev k mk
	out=$(vflashctl model tlc) || fail "vflashctl model tlc"
	echo "$out"
	for k in read_lat_ns write_lat_ns randread_qd1_iops randread_sat_iops \
		randwrite_qd1_iops randwrite_sat_iops seqread_mbps seqwrite_mbps \
		steady_write_iops steady_waf_milli sat_qd scratch_bytes; do
		echo "$out" | grep -Eq "^$k [1-9][0-9]*$" || fail "no $k in the model's figures"
	done
	[ ! -e /sys/module/vflash ] || fail "the module it loaded is still loaded"
	vflashctl up --frontend nvme --size 16M --profile tlc >/dev/null
	[ -z "$(ls /sys/kernel/config/vflash/)" ] || fail "a configfs directory left"
	expect_eq "$(echo "$out" | sed -n 's/^read_lat_ns //p')" \
		"$(cat $SYS/stats/model_read_latency_ns)" "the idle read against the device's"
	dev=$(vflashctl model vflash0) || fail "vflashctl model vflash0"
	expect_eq "$dev" "$out" "a tlc device's figures against the preset's"
	k=$(cat $SYS/config/main_read_ns)
	echo $((2 * k)) >$SYS/config/main_read_ns
	mk=$(sed -n 's/^read_lat_ns //p' $SYS/model)
	expect_eq "$mk" $(($(echo "$out" | sed -n 's/^read_lat_ns //p') + k)) \
		"the idle read with main_read_ns doubled"
	usage_error model
	usage_error model tlc colour=red
	usage_error model nosuch
	usage_error model vflash0 channels=2
	usage_error model --frob
	vflashctl down
	expect_gone
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
	# WAF as a ratio, the main region named main
	expect_match "$out" '^write_amplification [0-9]+\.[0-9]{3}$' "write amplification as a ratio"
	expect_match "$out" "^free_blocks_main $(cat $SYS/stats/free_blocks_qlc)\$" "free_blocks_main"
	! echo "$out" | grep -q '^free_blocks_qlc' || fail "stats says qlc"
	expect_match "$(vflashctl status)" 'write amplification [0-9]+\.[0-9]{3}, .*free blocks slc [0-9]+ main [0-9]+' "status: WAF, regions"
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
	# The next line's snapshot may predate the end of the reads (taken
	# during them, printed after: seen on a loaded host, 68 of 100); the
	# one after it is taken after that line was printed.
	done_iv=$(wc -l </tmp/watch.json)
	wait_lines "{\"device\":\"vflash0\",\"interval\":$((done_iv + 2))," /tmp/watch.json
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
	for c in up save precondition down list status stats policy config faults namespace selftest run trace plot help; do
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
	usage_error status vflash0 extra
	usage_error list extra
	usage_error status --frob
	# mmap_lat, installed beside vflashctl: --help says what each option
	# does, exit 0; a bad option points to it, exit 2
	ml=/usr/local/libexec/vflash/mmap_lat
	out=$($ml --help)
	expect_match "$out" '^usage: mmap_lat --target' "mmap_lat --help usage"
	expect_match "$out" '--first-touch +no warm-up' "mmap_lat --help explains --first-touch"
	expect_match "$out" '--help +this text' "mmap_lat --help lists --help"
	rc=0
	$ml --frob >/tmp/ml.out 2>&1 || rc=$?
	expect_eq "$rc" 2 "mmap_lat --frob exit status"
	expect_match "$(cat /tmp/ml.out)" 'mmap_lat --help says' "mmap_lat's pointer to --help"
}

# wait_gone PATH: PATH disappears within 10 s
wait_gone() {
	local n=0
	while [ -e "$1" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ ! -e "$1" ] || fail "$1 still there after 10 s"
}

# Several devices: the module's own vflash0 and two made by up --name
# (configfs). Every command acts on the device named and on no other:
# status, list, namespace, selftest (whose reads go to vflash1's own
# namespace: vflash0 and vflash2 count none), down of a configfs device;
# down of the module's device is refused while configfs devices exist;
# a path that is not a vflash namespace is refused.
test_multi_devices() {
	local out ns0 ns1 r0 r2 rc
	vflashctl up --size 32M >/dev/null
	out=$(vflashctl up --name fast --frontend nvme --size 16M --profile tlc)
	echo "$out" | head -n 5
	expect_match "$(echo "$out" | head -n 1)" '^vflash1: frontend nvme, 16\.0 MiB .*profile tlc' "up --name prints its status"
	expect_eq "$(cat /sys/kernel/config/vflash/fast/device)" vflash1 "configfs device"
	vflashctl up --name mem --frontend cxl --size 16M --cache-size 1M >/dev/null
	[ -c /dev/vflash2 ] || fail "no /dev/vflash2"
	# taken: exit 1; a refused attribute: exit 2, the kernel's line, nothing left
	fails up --name fast --frontend nvme
	usage_error up --name bad --frontend nvme lba_size=999
	expect_match "$("$VCTL" up --name bad --frontend nvme lba_size=999 2>&1)" "kernel: .*lba_size" "the kernel's line"
	[ ! -e /sys/kernel/config/vflash/bad ] || fail "a refused up --name left its directory"
	usage_error up --name bad nosuch=1
	[ ! -e /sys/kernel/config/vflash/bad ] || fail "a refused attribute left its directory"
	usage_error up --name a/b

	out=$(vflashctl list)
	echo "$out"
	expect_eq "$(echo "$out" | wc -l)" 3 "list: one line per device"
	expect_match "$out" '^vflash0 +nvme +32\.0MiB +qlc-hybrid +module +/dev/nvme[0-9]+n1$' "list vflash0"
	expect_match "$out" '^vflash1 +nvme +16\.0MiB +tlc +configfs:fast +/dev/nvme[0-9]+n1$' "list vflash1"
	expect_match "$out" '^vflash2 +cxl +16\.0MiB +qlc-hybrid +configfs:mem +/dev/vflash2$' "list vflash2"

	ns0=$(vflashctl namespace vflash0)
	ns1=$(vflashctl namespace vflash1)
	echo "namespaces: vflash0 $ns0, vflash1 $ns1"
	[ "$ns0" != "$ns1" ] || fail "vflash0 and vflash1 have one namespace $ns0"
	expect_eq "$(vflashctl namespace "$ns1")" vflash1 "namespace PATH: its device"
	# vflash1's controller is the one whose NQN names it
	c=$(grep -lx nqn.2026-11.io.vflash:vflash1 /sys/class/nvme/*/subsysnqn)
	c=$(basename "$(dirname "$c")")
	expect_match "$(vflashctl status vflash1)" "  nvme: controller $c, PCI 1[0-9a-f]{4}:00:00\.0, nqn\.2026-11\.io\.vflash:vflash1" "status: vflash1's controller"
	expect_match "$(vflashctl status vflash1)" "  node: $ns1\$" "status: vflash1's namespace"
	# --controller: that controller's character device, a vflash model;
	# the CXL device has none (exit 1)
	expect_eq "$(vflashctl namespace --controller vflash1)" "/dev/$c" "namespace --controller vflash1"
	expect_match "$(cat "/sys/class/nvme/$c/model")" '^vflash' "the controller's model"
	fails namespace --controller vflash2
	expect_eq "$(vflashctl status vflash1 | grep -c '^vflash')" 1 "status DEV: that device only"
	expect_eq "$(vflashctl status | grep -c '^vflash')" 3 "status: every device"
	expect_match "$(vflashctl status vflash1)" "made by: configfs /sys/kernel/config/vflash/fast" "made by configfs"
	expect_match "$(vflashctl status vflash0)" "made by: the module's parameters" "made by the module"

	# status --json: every device, its namespace, policies and stats
	vflashctl status --json >/tmp/st.json
	expect_eq "$(jq '.devices | length' /tmp/st.json)" 3 "json devices"
	expect_eq "$(jq -r '.devices[1].namespace' /tmp/st.json)" "$ns1" "json namespace"
	expect_eq "$(jq -r '.devices[1].configfs' /tmp/st.json)" /sys/kernel/config/vflash/fast "json configfs"
	expect_eq "$(jq -r '.devices[0].made_by' /tmp/st.json)" module "json made_by"
	expect_eq "$(jq -r '.devices[0].store' /tmp/st.json)" full "json store, the default"
	expect_eq "$(jq -r '.devices[2].store' /tmp/st.json)" full "json store of a configfs device"
	expect_match "$(vflashctl status vflash0 | head -n 1)" ', store full$' "status: the store"
	expect_eq "$(jq -r '.devices[2].char_device' /tmp/st.json)" /dev/vflash2 "json char device"
	expect_eq "$(jq -r '.devices[2].controller' /tmp/st.json)" null "json: cxl has no controller"
	expect_eq "$(jq -r '.devices[1].controller' /tmp/st.json)" "$c" "json controller"
	expect_eq "$(jq -r '.devices[0].policy.gc' /tmp/st.json)" "$(sed -n 's/.*\[\(.*\)\].*/\1/p' $SYS/policy/gc)" "json policy"
	expect_eq "$(jq -r '.devices[1].stats.write_amplification | type' /tmp/st.json)" number "json WAF a number"
	expect_eq "$(jq '.devices[0].stats | has("free_blocks_main")' /tmp/st.json)" true "json free_blocks_main"
	expect_eq "$(jq '[.devices[] | .stats | has("free_blocks_qlc")] | any' /tmp/st.json)" false "json: no free_blocks_qlc"
	expect_eq "$(vflashctl status vflash2 --json | jq -r '.devices[0].device')" vflash2 "status DEV --json"

	# selftest vflash1 reads vflash1's namespace and no other device's
	r0=$(cat $SYS/stats/host_read_pages)
	r2=$(cat /sys/class/vflash/vflash2/stats/host_read_pages)
	rc=0
	out=$(vflashctl selftest vflash1 --tolerance 1000000 --reads 100) || rc=$?
	echo "$out" | head -n 3
	expect_eq "$rc" 0 "selftest vflash1 exit status"
	expect_match "$out" "^  namespace $ns1;" "selftest vflash1's namespace"
	expect_match "$out" 'ok +every read reached the device' "vflash1 counted the reads"
	expect_eq "$(cat $SYS/stats/host_read_pages)" "$r0" "vflash0's reads during vflash1's selftest"
	expect_eq "$(cat /sys/class/vflash/vflash2/stats/host_read_pages)" "$r2" "vflash2's reads"
	# the same through its namespace's path
	out=$(vflashctl selftest "$ns1" --tolerance 1000000 --reads 50)
	expect_match "$out" '^selftest vflash1:' "selftest by namespace path"

	# not a vflash namespace: refused, exit 1, nothing written
	modprobe null_blk nr_devices=1 2>/dev/null || true
	nb=/dev/nullb0
	[ -b $nb ] || nb=/dev/zero
	fails selftest $nb
	expect_match "$("$VCTL" selftest $nb 2>&1)" "$nb is not a vflash namespace .*refusing" "refusal message"
	fails namespace $nb
	fails status $nb
	[ ! -b /dev/nullb0 ] || rmmod null_blk

	# down of the module's device: refused while configfs devices exist
	fails down vflash0
	expect_match "$("$VCTL" down vflash0 2>&1)" "module's own device.*vflash1 \(fast\).*vflash2 \(mem\)" "down vflash0 names the others"
	[ -d /sys/class/vflash/vflash1 ] && [ -d $SYS ] || fail "a refused down took a device"
	usage_error down
	# down vflash1: it alone
	out=$(vflashctl down vflash1)
	expect_match "$out" 'vflash1 \(configfs fast\) is down' "down vflash1 says so"
	[ ! -e /sys/class/vflash/vflash1 ] || fail "vflash1 still there"
	[ ! -e /sys/kernel/config/vflash/fast ] || fail "its configfs directory still there"
	[ -d $SYS ] && [ -c /dev/vflash2 ] || fail "down vflash1 took another device"
	wait_gone "$ns1"
	[ -b "$ns0" ] || fail "vflash0's namespace went"
	expect_eq "$(vflashctl list | wc -l)" 2 "two devices left"
	# down of the CXL device while it is open: refused, kept
	exec 3</dev/vflash2
	fails down vflash2
	[ -c /dev/vflash2 ] || fail "vflash2 went while open"
	exec 3<&-
	# an unpowered configfs directory is listed, and down --all removes it
	mkdir /sys/kernel/config/vflash/idle
	expect_match "$(vflashctl list)" '^- +.*configfs:idle +\(not powered\)$' "list: an unpowered directory"
	vflashctl down --all
	expect_gone
	[ ! -e /sys/kernel/config/vflash ] || fail "configfs tree left"
}

# crashcheck DEV: the installed checker on the device named and on no
# other: a second device's namespace keeps every byte; a CXL device, a
# --device option and an unknown device are refused.
test_crashcheck() {
	local out rc ns0 ns1
	vflashctl up --size 16M >/dev/null
	vflashctl up --name cc --frontend nvme --size 16M --profile tlc >/dev/null
	ns0=$(vflashctl namespace vflash0)
	ns1=$(vflashctl namespace vflash1)
	dd if=/dev/urandom of=/tmp/pat bs=1M count=16 2>/dev/null
	dd if=/tmp/pat of="$ns0" bs=1M oflag=direct 2>/dev/null || fail "writing $ns0"
	rc=0
	out=$(vflashctl crashcheck vflash1 --cuts 3 --ops 8 --threads 8 2>&1) || rc=$?
	echo "$out" | grep -v '^round' | tail -n 6
	expect_eq "$rc" 0 "vflashctl crashcheck's exit status"
	expect_match "$out" "^vflashctl: crashcheck on vflash1 \\(/dev/nvme[0-9]+n1\\): every LBA there is overwritten" "the warning line"
	expect_match "$(echo "$out" | tail -n 1)" '^crashcheck: cuts 3, LBAs checked [1-9][0-9]*, violations 0$' "the last line"
	expect_match "$out" "crashcheck: taken back [1-9]" "something taken back"
	[ "$(cat /sys/class/vflash/vflash0/stats/fault_power_cuts)" = 0 ] || fail "vflash0 lost power"
	cmp /tmp/pat "$(vflashctl namespace vflash0)" || fail "vflash0's namespace changed"
	expect_eq "$(cat /sys/class/vflash/vflash1/faults/power_cut/armed)" 0 "power_cut left armed"
	usage_error crashcheck vflash1 --device vflash0
	usage_error crashcheck vflash7
	vflashctl up --name mem --frontend cxl --size 16M >/dev/null
	fails crashcheck vflash2
	expect_match "$("$VCTL" crashcheck vflash2 2>&1)" "not an NVMe device" "a CXL device's message"
	vflashctl down --all
}

# faults: list the rules, arm one with its files, refuse bad values
# leaving the rule as it was, disarm; the armed rule acts.
test_faults() {
	local F=/sys/class/vflash/vflash0/faults out rc
	vflashctl up --size 16M >/dev/null
	dd if=/dev/urandom of=/dev/nvme0n1 bs=4k count=16 oflag=direct 2>/dev/null
	out=$(vflashctl faults)
	echo "$out"
	expect_match "$out" '^read_error +disarmed range=all probability=1000000 after=0 times=0 matched=0 injected=0$' "read_error listed"
	expect_match "$out" '^delay +disarmed .*delay_ns=0' "delay lists delay_ns"
	expect_match "$out" '^plp 0$' "plp"
	expect_eq "$(echo "$out" | grep -c 'disarmed')" "$(find $F -mindepth 1 -maxdepth 1 -type d | wc -l)" "one line per rule"
	out=$(vflashctl faults vflash0 arm read_error range=10-10 times=1)
	echo "$out"
	expect_match "$out" '^read_error +armed range=10-10 probability=1000000 after=0 times=1' "armed line"
	expect_eq "$(cat $F/read_error/armed)" 1 armed
	expect_eq "$(cat $F/read_error/range)" 10-10 range
	dd if=/dev/nvme0n1 of=/dev/null bs=4k skip=10 count=1 iflag=direct 2>/dev/null &&
		fail "the read of block 10 passed the rule"
	expect_eq "$(cat $F/read_error/injected)" 1 injected
	# times=1: it disarmed itself; arm again with defaults for the rest
	vflashctl faults arm read_error >/dev/null
	expect_eq "$(cat $F/read_error/range)" all "arm resets range"
	expect_eq "$(cat $F/read_error/times)" 0 "arm resets times"
	# a refused value: exit 2, the kernel's line, the rule disarmed as it was
	vflashctl faults arm write_fault range=3-7 >/dev/null
	vflashctl faults disarm write_fault >/dev/null
	dmesg -c >/dev/null
	rc=0
	out=$("$VCTL" faults arm write_fault range=5-2 2>&1) || rc=$?
	echo "$out"
	expect_eq "$rc" 2 "exit status of a refused range"
	expect_match "$out" 'kernel: .*write_fault/range=5-2' "the kernel's line"
	expect_eq "$(cat $F/write_fault/armed)" 0 "refused: disarmed"
	expect_eq "$(cat $F/write_fault/range)" 3-7 "refused: range as it was"
	usage_error faults arm nosuch
	expect_match "$("$VCTL" faults arm nosuch 2>&1)" "faults: .*read_error" "the valid faults"
	usage_error faults arm read_error bogus=1
	usage_error faults arm read_error range
	usage_error faults arm read_error delay_ns=5
	usage_error faults disarm
	usage_error faults frob
	usage_error faults vflash7
	out=$(vflashctl faults disarm all)
	expect_eq "$(echo "$out" | grep -c ' armed')" 0 "disarm all"
	expect_eq "$(cat $F/read_error/armed)" 0 "read_error disarmed"
	# cut: refused unless power_cut is armed (logging); then it cuts and
	# says what it took back
	rc=0
	"$VCTL" faults cut >/dev/null 2>&1 || rc=$?
	expect_eq "$rc" 1 "cut without power_cut armed"
	vflashctl faults arm power_cut probability=0 >/dev/null
	dd if=/dev/urandom of=/dev/nvme0n1 bs=4k seek=3 count=1 oflag=direct \
		conv=notrunc 2>/dev/null || fail "a write before the cut"
	out=$(vflashctl faults cut)
	echo "$out"
	expect_match "$out" '^vflash0: power cut: [1-9][0-9]* logged page writes taken back$' "cut's line"
	wait_ns >/dev/null
	vflashctl down
}

test_trace_plot() {
	vflashctl up --size 64M --profile tlc >/dev/null
	# the command's exit status is trace's
	rc=0
	"$VCTL" trace -b 256 -o /tmp/t.trace sh -c \
		'dd if=/dev/nvme0n1 of=/dev/null bs=4k count=20 iflag=direct; exit 3' 2>/tmp/t.err || rc=$?
	cat /tmp/t.err
	expect_eq "$rc" 3 "trace's exit status"
	expect_eq "$(grep -c 'vflash_request_complete:' /tmp/t.trace)" 20 "traced completions"
	# the doorbell-to-fetch time of the 20 reads
	expect_match "$(cat /tmp/t.err)" '^vflashctl trace: vflash0 nvme: 20 commands; doorbell to fetch p50 [0-9]+ p99 [0-9]+ max [0-9]+ ns' "doorbell to fetch"
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
	for t in selftest_errors up_errors save_restore model stats policy config help trace_plot udev_rule_matches multi_devices faults crashcheck; do
		report "SKIP $t (debug kernel: vflashctl's shell logic, tested under Debian's kernel)"
	done
else
	run_test dkms_module_modprobe timed test_dkms_module_modprobe
	run_test selftest_cxl timed test_selftest_cxl
	run_test selftest_errors timed test_selftest_errors
	run_test up_down timed test_up_down
	run_test up_errors timed test_up_errors
	run_test save_restore timed test_save_restore
	run_test precondition timed test_precondition
	run_test model timed test_model
	run_test stats timed test_stats
	run_test policy timed test_policy
	run_test config timed test_config
	run_test help timed test_help
	run_test trace_plot timed test_trace_plot
	run_test udev_rule_matches timed test_udev_rule_matches
	run_test multi_devices timed test_multi_devices
	run_test faults timed test_faults
	run_test crashcheck timed test_crashcheck
	# last: it edits /etc/modprobe.d/vflash.conf, which the others leave alone
	run_test modprobe_conf timed test_modprobe_conf
fi
