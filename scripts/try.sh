#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# make try: vflash for a machine whose own kernel cannot load it (a
# container, a cloud VM without headers, a CI box). Boots the test VM of
# scripts/vmtest.sh (QEMU TCG, the Debian kernel whose headers built
# vflash.ko, the same initramfs) with vflash.ko loaded, prints what to
# type, and gives a shell on the VM's serial console (docs/try.md).
#
# usage: scripts/try.sh [--demo] [PARAM=VALUE...]
#   PARAM=VALUE  vflash's module parameters (docs/parameters.md); also
#                from ARGS (make try ARGS="frontend=cxl size=1G")
#   FRONTEND=F   frontend=F unless the parameters name one (default nvme)
#   --demo       (or DEMO=1) the one-minute tour instead of a shell: fio on
#                the NVMe namespace, mmap_lat hits and misses on a CXL
#                device, an eviction policy switch, a power cut and what
#                survived it; prints a summary, exits 0 only if every
#                step worked
#   TRY_MEM, TRY_SMP  the VM's memory (default 4G, the demo 2G) and CPUs (2)
#   TRY_TIMEOUT  seconds the demo may take (default 300)
# The shell ends with poweroff, exit or Ctrl-D in the guest, or Ctrl-A X.
# With stdin not a terminal, its lines are typed at the guest's prompt
# once its prompt shows, then poweroff -f: the VM ends when stdin does.
# Logs: build/try/ (console.log, and the demo's results.log).
set -uo pipefail
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=vm/boot.sh
. "$REPO/scripts/vm/boot.sh"

usage() {
	sed -n '/^# usage:/,/^# Logs:/s/^# \{0,1\}//p' "$0"
	exit "$1"
}

demo=${DEMO:-0}
given=${ARGS:+1}${FRONTEND:+1}
# shellcheck disable=SC2206 # ARGS: words
params=(${ARGS:-})
for a in "$@"; do
	case $a in
	--demo) demo=1 ;;
	-h | --help) usage 0 ;;
	*=*) params+=("$a") given=1 ;;
	*) echo "try: '$a' is not PARAM=VALUE" >&2; usage 2 >&2 ;;
	esac
done
case $demo in 0 | '') demo=0 ;; *) demo=1 ;; esac
fe=
for a in "${params[@]}"; do
	# /vflash/try.conf is a shell file: only plain words go there.
	case $a in
	*[!A-Za-z0-9_.,:=+-]* | =*)
		echo "try: '$a': parameters are NAME=VALUE of letters, digits and ._,:=+-" >&2
		exit 2 ;;
	frontend=*) fe=${a#frontend=} ;;
	esac
done
if [ -n "${FRONTEND:-}" ]; then
	[ -z "$fe" ] || [ "$fe" = "$FRONTEND" ] ||
		{ echo "try: FRONTEND=$FRONTEND but the parameters say frontend=$fe" >&2; exit 2; }
	[ -n "$fe" ] || params=("frontend=$FRONTEND" "${params[@]}")
elif [ -z "$fe" ]; then
	params=(frontend=nvme "${params[@]}")
fi
[ "$demo" -eq 0 ] || [ -z "$given" ] ||
	echo "try: the tour loads its own devices; ignoring ${params[*]}" >&2

vm_debian_kernel
KO=$REPO/vflash.ko
DIR=$BUILD/try
[ -f "$VMLINUZ" ] || die "try: no kernel $VMLINUZ: run scripts/setup.sh"
[ -f "$KO" ] || die "try: no $KO: run make first (make try does)"
mkdir -p "$DIR"

# The test VM's initramfs, and what try adds: this vflash.ko where
# modprobe finds it (extra/, as make install puts it), vflashctl, the
# guest side and its settings.
echo "try: building the VM's initramfs (kernel $KVER)"
root=$DIR/root
initramfs_root "$root" || die "try: cannot build the initramfs"
mkdir -p "$root/lib/modules/$KVER/extra"
cp "$KO" "$root/lib/modules/$KVER/extra/"
depmod -b "$root" "$KVER" || die "try: depmod"
cp "$REPO/scripts/vflashctl/vflashctl" "$root/usr/bin/vflashctl"
cp "$REPO/scripts/vm/try.sh" "$root/vflash/try.sh"
rows='' cols=''
if [ -t 0 ] && [ -t 1 ]; then
	read -r rows cols < <(stty size 2>/dev/null) || true
fi
{
	echo "TRY_ARGS='${params[*]}'"
	echo "TRY_ROWS='$rows'"
	echo "TRY_COLS='$cols'"
} >"$root/vflash/try.conf"
initramfs_pack "$root" "$DIR/initramfs.cpio" || die "try: cannot pack the initramfs"

# quiet: the console shows the guest's own lines and kernel errors only.
if [ "$demo" -eq 1 ]; then
	vm_qemu_argv "${TRY_SMP:-2}" "${TRY_MEM:-2G}" "$DIR/initramfs.cpio" "quiet vmtry=demo"
else
	vm_qemu_argv "${TRY_SMP:-2}" "${TRY_MEM:-4G}" "$DIR/initramfs.cpio" "quiet vmtry=shell"
fi

# run_demo: the tour, its console on stdout, its results on the second
# serial port; the summary; 0 only if every step passed, the guest
# finished and its kernel log shows no problem
run_demo() {
	local t0=$SECONDS rc res=$DIR/results.log plan pass fail

	echo "try: the tour (QEMU TCG: about a minute)"
	: >"$res"
	timeout -k 5 "${TRY_TIMEOUT:-300}" "${QEMU_ARGV[@]}" -serial stdio \
		-serial "file:$res" </dev/null 2>&1 | tr -d '\r' | tee "$DIR/console.log"
	rc=${PIPESTATUS[0]}
	tr -d '\r' <"$res" >"$DIR/results.txt"
	res=$DIR/results.txt
	plan=$(sed -n 's/^PLAN //p' "$res")
	pass=$(grep -c '^PASS ' "$res")
	fail=$(grep -c '^FAIL ' "$res")
	echo
	echo "make try DEMO=1: summary ($((SECONDS - t0)) s, QEMU exit status $rc)"
	sed -n 's/^SUMMARY \([^ ]*\) /  \1: /p' "$res"
	grep -E '^(PASS|FAIL) ' "$res" | sed 's/^/  /'
	if sed -n 's/^DMESG //p' "$res" | grep -Eq "$SPLAT"; then
		echo "  FAIL the kernel log shows a problem:"
		sed -n 's/^DMESG //p' "$res" | grep -E "$SPLAT" | head -n 5 | sed 's/^/    /'
		fail=$((fail + 1))
	fi
	if ! grep -q '^DONE' "$res"; then
		echo "  FAIL the tour did not finish (timeout ${TRY_TIMEOUT:-300} s, or the VM died: $DIR/console.log)"
		fail=$((fail + 1))
	fi
	if [ "$fail" -eq 0 ] && [ -n "$plan" ] && [ "$pass" -eq "$plan" ]; then
		echo "try: every step worked ($pass of $plan)"
		return 0
	fi
	echo "try: $pass of ${plan:-?} steps worked; logs in $DIR"
	return 1
}

# run_piped: the shell, its input from this script's stdin (not a
# terminal): typed once the guest's shell is ready, then poweroff -f
run_piped() {
	local fifo=$DIR/stdin.fifo pid feeder n=0

	rm -f "$fifo"
	mkfifo "$fifo"
	: >"$DIR/console.log"
	# Open for reading and writing: opening the FIFO never blocks.
	exec 3<>"$fifo"
	"${QEMU_ARGV[@]}" -serial mon:stdio <&3 2>&1 | tee "$DIR/console.log" &
	pid=$!
	while ! grep -q 'vflash-try# ' "$DIR/console.log"; do
		if ! kill -0 "$pid" 2>/dev/null || [ $n -ge 3000 ]; then
			echo "try: the guest's shell did not start (see $DIR/console.log)" >&2
			exec 3>&-
			kill "$pid" 2>/dev/null
			return 1
		fi
		sleep 0.1
		n=$((n + 1))
	done
	# In the background (stdin given explicitly: a background job's
	# is /dev/null): if the guest powers off first, nothing reads the
	# FIFO any more, and a write to it would block for ever.
	{ cat; printf '\npoweroff -f\n'; } <&0 >&3 &
	feeder=$!
	wait "$pid"
	kill "$feeder" 2>/dev/null
	exec 3>&-
	rm -f "$fifo"
}

if [ "$demo" -eq 1 ]; then
	run_demo
	exit
fi
echo "try: booting the VM with vflash ${params[*]}; leave with poweroff (or Ctrl-A X)"
if [ -t 0 ]; then
	"${QEMU_ARGV[@]}" -serial mon:stdio
else
	run_piped
fi
