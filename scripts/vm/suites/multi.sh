# SPDX-License-Identifier: GPL-2.0
# Several devices at run time through /sys/kernel/config/vflash: four at
# once (two NVMe of different profiles, one CXL, one nvme,cxl) under fio
# verify and mmap verify together; destroyed in another order than made,
# the others keep working; create/destroy cycles and index reuse; each
# device's stats are its own; every bad configfs write is refused with
# one dmesg line naming the attribute and changes nothing; a mapped CXL
# device cannot be powered off or removed; the module stays while
# configfs devices exist and unloads clean once they are gone.
# vmtest-mem: 4G
# vmtest-timeout: 600

EINVAL='Invalid argument'
EBUSY='(Device or resource busy|Resource busy)'

# Sizes: smaller under the debug kernel, which is several times slower.
# fio runs in the second half of a device and mmap checks in the first,
# so that the two sides of an nvme,cxl device never touch the same pages
# (the dual device's own suite tests that).
NV_SIZE=64M
FIO_OFF=32M
if light_run; then
	FIO_SIZE=512K
	CX_BYTES=$((256 << 10))
else
	FIO_SIZE=2M
	CX_BYTES=$((1 << 20))
fi

# mkdev NAME ATTR=VALUE...: make a configfs device, set its attributes,
# power it on; DEVNAME is its vflashN
mkdev() {
	local name=$1 kv
	shift
	mkdir $CFS/"$name" || fail "mkdir $name"
	for kv in "$@"; do
		echo "${kv#*=}" >$CFS/"$name"/"${kv%%=*}" ||
			fail "$name: ${kv%%=*}=${kv#*=}"
	done
	echo 1 >$CFS/"$name"/power || fail "power on $name"
	DEVNAME=$(cat $CFS/"$name"/device)
	expect_match "$DEVNAME" '^vflash[0-9]+$' "device of $name"
	[ -d /sys/class/vflash/"$DEVNAME" ] || fail "no /sys/class/vflash/$DEVNAME"
}

# rmdev NAME: remove a configfs device (powering it off)
rmdev() {
	rmdir $CFS/"$1" || fail "rmdir $1"
}

# nvme_ns VFLASHN: the block device of VFLASHN's NVMe controller (its
# subsystem NQN names the vflash device), waiting up to 10 s for it
nvme_ns() {
	local n=0 c ns

	while [ $n -lt 100 ]; do
		for c in /sys/class/nvme/nvme*; do
			[ "$(cat "$c"/subsysnqn 2>/dev/null)" = \
				"nqn.2026-11.io.vflash:$1" ] || continue
			for ns in "$c"/nvme*n*; do
				if [ -e "$ns" ] && [ -b /dev/"${ns##*/}" ]; then
					echo /dev/"${ns##*/}"
					return 0
				fi
			done
		done
		sleep 0.1
		n=$((n + 1))
	done
	fail "no namespace for $1"
}

# fio_verify BLOCKDEV SIZE TAG: random writes then a crc32c verify, in
# the second half of the device
fio_verify() {
	fio --name="$3" --filename="$1" --ioengine=psync --direct=1 \
		--offset=$FIO_OFF \
		--rw=randwrite --bs=4k --size="$2" --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio-"$3".out 2>&1 ||
		{ cat /tmp/fio-"$3".out; return 1; }
}

# cxl_verify DEV BYTES SEED: fill through a mapping, check it
cxl_verify() {
	cxl_check fill "$1" "$2" "$3" && cxl_check verify "$1" "$2" "$3"
}

stat_of() { cat /sys/class/vflash/"$1"/stats/"$2"; }

test_no_device() {
	load
	[ ! -e /sys/class/vflash/vflash0 ] || fail "a device without parameters"
	[ -d $CFS ] || fail "no $CFS"
	unload
	expect_gone
}

# The four devices of the issue; A_DEV.. their vflashN, A_NS.. block devs.
make_four() {
	mkdev a frontend=nvme size=$NV_SIZE profile=tlc workers=2
	A=$DEVNAME
	mkdev b frontend=nvme size=$NV_SIZE profile=znand lba_size=512
	B=$DEVNAME
	mkdev c frontend=cxl size=$NV_SIZE profile=cylon cache_size=1M
	C=$DEVNAME
	mkdev d frontend=nvme,cxl size=$NV_SIZE profile=qlc-hybrid
	D=$DEVNAME
	A_NS=$(nvme_ns "$A")
	B_NS=$(nvme_ns "$B")
	D_NS=$(nvme_ns "$D")
	[ -c /dev/"$C" ] || fail "/dev/$C is not a character device"
	[ -c /dev/"$D" ] || fail "/dev/$D is not a character device"
}

# all_io: fio verify on every NVMe namespace and mmap verify on every CXL
# node given, all at the same time
all_io() {
	local pids="" p rc=0 dev seed=1

	for dev in "$@"; do
		case $dev in
		/dev/nvme*) fio_verify "$dev" $FIO_SIZE "${dev##*/}" & ;;
		*) cxl_verify "$dev" $CX_BYTES $seed & ;;
		esac
		pids="$pids $!"
		seed=$((seed + 1))
	done
	for p in $pids; do
		wait "$p" || rc=1
	done
	[ $rc -eq 0 ] || fail "I/O on one of: $*"
}

test_four_at_once() {
	load
	make_four
	expect_eq "$(cat /sys/class/vflash/"$A"/profile)" tlc "profile of a"
	expect_eq "$(cat /sys/class/vflash/"$B"/profile)" znand "profile of b"
	expect_eq "$(cat /sys/class/vflash/"$D"/frontend)" nvme,cxl "frontend of d"
	expect_eq "$(cat /sys/block/"${B_NS##*/}"/queue/logical_block_size)" 512 \
		"LBA size of b"
	expect_eq "$(cat /sys/block/"${A_NS##*/}"/queue/logical_block_size)" 4096 \
		"LBA size of a"
	expect_eq "$(ls /sys/class/vflash | wc -l)" 4 "devices in /sys/class/vflash"
	expect_eq "$(ls -d /sys/kernel/debug/vflash/vflash* | wc -l)" 4 \
		"debugfs directories"
	all_io "$A_NS" "$B_NS" /dev/"$C" "$D_NS" /dev/"$D"

	# Destroyed in another order than made; the rest keep working.
	rmdev b
	[ ! -e /sys/class/vflash/"$B" ] || fail "$B still there"
	[ ! -e "$B_NS" ] || fail "$B_NS still there"
	all_io "$A_NS" /dev/"$C" "$D_NS" /dev/"$D"
	rmdev d
	[ ! -e /dev/"$D" ] || fail "/dev/$D still there"
	all_io "$A_NS" /dev/"$C"
	rmdev a
	all_io /dev/"$C"
	rmdev c
	expect_eq "$(ls /sys/class/vflash | wc -l)" 0 "devices left"
	unload
	expect_gone
}

test_stats_own() {
	local w_a w_b r_c ns_a before p
	load
	mkdev a frontend=nvme size=$NV_SIZE
	A=$DEVNAME
	mkdev c frontend=cxl size=$NV_SIZE cache_size=1M
	C=$DEVNAME
	ns_a=$(nvme_ns "$A")
	w_a=$(stat_of "$A" host_write_pages)
	w_b=$(stat_of "$C" host_write_pages)
	r_c=$(stat_of "$C" misses)
	dd if=/dev/urandom of="$ns_a" bs=4096 count=256 oflag=direct 2>/dev/null ||
		fail "dd to $ns_a"
	[ "$(stat_of "$A" host_write_pages)" -ge $((w_a + 256)) ] ||
		fail "$A counted $(stat_of "$A" host_write_pages) writes, want >= $((w_a + 256))"
	expect_eq "$(stat_of "$C" host_write_pages)" "$w_b" "writes of $C after writes to $A"
	expect_eq "$(stat_of "$C" misses)" "$r_c" "misses of $C after writes to $A"
	cxl_check fill /dev/"$C" $((64 << 10)) 3
	expect_eq "$(stat_of "$C" misses)" $((r_c + 16)) "misses of $C after 16 pages"
	w_a=$(stat_of "$A" host_write_pages)
	cxl_check verify /dev/"$C" $((64 << 10)) 3
	expect_eq "$(stat_of "$A" host_write_pages)" "$w_a" "writes of $A after CXL use of $C"
	# Each has its own policies: switching one leaves the other.
	before=$(cat /sys/class/vflash/"$A"/policy/eviction)
	for p in fifo lru; do
		echo $p >/sys/class/vflash/"$C"/policy/eviction
		grep -q "\[$p\]" /sys/class/vflash/"$C"/policy/eviction ||
			fail "switch to $p on $C"
		expect_eq "$(cat /sys/class/vflash/"$A"/policy/eviction)" \
			"$before" "$A's eviction policy after switching $C's"
	done
	rmdev a
	rmdev c
	unload
}

test_cycles() {
	local i n
	n=2
	load frontend=none size=16M
	# The module's device is vflash0; configfs ones come after.
	mkdev x frontend=nvme size=32M
	expect_eq "$DEVNAME" vflash1 "first configfs device"
	mkdev y frontend=cxl size=32M
	expect_eq "$DEVNAME" vflash2 "second configfs device"
	rmdev x
	mkdev z frontend=none size=16M
	expect_eq "$DEVNAME" vflash1 "a freed index taken again"
	rmdev y
	rmdev z
	for i in $(seq $n); do
		mkdev p frontend=nvme,cxl size=$NV_SIZE
		cxl_verify /dev/"$DEVNAME" $(($(light 256 128) << 10)) "$i" ||
			fail "cycle $i"
		fio_verify "$(nvme_ns "$DEVNAME")" "$(light 1M 512K)" "cycle$i" ||
			fail "fio cycle $i"
		echo 0 >$CFS/p/power || fail "power off, cycle $i"
		[ ! -e /sys/class/vflash/"$DEVNAME" ] || fail "$DEVNAME left on"
		expect_eq "$(cat $CFS/p/power)" 0 "power after power off"
		expect_eq "$(cat $CFS/p/device)" "" "device after power off"
		echo 1 >$CFS/p/power || fail "power on again, cycle $i"
		expect_eq "$(cat $CFS/p/device)" vflash1 "device after power on"
		echo 1 >$CFS/p/power || fail "power=1 twice"
		rmdev p
	done
	[ -d /sys/class/vflash/vflash0 ] || fail "the module's device went away"
	unload
	expect_gone
}

# refused NAME ATTR VALUE WHY ERRNO_TEXT: the write is refused and ATTR
# keeps its value. The values are read by the shell, not cat: under the
# debug kernel every process costs a tenth of a second or more, and
# bad_input and geometry refuse fifty writes.
refused() {
	local before='' after=''
	[ -f $CFS/"$1"/"$2" ] || fail "no $CFS/$1/$2"
	IFS= read -r before <$CFS/"$1"/"$2" || :
	expect_write_refused $CFS/"$1"/"$2" "$3" "$4" "$5"
	IFS= read -r after <$CFS/"$1"/"$2" || :
	expect_eq "$after" "$before" "$1/$2 after a refused write"
}

# Values each attribute's own check refuses at the write.
test_bad_values() {
	load
	mkdir $CFS/bad
	refused bad frontend bogus "frontend=bogus: unknown frontend" "$EINVAL"
	refused bad frontend nvme,nvme "frontend=nvme,nvme: " "$EINVAL"
	refused bad size 0 "size=0: must not be zero" "$EINVAL"
	refused bad size 12Q "size=12Q: " "$EINVAL"
	refused bad size 4K "size=4K: must be at least" "$EINVAL"
	refused bad size 16777217 "size=16777217: " "$EINVAL"
	refused bad profile bogus "profile=bogus: unknown profile" "$EINVAL"
	refused bad store bogus "store=bogus: unknown store" "$EINVAL"
	refused bad store Sparse "store=Sparse: unknown store" "$EINVAL"
	refused bad cache_size 0 "cache_size=0: not a non-zero multiple of 4K" "$EINVAL"
	refused bad cache_size 4097 "cache_size=4097: " "$EINVAL"
	refused bad lba_size 1000 "lba_size=1000: must be 512 or 4096" "$EINVAL"
	refused bad lba_size x "lba_size=x: not an unsigned number" "$EINVAL"
	refused bad workers 9 "workers=9: must be 0 to 8" "$EINVAL"
	refused bad workers -1 "workers=-1: " "$EINVAL"
	refused bad poll_idle_us 2000000 "poll_idle_us=2000000: must be at most" "$EINVAL"
	refused bad spin_us 1000001 "spin_us=1000001: must be at most" "$EINVAL"
	refused bad cpus x "cpus=x: not a CPU list" "$EINVAL"
	refused bad cpus 0-99 "cpus=0-99: " "$EINVAL"
	refused bad size "$(printf '1%.0s' $(seq 80))" "size: not a string of at most" "$EINVAL"
	refused bad power 2 "power=2: must be 0 or 1" "$EINVAL"
	refused bad power on "power=on: must be 0 or 1" "$EINVAL"
	refused bad power -1 "power=-1: must be 0 or 1" "$EINVAL"
	rmdev bad
	unload
	expect_gone
}

# Power on refused by the whole configuration, empty writes, a powered
# device's attributes read-only, a mapped one kept.
test_bad_input() {
	local a
	load
	mkdir $CFS/bad
	refused bad power 2 "power=2: must be 0 or 1" "$EINVAL"
	# Powering on without a frontend, or with values that only the
	# whole configuration rules out, fails and creates nothing.
	refused bad power 1 "frontend: missing" "$EINVAL"
	echo cxl >$CFS/bad/frontend
	echo 16M >$CFS/bad/size
	echo 32M >$CFS/bad/cache_size
	refused bad power 1 "cache_size=32M: must be " "$EINVAL"
	[ -z "$(ls /sys/class/vflash)" ] || fail "a refused power on left a device"
	expect_eq "$(cat $CFS/bad/device)" "" "device of a refused power on"
	# An empty write restores the default.
	echo >$CFS/bad/cache_size
	expect_eq "$(cat $CFS/bad/cache_size)" "" "cache_size after an empty write"
	echo >$CFS/bad/size
	expect_eq "$(cat $CFS/bad/size)" 1G "size after an empty write"
	echo 16M >$CFS/bad/size
	echo 1 >$CFS/bad/power || fail "power on after the refusals"
	expect_eq "$(cat $CFS/bad/device)" vflash0 device
	expect_eq "$(cat /sys/class/vflash/vflash0/size)" $((16 << 20)) size
	# Powered: every attribute is read-only.
	for a in frontend size profile store cache_size lba_size workers \
		poll_idle_us spin_us cpus; do
		refused bad $a 4096 "$a: bad is powered" "$EBUSY"
	done
	# power=0 of a mapped CXL device is refused, as is rmdir.
	rm -f /tmp/ctl /tmp/ready
	mkfifo /tmp/ctl
	cxl_check hold /dev/vflash0 </tmp/ctl >/tmp/ready &
	exec 3>/tmp/ctl
	a=0
	while ! grep -q ready /tmp/ready && [ $a -lt 100 ]; do
		sleep 0.1
		a=$((a + 1))
	done
	grep -q ready /tmp/ready || fail "cxl_check hold did not map"
	refused bad power 0 "power=0: bad is in use" "$EBUSY"
	if rmdir $CFS/bad 2>/dev/null; then
		fail "rmdir of a mapped device"
	fi
	[ -d /sys/class/vflash/vflash0 ] || fail "the mapped device went away"
	exec 3>&-
	wait
	echo 0 >$CFS/bad/power || fail "power off once unmapped"
	rmdev bad
	unload
	expect_gone
}

# Geometry attributes: bad values refused at the write, a geometry the
# profile rules out refused at power=1, good ones in geometry/ and under I/O.
test_geometry() {
	local g dev
	load
	mkdir $CFS/g
	refused g channels 0 "channels=0: must be from 1 to 64" "$EINVAL"
	refused g dies_per_channel 65 "dies_per_channel=65: must be from 1 to 64" "$EINVAL"
	refused g page_size 6K "page_size=6K: must be a power of two" "$EINVAL"
	refused g pages_per_block 1 "pages_per_block=1: must be from 4 to 4096" "$EINVAL"
	refused g op_percent 0 "op_percent=0: must be from 1 to 100" "$EINVAL"
	expect_eq "$(cat $CFS/g/channels)" "" "channels before any write"
	echo nvme >$CFS/g/frontend
	echo $NV_SIZE >$CFS/g/size
	echo 8 >$CFS/g/channels || fail "channels=8"
	echo 4 >$CFS/g/dies_per_channel || fail "dies_per_channel=4"
	echo 8K >$CFS/g/page_size || fail "page_size=8K"
	echo 130 >$CFS/g/pages_per_block || fail "pages_per_block=130"
	echo 15 >$CFS/g/op_percent || fail "op_percent=15"
	# The default profile is QLC: 130 pages are not whole wordlines.
	refused g power 1 "pages_per_block=130: must be a multiple of 4" "$EINVAL"
	[ -z "$(ls /sys/class/vflash)" ] || fail "a refused power on left a device"
	echo optane >$CFS/g/profile
	echo 1 >$CFS/g/power || fail "power on with the geometry"
	g=/sys/class/vflash/$(cat $CFS/g/device)/geometry
	expect_eq "$(cat $g/channels)" 8 channels
	expect_eq "$(cat $g/dies_per_channel)" 4 dies_per_channel
	expect_eq "$(cat $g/page_size)" 8192 page_size
	expect_eq "$(cat $g/pages_per_block)" 130 pages_per_block
	expect_eq "$(cat $g/op_percent)" 15 op_percent
	for a in channels dies_per_channel page_size pages_per_block op_percent; do
		refused g $a 4 "$a: g is powered" "$EBUSY"
	done
	dev=$(nvme_ns "$(cat $CFS/g/device)")
	fio_verify "$dev" $FIO_SIZE geometry || fail "fio verify on $dev"
	rmdev g
	# An empty write restores the profile's.
	mkdir $CFS/h
	echo 4 >$CFS/h/channels
	echo >$CFS/h/channels
	expect_eq "$(cat $CFS/h/channels)" "" "channels after an empty write"
	rmdev h
	unload
	expect_gone
}

test_unload_powered() {
	load frontend=nvme size=$NV_SIZE
	mkdev a frontend=nvme size=$NV_SIZE profile=tlc
	A=$DEVNAME
	mkdev c frontend=cxl size=$NV_SIZE cache_size=1M
	C=$DEVNAME
	mkdir $CFS/off
	# configfs directories hold the module, powered or not.
	if rmmod vflash 2>/tmp/err; then
		fail "rmmod with configfs devices"
	fi
	cat /tmp/err
	all_io "$(nvme_ns vflash0)" "$(nvme_ns "$A")" /dev/"$C"
	remove_configfs_devices
	[ -z "$(ls $CFS)" ] || fail "directories left: $(ls $CFS)"
	unload
	expect_gone
	! grep -q vflash /proc/devices || fail "/proc/devices still names vflash"
}

run_test no_device test_no_device
run_test_full_debug four_at_once "stats_own (an NVMe and a CXL device at once through configfs), and unload_powered" test_four_at_once
run_test stats_own test_stats_own
run_test_full_debug cycles "stats_own, and core's cycles_release_memory" test_cycles
run_test_full_debug bad_values "bad_input (a refusal at a configfs write: power=2, and every attribute of a powered device)" test_bad_values
run_test bad_input test_bad_input
run_test_full_debug geometry "core's geometry_overrides" test_geometry
run_test unload_powered test_unload_powered
