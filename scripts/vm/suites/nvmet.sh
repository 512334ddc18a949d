# SPDX-License-Identifier: GPL-2.0
# NVMe over fabrics with the kernel's own target: the vflash namespace
# (/dev/nvme0n1) exported through nvmet on a TCP port on 127.0.0.1,
# connected with nvme connect, fio with verify through the fabric device;
# then disconnect, tear the target down, unload vflash cleanly. The
# recipe is docs/nvme.md, "NVMe over fabrics".
# vmtest-mem: 4G
# vmtest-timeout: 300
# vmtest-debug-skip: the debug kernel has no NVMe target (CONFIG_NVME_TARGET)

DEV=/dev/nvme0n1
SYS=/sys/class/vflash/vflash0
NVMET=/sys/kernel/config/nvmet
NQN=nqn.2026-12.io.vflash:fabric0
# The host's NQN and ID go together: 6.12 refuses a connection whose host
# ID it knows with another NQN (nvme-cli makes one up when not given).
HOSTID=6a1f0c52-2f4e-4c7b-9d0e-1b9a9e3f7a10
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$HOSTID
PORT=1
SVC=4420
FABRIC=

# fabric_dev: the block device of the namespace of $NQN (with native
# multipath, as Debian builds it, the head nvmeXnY, whose device is the
# subsystem, not the hidden per-path nvmeXcYnZ; without it, the
# controller's; both carry subsysnqn)
fabric_dev() {
	local b

	for b in /sys/block/nvme*; do
		case ${b##*/} in nvme*c*n*) continue ;; esac
		[ -e "$b/device/subsysnqn" ] || continue
		if [ "$(cat "$b/device/subsysnqn")" = $NQN ]; then
			echo "/dev/${b##*/}"
			return 0
		fi
	done
	return 1
}

# target_up BDEV: export BDEV as namespace 1 of $NQN on 127.0.0.1:$SVC
target_up() {
	local s=$NVMET/subsystems/$NQN p=$NVMET/ports/$PORT

	mkdir $s
	echo 1 >$s/attr_allow_any_host
	mkdir $s/namespaces/1
	echo -n "$1" >$s/namespaces/1/device_path
	echo 1 >$s/namespaces/1/enable
	mkdir $p
	echo tcp >$p/addr_trtype
	echo ipv4 >$p/addr_adrfam
	echo 127.0.0.1 >$p/addr_traddr
	echo $SVC >$p/addr_trsvcid
	ln -s $s $p/subsystems/$NQN
}

# target_down: undo target_up, in reverse (whatever of it exists)
target_down() {
	local s=$NVMET/subsystems/$NQN p=$NVMET/ports/$PORT

	[ ! -L $p/subsystems/$NQN ] || rm $p/subsystems/$NQN
	[ ! -d $p ] || rmdir $p
	if [ -d $s/namespaces/1 ]; then
		echo 0 >$s/namespaces/1/enable
		rmdir $s/namespaces/1
	fi
	[ ! -d $s ] || rmdir $s
}

# connect: nvme connect over TCP to $NQN; FABRIC is its block device
connect() {
	local n=0

	nvme connect -t tcp -a 127.0.0.1 -s $SVC -n $NQN --hostnqn=$HOSTNQN \
		--hostid=$HOSTID ||
		fail "nvme connect"
	while ! FABRIC=$(fabric_dev) && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -n "$FABRIC" ] || fail "no block device for $NQN"
	echo "fabric device: $FABRIC"
	wait_for "$FABRIC"
}

disconnect() {
	nvme disconnect -n $NQN || fail "nvme disconnect"
	! fabric_dev >/dev/null || fail "$NQN still connected"
}

modules_up() {
	modprobe nvmet_tcp || fail "modprobe nvmet_tcp"
	modprobe nvme_tcp || fail "modprobe nvme_tcp"
	# configfs is a module here: /init's mount found no file system.
	grep -q ' /sys/kernel/config ' /proc/mounts ||
		mount -t configfs configfs /sys/kernel/config ||
		fail "mount configfs"
	[ -d $NVMET ] || fail "no $NVMET"
	ip link set lo up || fail "ip link set lo up"
}

modules_down() {
	rmmod nvme_tcp nvme_fabrics || fail "rmmod nvme_tcp nvme_fabrics"
	rmmod nvmet_tcp nvmet || fail "rmmod nvmet_tcp nvmet"
}

# The whole path: the fabric device is the vflash namespace (its size,
# its data both ways), fio verify runs through it, the vflash backend
# sees that I/O, and everything comes down in order, vflash last.
test_tcp_loopback() {
	local size w r

	modules_up
	load frontend=nvme size=256M
	wait_for $DEV
	target_up $DEV
	connect
	nvme list
	size=$(cat /sys/block/nvme0n1/size)
	expect_eq "$(cat /sys/block/"${FABRIC#/dev/}"/size)" "$size" \
		"fabric device size in sectors"
	expect_eq "$(cat /sys/block/"${FABRIC#/dev/}"/queue/logical_block_size)" \
		4096 "fabric LBA size"

	# Data written through the fabric is on the vflash namespace, and
	# the other way round.
	dd if=/dev/urandom of=/tmp/a bs=4096 count=64 2>/dev/null
	dd if=/dev/urandom of=/tmp/b bs=4096 count=64 2>/dev/null
	dd if=/tmp/a of="$FABRIC" bs=4096 seek=100 oflag=direct 2>/dev/null ||
		fail "write through the fabric"
	dd if=$DEV of=/tmp/back bs=4096 skip=100 count=64 iflag=direct 2>/dev/null ||
		fail "read of the namespace"
	cmp /tmp/a /tmp/back || fail "fabric write not on the namespace"
	dd if=/tmp/b of=$DEV bs=4096 seek=300 oflag=direct 2>/dev/null ||
		fail "write to the namespace"
	dd if="$FABRIC" of=/tmp/back bs=4096 skip=300 count=64 iflag=direct 2>/dev/null ||
		fail "read through the fabric"
	cmp /tmp/b /tmp/back || fail "namespace write not read through the fabric"

	# fio with verify through the fabric; the backend counts its writes.
	w=$(cat $SYS/stats/host_write_pages)
	r=$(cat $SYS/stats/host_read_pages)
	size=32M
	light_run && size=8M
	fio --name=fabric --filename="$FABRIC" --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=4k --iodepth=16 --size=$size \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio verify through the fabric"; }
	fio --name=fabric-mixed --filename="$FABRIC" --ioengine=libaio --direct=1 \
		--rw=randrw --bs=16k --iodepth=8 --numjobs=2 --size=$size \
		--offset_increment=$size --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --output-format=terse >/tmp/fio.out 2>&1 ||
		{ cat /tmp/fio.out; fail "fio randrw verify through the fabric"; }
	[ "$(cat $SYS/stats/host_write_pages)" -gt "$w" ] ||
		fail "the backend saw no writes from the fabric"
	[ "$(cat $SYS/stats/host_read_pages)" -gt "$r" ] ||
		fail "the backend saw no reads from the fabric"

	disconnect
	target_down
	modules_down
	unload
	expect_gone
}

# vflash goes away under a connected host: rmmod removes the controller
# as a surprise unplug would; the target's namespace then fails I/O, the
# host sees errors (not a hang), and everything still comes down.
test_unload_while_exported() {
	modules_up
	load frontend=nvme size=64M
	wait_for $DEV
	target_up $DEV
	connect
	dd if=/dev/urandom of="$FABRIC" bs=4096 count=16 oflag=direct 2>/dev/null ||
		fail "write through the fabric"
	unload
	[ ! -e $DEV ] || fail "$DEV still there"
	dd if="$FABRIC" of=/dev/null bs=4096 count=16 iflag=direct 2>/dev/null &&
		fail "read through the fabric after vflash went away"
	disconnect
	target_down
	modules_down
	expect_gone
}

if ! modprobe -n nvmet_tcp 2>/dev/null || ! modprobe -n nvme_tcp 2>/dev/null; then
	report "SKIP tcp_loopback (this kernel has no nvmet-tcp or nvme-tcp module)"
	report "SKIP unload_while_exported (no nvmet-tcp or nvme-tcp module)"
else
	run_test tcp_loopback test_tcp_loopback
	run_test unload_while_exported test_unload_while_exported
fi
