# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Sourced by the scripts that boot the test VM on the host
# (scripts/vmtest.sh, scripts/try.sh): which kernel it boots, what its
# initramfs carries, how QEMU runs it, and what on its console is a
# kernel problem. Needs scripts/common.sh sourced first.

# vm_debian_kernel: KVER, MODROOT and VMLINUZ of the Debian kernel whose
# headers (KDIR) build vflash.ko, unpacked by scripts/setup.sh
vm_debian_kernel() {
	KVER=$(kernel_release)
	[ -n "$KVER" ] || die "vm: cannot tell the kernel release of $KDIR"
	MODROOT=$VFLASH_CACHE/image-$KVER
	VMLINUZ=$MODROOT/boot/vmlinuz-$KVER
}

# Kernel modules the suites use, with whatever they depend on
# (crc32_generic: the crc32 the ns suite's f2fs.ko asks the crypto API for).
GUEST_MODULES="libnvdimm nd_pmem nd_e820 nd_btt device_dax dax_pmem kmem configfs null_blk
	nvmet nvmet_tcp nvme_tcp nvme_fabrics zonefs btrfs crc32_generic"
# Carried where the line has them as modules, without a word where it
# does not: nvme_loop (blktests' nvme group, make check-zbd; 6.1's cloud
# kernel is built without it), mq_deadline (the scheduler blktests' zbd
# cases and zonefs-tests set; built in on 6.1, a module on 6.12).
GUEST_OPTIONAL_MODULES="nvme_loop mq_deadline"
# The guest's fio: Debian's, built static without the engines that load
# 64 shared libraries at every start (scripts/guest-fio.sh, run by
# setup.sh), else Debian's own binary.
GUEST_FIO=$VFLASH_CACHE/guest-fio/fio
# Dynamically linked programs the suites use.
GUEST_PROGRAMS="/usr/sbin/nvme /usr/bin/ndctl /usr/bin/daxctl /usr/bin/kmod /usr/bin/jq
	/usr/sbin/mke2fs /usr/sbin/e2fsck /usr/bin/sqlite3 /usr/sbin/blkzone
	/usr/sbin/mkfs.btrfs /usr/bin/btrfs /usr/sbin/mkfs.f2fs"
# Files they read: mke2fs takes its defaults for each file system type
# (features, inode ratio) from mke2fs.conf; btrfs's pthread_cancel()
# loads libgcc_s at run time (ldd does not list it).
GUEST_FILES="/etc/mke2fs.conf /lib/x86_64-linux-gnu/libgcc_s.so.1"
# Programs carried if found (a suite skips what needs them): from
# GUEST_ROOT, where setup.sh unpacks the guest-only packages (redis,
# memcached: never installed on the host, whose services Debian would
# start), else from the host.
GUEST_OPTIONAL_PROGRAMS="/usr/bin/trace-cmd /usr/bin/redis-server /usr/bin/redis-benchmark
	/usr/bin/redis-cli /usr/bin/memcached /usr/bin/memcaslap"
GUEST_ROOT=$VFLASH_CACHE/guest-root
# Where ldd looks first for a program of GUEST_ROOT: the libraries that
# setup.sh unpacked beside it because the host lacks them.
GUEST_ROOT_LIBS=$GUEST_ROOT/lib/x86_64-linux-gnu:$GUEST_ROOT/usr/lib/x86_64-linux-gnu

# carry PROGRAM PATH: PROGRAM into the initramfs as PATH, with the shared
# libraries it loads (none for a static one); a library of GUEST_ROOT
# goes where it would be on an installed system
carry() {
	local lib dst libpath=

	case $1 in "$GUEST_ROOT"/*) libpath=$GUEST_ROOT_LIBS ;; esac
	cp "$1" "$root$2"
	for lib in $(LD_LIBRARY_PATH=$libpath ldd "$1" 2>/dev/null |
		awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
		dst=${lib#"$GUEST_ROOT"}
		[ -e "$root$dst" ] || { mkdir -p "$root$(dirname "$dst")"; cp -L "$lib" "$root$dst"; }
	done
}

# initramfs_root ROOT: the test VM's root file system in ROOT (emptied
# first): busybox, the programs and modules above, $KO as
# /vflash/vflash.ko, the suites and their helpers, the test tools of
# make tools, scripts/vm/init as /init. /vflash/ mirrors scripts/ where
# the guest runs scripts (helpers.sh, bench/, bench/study/, trace/); the
# suites and the VM entry points of scripts/bench/vm/ go to
# /vflash/suites/. Uses REPO, KO, KVER, MODROOT.
initramfs_root() {
	local root=$1 p fio=$GUEST_FIO

	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,vflash/suites,vflash/bench}
	cp /bin/busybox "$root/bin/busybox"
	for p in $GUEST_PROGRAMS; do
		carry "$p" "$p"
	done
	for p in $GUEST_OPTIONAL_PROGRAMS; do
		if [ -x "$GUEST_ROOT$p" ]; then
			carry "$GUEST_ROOT$p" "$p"
		elif [ -x "$p" ]; then
			carry "$p" "$p"
		fi
	done
	for p in $GUEST_FILES; do
		cp "$p" "$root$p"
	done
	if [ ! -x "$fio" ]; then
		echo "vmtest: no $fio (scripts/setup.sh builds it): the VM carries Debian's fio, slower to start" >&2
		fio=/usr/bin/fio
	fi
	carry "$fio" /usr/bin/fio
	for p in insmod rmmod lsmod modprobe modinfo depmod; do
		ln -s /usr/bin/kmod "$root/sbin/$p"
	done
	# The names e2fsprogs installs them under too; busybox has an mke2fs
	# of its own (ext2 only), but no mkfs.ext4 or e2fsck.
	ln -s mke2fs "$root/usr/sbin/mkfs.ext4"
	ln -s e2fsck "$root/usr/sbin/fsck.ext4"

	# The modules, their dependencies, and a modules.dep for modprobe.
	local moddir=$MODROOT/lib/modules/$KVER
	local want=" " queue="$GUEST_MODULES $GUEST_OPTIONAL_MODULES" name dep path
	while [ -n "${queue// /}" ]; do
		# shellcheck disable=SC2086 # module names, one per word
		set -- $queue
		name=$1
		shift
		queue="$*"
		case "$want" in *" $name "*) continue ;; esac
		want="$want$name "
		# A module's file may spell its name with '-' (nvme-tcp.ko).
		path=$(find "$moddir/kernel" -name "$name.ko*" -o \
			-name "${name//_/-}.ko*" | head -n 1)
		if [ -z "$path" ]; then
			case " $GUEST_OPTIONAL_MODULES " in
			*" $name "*) ;;
			*) echo "vmtest: no module $name" >&2 ;;
			esac
			continue
		fi
		mkdir -p "$(dirname "$root/${path#"$MODROOT"/}")"
		cp "$path" "$root/${path#"$MODROOT"/}"
		for dep in $(modinfo -F depends "$path" | tr ',' ' '); do
			queue="$queue ${dep//-/_}"
		done
	done
	cp "$moddir"/modules.builtin* "$moddir"/modules.order "$root/lib/modules/$KVER/"
	depmod -b "$root" "$KVER"

	cp "$KO" "$root/vflash/"
	# make check-debug signs its vflash.ko and keeps the unsigned build
	# beside it: the signed suite shows lockdown refusing that one.
	if [ -f "${KO%.ko}-unsigned.ko" ]; then
		cp "${KO%.ko}-unsigned.ko" "$root/vflash/vflash-unsigned.ko"
	fi
	# Another module to compare with (make bench-faultcost), if given.
	if [ -n "${VMTEST_BASE_KO:-}" ]; then
		cp "$VMTEST_BASE_KO" "$root/vflash/base.ko" || return 1
	fi
	cp "$REPO/scripts/vm/lib.sh" "$REPO/scripts/helpers.sh" "$root/vflash/"
	# VMTEST_ONLY=FILE: the tests to run, "SUITE TEST" a line (lib.sh's
	# only_skips)
	[ -z "${VMTEST_ONLY:-}" ] || cp "$VMTEST_ONLY" "$root/vflash/only" || return 1
	cp "$REPO"/scripts/vm/suites/*.sh "$REPO"/scripts/bench/vm/*.sh \
		"$root/vflash/suites/"
	cp "$REPO"/scripts/bench/*.sh "$root/vflash/bench/"
	mkdir -p "$root/vflash/trace" "$root/vflash/bench/study"
	cp "$REPO"/scripts/trace/*.sh "$REPO"/scripts/trace/*.awk "$root/vflash/trace/"
	cp "$REPO"/scripts/bench/study/*.sh "$root/vflash/bench/study/"
	cp "$REPO/scripts/vm/init" "$root/init"
	# The static test tools (make tools), if built.
	for p in "$REPO/scripts/tools/mmap_lat" "$REPO/scripts/vm/cxl_check" \
		"$REPO/scripts/vm/nvme_fuzz" "$REPO/scripts/bench/study/kvstore" \
		"$REPO/scripts/vm/plcheck" "$REPO/scripts/tools/crashcheck" \
		"$REPO/scripts/vm/mkzonefs" "$REPO/scripts/bench/study/fdpload" \
		"$REPO/scripts/bench/icount/ioloop" "$REPO/scripts/vm/imgpatch"; do
		[ -x "$p" ] && cp "$p" "$root/usr/bin/"
	done
	# The apps suite: vflashctl run, its shim and a dynamic test program.
	if [ -x "$REPO/scripts/vm/apps_check" ] && [ -f "$REPO/scripts/shim/libvflash-shim.so" ]; then
		carry "$REPO/scripts/vm/apps_check" /usr/bin/apps_check
		[ -x "$REPO/scripts/bench/study/graphrank" ] &&
			carry "$REPO/scripts/bench/study/graphrank" /usr/bin/graphrank
		mkdir -p "$root/usr/lib/vflash"
		cp "$REPO/scripts/shim/libvflash-shim.so" "$root/usr/lib/vflash/"
		cp "$REPO/scripts/vflashctl/vflashctl" "$root/usr/bin/vflashctl"
	fi
	chmod +x "$root/init"
}

# initramfs_pack ROOT CPIO: ROOT as the initramfs archive CPIO
initramfs_pack() {
	(cd "$1" && find . | cpio -o -H newc --quiet) >"$2"
}

# QEMU_ARGV (an array, set by vm_qemu_argv SMP MEM INITRD APPEND): QEMU
# booting VMLINUZ with INITRD under TCG (no KVM here), SMP CPUs, MEM of
# memory, no devices but what the caller adds (its serial ports), and the
# kernel command line of every boot (console on the first serial port,
# the TSC as the clock: hpet reads cost ~1 us in TCG; a panic or an oops
# ends the VM) followed by APPEND.
vm_qemu_argv() {
	# shellcheck disable=SC2034,SC2054 # the callers' array; commas in options
	QEMU_ARGV=(qemu-system-x86_64
		-M pc -accel tcg,thread=multi -cpu max,la57=off -smp "$1" -m "$2"
		-nodefaults -no-user-config -display none -no-reboot
		-kernel "$VMLINUZ" -initrd "$3"
		-append "console=ttyS0 clocksource=tsc tsc=reliable panic=-1 oops=panic softlockup_panic=1 $4")
}

# Console lines that fail a suite whatever its tests said.
# shellcheck disable=SC2034 # the callers'
SPLAT='Kernel panic|Oops|BUG:|WARNING:|general protection fault|Call Trace:|soft lockup|hung_task|blocked for more than|UBSAN:|KASAN|possible recursive locking|circular locking|inconsistent lock state|suspicious RCU usage|kmemleak:.*suspected|unreferenced object|ODEBUG:'
