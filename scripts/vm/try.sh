# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# make try's guest side (docs/try.md). The test VM's /init runs it (lib.sh
# sourced) when the kernel command line says vmtry=MODE; scripts/try.sh
# boots that VM and writes /vflash/try.conf (TRY_ARGS: the module's
# parameters; TRY_ROWS, TRY_COLS: the host terminal's size, if known).
#   vmtry=shell  load vflash with TRY_ARGS, say what to type, and give a
#                shell on the serial console; its end powers the VM off
#   vmtry=demo   the one-minute tour: each step a test (run_test) whose
#                PASS or FAIL goes to the second serial port with a
#                "SUMMARY STEP TEXT" line of what it showed, then the
#                kernel log as "DMESG" lines and DONE
# shellcheck source=/dev/null
. /vflash/try.conf

SYS=/sys/class/vflash/vflash0

# summary STEP TEXT: a line of the tour's summary, which the host prints
# at the end (the console has said it already, in the step's own lines)
summary() {
	echo "SUMMARY $*" >"$RESULTS"
}

# faults_dir: vflash0's fault rules (sysfs: it works under lockdown)
faults_dir() {
	echo $SYS/faults
}

# --- the tour ------------------------------------------------------------

# fio_json RW: 3 s of 4 KiB RW at queue depth 16 on $DEV; prints IOPS,
# then the completion latency's p50 and p99 in microseconds
fio_json() {
	fio --name="$1" --filename="$DEV" --ioengine=io_uring --direct=1 \
		--rw="$1" --bs=4k --iodepth=16 --size=64M --runtime=3 \
		--time_based --output-format=json >/tmp/fio.json ||
		{ cat /tmp/fio.json; fail "fio $1"; }
	jq -r --arg d "${1#rand}" '.jobs[0] | select(.error == 0) | .[$d] |
		"\(.iops | floor) \(.clat_ns.percentile["50.000000"] / 1000 | floor) \(.clat_ns.percentile["99.000000"] / 1000 | floor)"' \
		/tmp/fio.json
}

demo_fio() {
	local rw r

	load frontend=nvme size=256M profile=tlc
	DEV=$(wait_ns)
	echo "try: vflash's namespace is $DEV (the nvme list line whose model is vflash):"
	nvme list | grep vflash
	for rw in randread randwrite; do
		r=$(fio_json $rw)
		# shellcheck disable=SC2086 # three numbers
		set -- $r
		[ "${1:-0}" -gt 0 ] || fail "fio $rw did no I/O: '$r'"
		r="$rw 4 KiB, queue depth 16, 3 s on $DEV: $1 IOPS, completion latency p50 $2 us, p99 $3 us"
		echo "try: fio $r"
		summary fio "$r"
	done
}

# kv KEY LINE: KEY's value in mmap_lat's key=value LINE
kv() {
	echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

demo_mmap_lat() {
	local hit miss hp mp hm misses

	# 256 MiB of flash behind a 16 MiB device DRAM cache, every page
	# written once (else a never-written page reads without NAND time)
	load frontend=cxl size=256M cache_size=16M profile=tlc
	wait_for /dev/vflash0
	echo 1 >$SYS/config/precondition || fail "config/precondition"
	# Misses first: 3072 pages never touched, each once, without
	# prefetching (which would make most of them hits).
	echo none >$SYS/policy/prefetch || fail "policy/prefetch none"
	miss=$(mmap_lat --target /dev/vflash0 --ws 12M --first-touch \
		--accesses 3072) || fail "mmap_lat (misses)"
	echo "try: mmap_lat, first touch of 12 MiB: $miss"
	misses=$(cat $SYS/stats/misses)
	[ "$misses" -ge 3000 ] || fail "only $misses misses in 3072 first touches"
	# Hits: 8 MiB of those 12, resident; the counters are reset after
	# mmap_lat's warm-up pass, so misses counts the timed loop's.
	hit=$(mmap_lat --target /dev/vflash0 --ws 8M --mode rand \
		--accesses 20000 --reset $SYS/stats/reset) || fail "mmap_lat (hits)"
	echo "try: mmap_lat, 8 MiB of a 16 MiB cache: $hit"
	hm=$(cat $SYS/stats/misses)
	[ "$hm" -le 200 ] || fail "$hm misses in 20000 accesses to resident pages"
	hp=$(kv p50_ns "$hit") mp=$(kv p50_ns "$miss")
	[ "$mp" -gt $((10 * hp)) ] || fail "a miss (p50 $mp ns) is not 10x a hit (p50 $hp ns)"
	summary mmap_lat "CXL /dev/vflash0: hits p50 $hp ns, p99 $(kv p99_ns "$hit") ns (20000 loads, $hm misses); misses p50 $mp ns, p99 $(kv p99_ns "$miss") ns ($misses misses, prefetch off: each waits for a NAND read)"
}

demo_policy() {
	local before after pid under=no ev

	load frontend=cxl size=256M cache_size=16M profile=tlc
	wait_for /dev/vflash0
	echo fifo >$SYS/policy/eviction
	before=$(cat $SYS/policy/eviction)
	expect_match "$before" '\[fifo\]' "policy/eviction"
	echo "try: policy/eviction: $before"
	# 32 MiB through the 16 MiB cache: evicting all along; the switch
	# once the first evictions show
	mmap_lat --target /dev/vflash0 --ws 32M --mode rand --accesses 10000 \
		>/tmp/mmap_lat.out &
	pid=$!
	while [ "$(cat $SYS/stats/evictions)" -eq 0 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
	done
	! kill -0 $pid 2>/dev/null || under=yes
	echo lru >$SYS/policy/eviction || fail "switching to lru"
	wait $pid || fail "mmap_lat under the switch"
	after=$(cat $SYS/policy/eviction)
	expect_match "$after" '\[lru\]' "policy/eviction"
	echo "try: echo lru >policy/eviction: $after"
	ev=$(cat $SYS/stats/evictions)
	[ "$ev" -gt 0 ] || fail "no eviction"
	summary policy "eviction '$before' -> '$after' (switched while mmap_lat ran: $under; $ev evictions)"
}

# blk FILE LBA: write FILE's 4 KiB to block LBA (direct: acknowledged by
# the device, not flushed); blk_is LBA FILE: block LBA reads as FILE
blk() {
	dd if="$1" of="$DEV" bs=4096 seek="$2" count=1 oflag=direct \
		conv=notrunc 2>/dev/null || fail "writing block $2"
}
blk_is() {
	dd if="$DEV" of=/tmp/blk bs=4096 skip="$1" count=1 iflag=direct \
		2>/dev/null || fail "reading block $1"
	cmp -s /tmp/blk "$2"
}

demo_power_cut() {
	local f b line kept lost

	load frontend=nvme size=64M profile=tlc
	DEV=$(wait_ns)
	f=$(faults_dir)
	for b in old1 old2 new1 new2; do
		dd if=/dev/urandom of=/tmp/$b bs=4096 count=1 2>/dev/null
	done
	blk /tmp/old1 100
	blk /tmp/old2 200
	sync "$DEV"	# a Flush: the old data are durable
	# Armed with probability 0: no command cuts, the cut file does.
	echo 0 >"$f/power_cut/probability" || fail "power_cut/probability"
	echo 1 >"$f/power_cut/armed" || fail "power_cut/armed"
	echo "try: power_cut armed in $f (probability 0: only a write to cut cuts)"
	blk /tmp/new2 200
	sync "$DEV"	# flushed
	blk /tmp/new1 100	# acknowledged, never flushed
	blk_is 100 /tmp/new1 || fail "block 100 does not read what was written"
	echo "try: block 200 written and flushed, block 100 written after it, not flushed; cut"
	echo 1 >"$f/power_cut/cut" || fail "the cut"
	DEV=$(wait_ns)
	line=$(dmesg | grep -o 'power cut: [0-9]* of [0-9]* logged page writes taken back' | tail -n 1)
	[ -n "$line" ] || fail "no 'power cut: N of M ...' line in dmesg"
	echo "try: dmesg: $line"
	if blk_is 200 /tmp/new2; then kept="block 200 (flushed) kept its new data"
	else fail "the flushed write to block 200 was lost"
	fi
	if blk_is 100 /tmp/old1; then lost="block 100 (unflushed) is back to its old data"
	else fail "the unflushed write to block 100 was not taken back"
	fi
	echo "try: $kept; $lost"
	summary power_cut "$kept; $lost; dmesg: $line; the namespace came back as $DEV"
}

demo() {
	echo "try: the tour: fio on NVMe, mmap_lat on CXL, a policy switch, a power cut"
	echo "PLAN 4" >"$RESULTS"
	run_test fio demo_fio
	run_test mmap_lat demo_mmap_lat
	run_test policy demo_policy
	run_test power_cut demo_power_cut
	# The host checks the whole kernel log (the console shows only
	# errors: the boot is quiet).
	dmesg | sed 's/^/DMESG /' >"$RESULTS"
	report "DONE"
}

# --- the shell -------------------------------------------------------------

shell() {
	local fe dev=

	need_configfs
	echo "try: modprobe vflash $TRY_ARGS"
	# shellcheck disable=SC2086 # the parameters, one a word
	if modprobe vflash $TRY_ARGS; then
		wait_for $SYS/frontend
		fe=$(cat $SYS/frontend)
		case ,$fe, in *,nvme,*) dev=$(wait_ns) ;; esac
		case ,$fe, in *,cxl,*) wait_for /dev/vflash0 ;; esac
		vflashctl status
	else
		echo "try: the load failed; the kernel said:"
		dmesg | grep vflash | tail -n 1
	fi
	cat <<EOF

vflash in the test VM. Try:
  vflashctl status                  the device, its namespace, policies, counters
  ns=\$(vflashctl namespace)         the NVMe namespace by its model (never guess
                                    /dev/nvme0n1); here \$ns is set: ${dev:-none}
  fio --name=r --filename="\${ns:?no vflash namespace}" --direct=1 --rw=randread \\
      --ioengine=io_uring --bs=4k --iodepth=16 --runtime=5 --time_based
  nvme list                         every NVMe namespace; vflash's model is "vflash ..."
  ctrl=\$(vflashctl namespace --controller); nvme id-ctrl "\${ctrl:?no vflash controller}"
  mmap_lat --target /dev/vflash0 --ws 64M --accesses 20000    (frontend=cxl)
  cat $SYS/policy/eviction; echo lru >$SYS/policy/eviction
  vflashctl faults                  the fault rules (power_cut: docs/faults.md)
  dmesg | grep vflash               what the module said (the console shows errors only)
  vflashctl down; vflashctl up --frontend cxl --size 256M     load it again
Leave: poweroff (or exit, Ctrl-D); Ctrl-A X kills the VM.
EOF
	[ -z "${TRY_COLS:-}" ] || stty cols "$TRY_COLS" rows "${TRY_ROWS:-}" 2>/dev/null
	# The shell's poweroff, reboot and halt end the VM at once (busybox's
	# would signal /init, a script).
	cat >/tmp/try.profile <<'EOF'
poweroff() { sync; /bin/busybox poweroff -f; }
reboot() { poweroff; }
halt() { poweroff; }
PS1='vflash-try# '
EOF
	echo "vflash-try: shell ready"
	ns=$dev ENV=/tmp/try.profile setsid cttyhack sh
	echo "try: the shell ended; powering off"
}

case $(sed -n 's/.*vmtry=\([a-z]*\).*/\1/p' /proc/cmdline) in
demo) demo ;;
*) shell ;;
esac
