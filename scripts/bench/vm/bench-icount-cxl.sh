# SPDX-License-Identifier: GPL-2.0
# `make bench-icount-cxl`: guest kernel instructions per zero-time CXL
# miss (frontend=cxl, profile=cylon with every latency knob at 0, a full
# cache: bench-cxl's miss-overhead run) and per devdax first-touch fault,
# one thread and two, counted by the icount.so QEMU plugin
# (scripts/bench/icount/) over all kernel text and modules. mmap_lat
# --mark executes the marker right before its threads start and after it
# has joined them; scripts/bench/icount/cxl-report.py attributes the
# counts (vmlinux from System.map, vflash.ko from its symbol table, other
# modules by name) and divides them by the faults. Not a test: outside
# scripts/vm/suites/.
# vmtest-mem: 6G
# vmtest-smp: 2
# vmtest-timeout: 1800
# vmtest-append: nokaslr memmap=1G!4G
# vmtest-prep: scripts/bench/icount/prep.sh
# vmtest-qemu: -plugin @DIR@/icount.so,lo=ffffffff80000000,hi=ffffffffff000000,out=@DIR@/icount.out
# vmtest-host: scripts/bench/icount/cxl-report.py

ICOUNT_ROUNDS=${ICOUNT_ROUNDS:-3}
CACHE_BYTES=$((32 << 20))
MISS_WS=$((4 * CACHE_BYTES))
SYS=/sys/class/vflash/vflash0
ZERO_KNOBS="slc_read_ns main_read_ns qlc_read_l_ns qlc_read_cl_ns
	qlc_read_cu_ns qlc_read_u_ns slc_prog_ns main_prog_ns slc_erase_ns
	main_erase_ns channel_xfer_ns host_xfer_ns fw_overhead_ns"

# vload_zero [CACHE]: as scripts/bench/cxl.sh's "vload cylon zero", with
# a cache of CACHE bytes (default CACHE_BYTES)
vload_zero() {
	local k

	load frontend=cxl profile=cylon size=512M cache_size=${1:-$CACHE_BYTES}
	wait_for /dev/vflash0
	echo none >$SYS/policy/prefetch || fail "policy/prefetch"
	echo 100000 >$SYS/config/wait_spin_ns || fail "wait_spin_ns"
	for k in $ZERO_KNOBS; do
		echo 0 >"$SYS/config/$k" || fail "config/$k"
	done
	echo 1 >$SYS/config/precondition || fail "precondition"
	sleep 2
	echo 0 >$SYS/stats/reset || fail "stats/reset"
}

# phase NAME FAULTS TARGET WS THREADS: one marked first-touch run; with
# one thread, on vCPU 0 (the report's FAULT_VCPU), so that what that vCPU
# runs is the faults' own path (vphase moves vflash's evictor off it)
phase() {
	local line cpus=0-1

	[ "$5" = 1 ] && cpus=0
	report "ICOUNT phase $1 $2"
	line=$(taskset -c $cpus mmap_lat --target "$3" --ws "$4" \
		--map-size "$4" --first-touch --threads "$5" --mark) ||
		fail "mmap_lat $1"
	report "ICOUNT line $1 $line"
}

# evictor_to CPU: pin vflash0's evictor thread to vCPU CPU
evictor_to() {
	local p

	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = vflash0-evict ] || continue
		taskset -pc "$1" "${p##*/}" >/dev/null || fail "taskset evictor"
		return
	done
	fail "no vflash0-evict thread"
}

# vphase NAME WS THREADS [CACHE]: phase on a freshly loaded zero-time
# vflash (a cache of CACHE bytes), its fault count vflash's own misses
vphase() {
	local s

	vload_zero "${4:-}"
	evictor_to 1
	for s in /sys/module/vflash/sections/.*; do
		[ -f "$s" ] || continue
		report "ICOUNT section ${s##*/} $(cat "$s")"
	done
	report "ICOUNT vflash $(awk '$1 == "vflash" { print $6 }' /proc/modules) $(cat /sys/module/vflash/coresize)"
	phase "$1" $(($2 / 4096)) /dev/vflash0 "$2" "$3"
	report "ICOUNT line $1 misses=$(cat $SYS/stats/misses) evictions=$(cat $SYS/stats/evictions)"
	unload
}

bench_icount_cxl() {
	local s _

	devdax >/dev/null
	report "ICOUNT kernel $(uname -r)"
	# vflash is loaded afresh per run: its sections are reported each
	# time; the other modules stay where they are.
	for _ in $(seq "$ICOUNT_ROUNDS"); do
		phase devdax-1t $((MISS_WS / 4096)) /dev/dax0.0 $MISS_WS 1
		phase devdax-2t $((MISS_WS / 4096)) /dev/dax0.0 $MISS_WS 2
		vphase vflash-zero-1t $MISS_WS 1
		vphase vflash-zero-2t $MISS_WS 2
		# As many faults as the other phases (the kernel's background
		# work, timer ticks and the like, spread over as many), in a
		# cache twice the working set: no eviction.
		vphase vflash-zero-noevict-1t $MISS_WS 1 $((2 * MISS_WS))
	done
	# Text symbols of the kernel and of the modules still loaded (the
	# addresses are the host's to map: nokaslr).
	grep -i ' t ' /proc/kallsyms >/tmp/kallsyms.txt
	save_file kallsyms.txt /tmp/kallsyms.txt
	report "ICOUNT done"
}

run_test bench-icount-cxl bench_icount_cxl
