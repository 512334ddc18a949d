# SPDX-License-Identifier: GPL-2.0
# frontend=nvme, command by command: the statuses and data of admin
# commands (Identify, Get Log Page, features, queue creation), commands
# without a buffer or with one shorter than they say, the generic char
# device /dev/ng0n1 with nvme-cli and fio's io_uring_cmd engine, and
# thousands of random commands (scripts/vm/nvme_fuzz.c) after which the
# controller still works and fio verify passes.
# vmtest-mem: 4G
# vmtest-timeout: 300

CTRL=/dev/nvme0
DEV=/dev/nvme0n1
NG=/dev/ng0n1
FUZZ=/usr/bin/nvme_fuzz

up() {
	load frontend=nvme size=64M "$@"
	wait_for $DEV
	wait_for $NG
}

# raw DEV admin|io OPCODE NSID CDW10 CDW11 CDW12 LEN [OFFSET]: the status
# the command completed with (and its result in $RESULT_FILE, one line
# "status=0x.. result=0x..": read by the shell, not sed, as every
# process costs a tenth of a second or more under the debug kernel)
RESULT_FILE=/tmp/raw.out
raw() {
	local line
	$FUZZ raw "$@" >$RESULT_FILE || fail "nvme_fuzz raw $*: no status"
	IFS= read -r line <$RESULT_FILE || :
	case $line in
	"status=0x"*" "*)
		line=${line#status=}
		line=${line%% *}
		case ${line#0x} in
		*[!0-9a-f]*) ;;
		*) echo "$line" ;;
		esac
		;;
	esac
}

raw_result() {
	local line
	IFS= read -r line <$RESULT_FILE || :
	case $line in
	*"result=0x"*)
		line=${line##*result=}
		case ${line#0x} in
		*[!0-9a-f]*) ;;
		*) echo "$line" ;;
		esac
		;;
	esac
}

# expect_status WANT WHAT RAW-ARGS...
expect_status() {
	local want=$1 what=$2 got
	shift 2
	got=$(raw "$@")
	expect_eq "$got" "$want" "$what"
}

# Regression: with no buffer (data_len 0) the kernel sends PRP1 = PRP2 =
# 0, and Identify wrote 4 KiB into physical page 0. A buffer shorter than
# the command's transfer made a Read write the rest there too.
test_no_buffer_is_data_transfer_error() {
	local out

	up
	expect_status 0x4 "Identify Controller without a buffer" \
		$CTRL admin 0x06 0 1 0 0 0
	expect_status 0x4 "Get Log Page (SMART) without a buffer" \
		$CTRL admin 0x02 0xffffffff $((2 | 127 << 16)) 0 0 0
	expect_status 0x4 "Read without a buffer" $NG io 0x02 1 0 0 0 0
	# Two blocks into one block's buffer: PRP2 is 0.
	expect_status 0x4 "8 KiB Read into a 4 KiB buffer" \
		$NG io 0x02 1 0 0 1 4096
	if out=$(nvme io-passthru $NG --opcode=0x02 --namespace-id=1 \
		--cdw12=1 --data-len=4096 --read 2>&1); then
		fail "nvme io-passthru read of 2 blocks into 4 KiB: $out"
	fi
	echo "$out"
	# The same commands with a buffer work.
	expect_status 0x0 "Identify Controller" $CTRL admin 0x06 0 1 0 0 4096
	expect_status 0x0 "8 KiB Read" $NG io 0x02 1 0 0 1 8192
	fio_verify_short
	unload
}

# Regression: every log page was 4096 bytes long.
test_log_page_lengths_and_offsets() {
	local smart=$((2 | 127 << 16)) all=0xffffffff

	up
	expect_status 0x0 "SMART, 512 bytes" $CTRL admin 0x02 $all $smart 0 0 512
	# Offsets: up to the end of each log, not beyond.
	expect_status 0x0 "SMART at offset 508" \
		$CTRL admin 0x02 $all $((2 | 0 << 16)) 0 508 4
	expect_status 0x0 "SMART at offset 512 (the end)" \
		$CTRL admin 0x02 $all $((2 | 0 << 16)) 0 512 4
	expect_status 0x4002 "SMART at offset 516" \
		$CTRL admin 0x02 $all $((2 | 0 << 16)) 0 516 4
	expect_status 0x4002 "SMART at offset 3584" \
		$CTRL admin 0x02 $all $((2 | 0 << 16)) 0 3584 4
	expect_status 0x0 "error log at offset 64 (the end)" \
		$CTRL admin 0x02 0 $((1 | 0 << 16)) 0 64 4
	expect_status 0x4002 "error log at offset 68" \
		$CTRL admin 0x02 0 $((1 | 0 << 16)) 0 68 4
	expect_status 0x4002 "firmware slot log at offset 516" \
		$CTRL admin 0x02 0 $((3 | 0 << 16)) 0 516 4
	expect_status 0x0 "firmware slot log, 4 KiB (the rest zeros)" \
		$CTRL admin 0x02 0 $((3 | 1023 << 16)) 0 0 4096
	expect_status 0x4109 "log page 0x7f" $CTRL admin 0x02 0 0x7f 0 0 4
	# nvme-cli reads each log at its size.
	nvme error-log $CTRL >/dev/null || fail "nvme error-log"
	nvme fw-log $CTRL | grep -q 'frs1' || fail "nvme fw-log"
	nvme smart-log $CTRL | grep -q temperature || fail "nvme smart-log"
	unload
}

# Regression: Identify CNS 00h and 05h took any NSID, and the active
# namespace list's FFFFFFFEh was Invalid Field. With Namespace Management
# NSIDs 1 to NN (32) are valid: an inactive one is zeros, FFFFFFFFh the
# capabilities every namespace has, anything else Invalid Namespace.
test_identify_nsids() {
	up
	expect_status 0x0 "CNS 00h NSID 1" $CTRL admin 0x06 1 0 0 0 4096
	expect_status 0x0 "CNS 00h NSID FFFFFFFFh" \
		$CTRL admin 0x06 0xffffffff 0 0 0 4096
	expect_status 0x0 "CNS 00h NSID 2 (inactive)" $CTRL admin 0x06 2 0 0 0 4096
	expect_status 0x400b "CNS 00h NSID 33" $CTRL admin 0x06 33 0 0 0 4096
	expect_status 0x400b "CNS 00h NSID 0" $CTRL admin 0x06 0 0 0 0 4096
	expect_status 0x0 "CNS 05h NSID 1 CSI 0" $CTRL admin 0x06 1 5 0 0 4096
	expect_status 0x400b "CNS 05h NSID 33" $CTRL admin 0x06 33 5 0 0 4096
	expect_status 0x4002 "CNS 03h NSID 2 (inactive)" \
		$CTRL admin 0x06 2 3 0 0 4096
	# The controller has the zoned set, namespace 1 is not zoned:
	# Invalid I/O Command Set (12Ch, DNR; NVMe Base 2.0, 5.17).
	expect_status 0x412c "CNS 05h CSI 2 on a conventional namespace" \
		$CTRL admin 0x06 1 5 $((2 << 24)) 0 4096
	# CNS 08h answers for an active namespace (NVMe 2.0).
	expect_status 0x0 "CNS 08h NSID 1" $CTRL admin 0x06 1 8 0 0 4096
	expect_status 0x0 "CNS 06h CSI 0" $CTRL admin 0x06 0 6 0 0 4096
	expect_status 0x400b "CNS 02h NSID FFFFFFFEh" \
		$CTRL admin 0x06 0xfffffffe 2 0 0 4096
	# Identify Controller: LPA says offsets and the effects log work,
	# VWC a cache.
	nvme id-ctrl $CTRL | tee /tmp/idctrl | grep -E '^(lpa|vwc) '
	expect_match "$(grep '^lpa ' /tmp/idctrl)" ': 0x6$' "LPA"
	expect_match "$(grep '^vwc ' /tmp/idctrl)" ': 0x7$' "VWC"
	unload
}

# Regression: an unaligned base was Invalid Field. The driver owns the
# first queues; queue 60 is free. (Refused before anything is created.)
test_create_queue_unaligned() {
	up
	expect_status 0x4013 "Create I/O CQ at page offset 0x200" \
		$CTRL admin 0x05 0 $((60 | 15 << 16)) 1 0 4096 0x200
	expect_status 0x4013 "Create I/O SQ at page offset 0x200" \
		$CTRL admin 0x01 0 $((60 | 15 << 16)) $((1 | 1 << 16)) 0 4096 0x200
	# Without a buffer the base is page 0: refused too.
	expect_status 0x4002 "Create I/O CQ at address 0" \
		$CTRL admin 0x05 0 $((60 | 15 << 16)) 1 0 0
	fio_verify_short
	unload
}

# get_feature FID [CDW11] [SEL]: Get Features' result
get_feature() {
	local st

	st=$(raw $CTRL admin 0x0a 0 $(($1 | ${3:-0} << 8)) "${2:-0}" 0 0)
	expect_eq "$st" 0x0 "Get Features $1 status"
	raw_result
}

set_feature() {
	expect_status 0x0 "Set Features $1 = $2" $CTRL admin 0x09 0 "$1" "$2" 0 0
}

# Regression: Set Features stored only the volatile write cache and the
# queue count; the others read back 0. The cache was off while Identify
# said there was one, and no feature went back to its default on a reset.
test_features() {
	local crit n

	up
	# Defaults: the cache on, the over-temperature threshold WCTEMP.
	expect_eq "$(get_feature 6)" 0x1 "volatile write cache at start"
	expect_eq "$(get_feature 4)" 0x157 "temperature threshold at start"
	# Number of queues: the default is what Create accepts (64).
	expect_eq "$(get_feature 7 0 1)" 0x3f003f "default number of queues"
	expect_eq "$(get_feature 6 0 3)" 0x4 "capabilities: changeable"

	set_feature 1 0x01020303
	expect_eq "$(get_feature 1)" 0x1020303 arbitration
	expect_eq "$(get_feature 1 0 1)" 0x0 "arbitration default"
	set_feature 2 0x40
	expect_eq "$(get_feature 2)" 0x40 "power management"
	expect_status 0x4002 "power state 1 (NPSS = 0)" $CTRL admin 0x09 0 2 1 0 0
	expect_eq "$(get_feature 2)" 0x40 "power management unchanged"
	set_feature 8 0x0a05
	expect_eq "$(get_feature 8)" 0xa05 "interrupt coalescing"
	set_feature 9 $((1 | 1 << 16))
	expect_eq "$(get_feature 9 1)" 0x10001 "vector 1 coalescing disabled"
	expect_eq "$(get_feature 9 2)" 0x2 "vector 2 untouched"
	set_feature 6 0
	expect_eq "$(get_feature 6)" 0x0 "volatile write cache off"
	nvme get-feature $CTRL -f 6
	# An over threshold below the drive's 323 K raises the warning.
	set_feature 4 300
	expect_eq "$(get_feature 4)" 0x12c "over-temperature threshold"
	set_feature 4 $((273 | 1 << 20))
	expect_eq "$(get_feature 4 $((1 << 20)))" 0x100111 "under threshold"
	crit=$(nvme smart-log $CTRL -o json | sed -n 's/.*"critical_warning" *: *\([0-9]*\).*/\1/p')
	expect_eq "$crit" 2 "SMART critical warning (temperature)"

	# A controller reset brings every default back.
	# The write returns once the reset is done (nvme_reset_ctrl_sync):
	# the controller is live again, polled for rather than slept on.
	echo 1 >/sys/class/nvme/nvme0/reset_controller
	n=0
	while [ "$(cat /sys/class/nvme/nvme0/state)" != live ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	expect_eq "$(cat /sys/class/nvme/nvme0/state)" live "controller state after reset"
	wait_for $NG
	expect_eq "$(get_feature 6)" 0x1 "volatile write cache after reset"
	expect_eq "$(get_feature 4)" 0x157 "temperature threshold after reset"
	expect_eq "$(get_feature 1)" 0x0 "arbitration after reset"
	expect_eq "$(get_feature 8)" 0x0 "interrupt coalescing after reset"
	crit=$(nvme smart-log $CTRL -o json | sed -n 's/.*"critical_warning" *: *\([0-9]*\).*/\1/p')
	expect_eq "$crit" 0 "SMART critical warning after reset"
	fio_verify_short
	unload
}

# fio write + verify on the block device, small and quick
fio_verify_short() {
	fio --name=v --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=16 --size="$(light 8M 2M)" \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio verify"; }
}

# ng_fio ARGS...: fio's io_uring_cmd engine on the generic device, verified
ng_fio() {
	fio --name=ng --filename=$NG --ioengine=io_uring_cmd --cmd_type=nvme \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse "$@" >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio io_uring_cmd $*"; }
}

# The generic char device with nvme-cli and fio, as a user would.
# ng_tools LBA_BYTES
ng_tools() {
	local b=$1

	fio --enghelp=io_uring_cmd >/dev/null 2>&1 ||
		fail "this fio has no io_uring_cmd engine"
	head -c $((4 * b)) /dev/urandom >/tmp/d
	nvme write $NG --start-block=10 --block-count=3 --data-size=$((4 * b)) \
		--data=/tmp/d || fail "nvme write on $NG"
	rm -f /tmp/r
	nvme read $NG --start-block=10 --block-count=3 --data-size=$((4 * b)) \
		--data=/tmp/r || fail "nvme read on $NG"
	cmp /tmp/d /tmp/r || fail "nvme read on $NG: other data"
	dd if=$DEV of=/tmp/r2 bs=$b skip=10 count=4 iflag=direct 2>/dev/null
	cmp /tmp/d /tmp/r2 || fail "the block device reads other data"
	nvme compare $NG --start-block=10 --block-count=3 \
		--data-size=$((4 * b)) --data=/tmp/d || fail "nvme compare"
	nvme io-passthru $NG --opcode=0x02 --namespace-id=1 --cdw10=10 \
		--cdw12=3 --data-len=$((4 * b)) --read -b >/tmp/r3 ||
		fail "nvme io-passthru read"
	cmp /tmp/d /tmp/r3 || fail "io-passthru read: other data"
	nvme io-passthru $NG --opcode=0x01 --namespace-id=1 --cdw10=20 \
		--cdw12=3 --data-len=$((4 * b)) --input-file=/tmp/d -w ||
		fail "nvme io-passthru write"
	dd if=$DEV of=/tmp/r4 bs=$b skip=20 count=4 iflag=direct 2>/dev/null
	cmp /tmp/d /tmp/r4 || fail "io-passthru write: other data"
	nvme flush $NG || fail "nvme flush"
	nvme dsm $NG --ad -s 20 -b 4 || fail "nvme dsm"
	nvme write-zeroes $NG -s 10 -c 3 || fail "nvme write-zeroes"
	dd if=$DEV of=/tmp/r5 bs=$b skip=10 count=4 iflag=direct 2>/dev/null
	dd if=/dev/zero of=/tmp/z bs=$b count=4 2>/dev/null
	cmp /tmp/z /tmp/r5 || fail "write-zeroes: not zeros"
	nvme id-ns $NG | grep -q '^nsze' || fail "nvme id-ns on $NG"
	nvme smart-log $NG >/dev/null || fail "nvme smart-log on $NG"
	ng_fio --rw=randrw --bs=$b --iodepth=16 --size=$((b * $(light 512 128)))
	[ "$b" = 4096 ] || return 0
	ng_fio --rw=randwrite --bs=4k --iodepth=16 --size="$(light 2M 512K)" \
		--fixedbufs --registerfiles
	ng_fio --rw=write --bs=128k --iodepth=8 --offset=8M --size="$(light 4M 1M)"
}

test_ng_generic_device() {
	up
	ng_tools 4096
	unload
	expect_gone
}

test_ng_generic_device_512() {
	up lba_size=512
	ng_tools 512
	unload
	expect_gone
}

# fuzz_survived: after nvme_fuzz (the kernel log cleared before it), the
# nvme driver logged no timeout, reset, I/O error or failure, and fio
# verify passes. The fuzz's Write Uncorrectables leave marked blocks that
# fail reads until written or deallocated: the debug kernel's 2 MiB
# verify left some under ng_fio's 4 MiB of random reads (make
# check-debug at d8dde17). Deallocated first, as a user would a fuzzed
# drive.
fuzz_survived() {
	! dmesg | grep -Ei 'timeout|resetting|I/O error|failed' ||
		fail "the driver complained during the fuzz"
	blkdiscard $DEV || fail "blkdiscard after the fuzz"
	fio_verify_short
}

# Thousands of random commands on the generic device, then on the block
# device; each gets a status, nothing times out, and the data path works.
test_fuzz() {
	local t=10 seed

	! light_run || t=8
	up
	dmesg -c >/dev/null
	seed=$(date +%s)
	$FUZZ fuzz $CTRL $NG -s "$seed" -n 20000 -t $t ||
		fail "nvme_fuzz on $NG (seed $seed)"
	$FUZZ fuzz $CTRL $DEV -s $((seed + 1)) -n 20000 -t $t ||
		fail "nvme_fuzz on $DEV (seed $((seed + 1)))"
	fuzz_survived
	ng_fio --rw=randrw --bs=4k --iodepth=16 --size="$(light 4M 1M)"
	nvme smart-log $CTRL >/dev/null || fail "nvme smart-log after the fuzz"
	unload
	expect_gone
}

# The fuzz on a device restored from an image (docs/images.md): data
# written, the controller shut down and the device held, saved, unloaded
# and restored into a new one; its data read back, then the same random
# commands as fuzz (a shorter run), after which the controller still
# works and fio verify passes.
test_fuzz_restored() {
	local SYS=/sys/class/vflash/vflash0 seed sum

	up
	dd if=/dev/urandom of=$DEV bs=1M count=8 oflag=direct 2>/dev/null ||
		fail "writing 8 MiB"
	sum=$(dev_sum)
	image_round_trip frontend=nvme size=64M
	echo running >$SYS/state || fail "running after the restore"
	wait_for $DEV
	wait_for $NG
	expect_eq "$(dev_sum)" "$sum" "data of the restored device"
	dmesg -c >/dev/null
	seed=$(date +%s)
	$FUZZ fuzz $CTRL $NG -s "$seed" -n 10000 -t 5 ||
		fail "nvme_fuzz on $NG of the restored device (seed $seed)"
	fuzz_survived
	nvme smart-log $CTRL >/dev/null || fail "nvme smart-log after the fuzz"
	unload
	expect_gone
}

run_test no_buffer_is_data_transfer_error test_no_buffer_is_data_transfer_error
run_test log_page_lengths_and_offsets test_log_page_lengths_and_offsets
run_test identify_nsids test_identify_nsids
run_test create_queue_unaligned test_create_queue_unaligned
run_test features test_features
run_test ng_generic_device test_ng_generic_device
run_test_full_debug ng_generic_device_512 "ng_generic_device, and nvmeopts' lba_512" test_ng_generic_device_512
run_test fuzz test_fuzz
run_test_full_debug fuzz_restored "fuzz (the same commands), and store's image_refused (a hold, save and restore)" test_fuzz_restored
