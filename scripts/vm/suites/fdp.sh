# SPDX-License-Identifier: GPL-2.0
# fdp=1: NVMe Flexible Data Placement (TP4146) on namespace 1, through
# nvme-cli 2.3's fdp plugin and placed writes (nvme write --dir-type=2
# --dir-spec=N): the logs' layouts byte by byte, the features, RUH Status
# and Update, invalid placement identifiers, every refusal's status; the
# per-handle counters of placement/ through make study-fdp's tiny scale.
# vmtest-mem: 4G
# vmtest-timeout: 600

DEV=/dev/nvme0n1
CTRL=/dev/nvme0
SYS=/sys/class/vflash/vflash0
EINVAL='Invalid (parameters|argument)'
T=/tmp/fdp

# load_fdp PARAMS...: a 256 MiB device with FDP (8 handles unless PARAMS
# say otherwise)
load_fdp() {
	load frontend=nvme size=256M fdp=1 "$@"
	wait_for $DEV
}

# u FILE OFFSET BYTES: the little-endian unsigned number at OFFSET (od's
# output split by the shell, not piped through tr: a process less a call,
# and a process costs the debug kernel a tenth of a second or more)
u() {
	# shellcheck disable=SC2046 # split on purpose
	set -- $(od -An -t "u$3" -j "$2" -N "$3" "$1")
	echo "$1"
}

# ruamw PID: reclaim unit available media writes of handle PID (RUH
# Status through nvme-cli, binary)
ruamw() {
	nvme fdp status $DEV -b >$T.st || fail "nvme fdp status"
	u $T.st $((16 + 32 * $1 + 8)) 8
}

# write_pid LBA PID: one 4 KiB placed write
write_pid() {
	nvme write $DEV -s "$1" -c 0 -z 4096 -d $T.pat --dir-type=2 \
		--dir-spec="$2" >/dev/null || fail "placed write at $1, pid $2"
}

# host_events: the host events' count (log 23h, LSP 1)
host_events() {
	nvme fdp events $CTRL -e 1 -E -b >$T.ev || fail "nvme fdp events"
	u $T.ev 0 4
}

prep() {
	dd if=/dev/urandom of=$T.pat bs=4096 count=1 2>/dev/null
}

test_discovery() {
	load_fdp
	# The Identify data as binary (bytes 99:96 CTRATT, 341:340
	# ENDGIDMAX; of the namespace's 103:102 ENDGID): nvme-cli's JSON and
	# jq cost the debug kernel seconds a process.
	nvme id-ctrl $CTRL -b >$T.idcb || fail "id-ctrl binary"
	ctratt=$(u $T.idcb 96 4)
	expect_eq $(((ctratt >> 19) & 1)) 1 "CTRATT.FDPS"
	expect_eq $(((ctratt >> 4) & 1)) 1 "CTRATT endurance groups"
	expect_eq "$(u $T.idcb 340 2)" 1 ENDGIDMAX
	nvme id-ns $DEV -b >$T.idnb || fail "id-ns binary"
	expect_eq "$(u $T.idnb 102 2)" 1 ENDGID
	nvme fdp configs $CTRL -e 1
	nvme fdp configs $CTRL -e 1 -b >$T.cfg || fail "fdp configs"
	expect_eq "$(u $T.cfg 0 2)" 0 "NUMFDPC (0's based)"
	expect_eq "$(u $T.cfg 4 4)" $((16 + 64 + 4 * 8)) "log size"
	expect_eq "$(u $T.cfg 16 2)" $((64 + 4 * 8)) "descriptor size"
	expect_eq "$(u $T.cfg 18 1)" $((0x90)) "FDPA (valid, FDPVWC, RGIF 0)"
	expect_eq "$(u $T.cfg 20 4)" 1 NRG
	expect_eq "$(u $T.cfg 24 2)" 8 NRUH
	expect_eq "$(u $T.cfg 26 2)" 7 "MAXPIDS (0's based)"
	[ "$(u $T.cfg 32 8)" -gt 0 ] || fail "RUNS 0"
	for i in 0 7; do
		expect_eq "$(u $T.cfg $((80 + 4 * i)) 1)" 1 "RUHT of $i"
	done
	nvme fdp usage $CTRL -e 1
	nvme fdp usage $CTRL -e 1 -b >$T.use || fail "fdp usage"
	expect_eq "$(u $T.use 0 2)" 8 "usage NRUH"
	expect_eq "$(u $T.use $((8 + 8 * 7)) 1)" 1 "RUHA of 7 (host)"
	nvme fdp stats $CTRL -e 1
	nvme fdp status $DEV
	nvme fdp status $DEV -b >$T.st || fail "fdp status"
	expect_eq "$(u $T.st 14 2)" 8 NRUHSD
	expect_eq "$(u $T.st $((16 + 32 * 5)) 2)" 5 "PID of descriptor 5"
	expect_eq "$(u $T.st $((16 + 32 * 5 + 2)) 2)" 5 "RUHID of descriptor 5"
	# Another endurance group: Invalid Field. (nvme-cli 2.3's fdp
	# plugin prints status 0 for a failed log: get-log prints it right.)
	expect_nvme_status 2 "configs of group 2" \
		nvme get-log $CTRL -i 0x20 -l 16 -S 2
	if nvme fdp configs $CTRL -e 2 >/dev/null 2>&1; then
		fail "nvme fdp configs of group 2 succeeded"
	fi
	unload
}

test_features() {
	load_fdp fdp_ruhs=4
	out=$(nvme get-feature $CTRL -f 0x1d --cdw11=1) ||
		fail "get-feature 1Dh"
	expect_match "$out" "Current value: ?0x0*1\b" "FDP feature"
	nvme set-feature $CTRL -f 0x1d -v 1 --cdw12=1 ||
		fail "set-feature 1Dh to what is in force"
	expect_nvme_status c "disabling FDP (Command Sequence Error)" \
		nvme set-feature $CTRL -f 0x1d -v 1 --cdw12=0
	expect_nvme_status 2 "configuration 1" \
		nvme set-feature $CTRL -f 0x1d -v 1 --cdw12=0x101
	expect_nvme_status 2 "endurance group 2" \
		nvme get-feature $CTRL -f 0x1d --cdw11=2
	# FDP Events on handle 0: four types supported (00h, 03h host; 80h,
	# 81h controller), all enabled.
	out=$(nvme get-feature $CTRL -f 0x1e --cdw11=$((0 | 8 << 16)) \
		-l 16 -b | od -An -t u1) || fail "get-feature 1Eh"
	expect_eq "$(echo $out | cut -d' ' -f1-10)" "0 1 3 1 128 1 129 1 0 0" \
		"event descriptors"
	nvme fdp set-events $DEV -p 0 -t 3 || fail "set-events disable"
	prep
	n0=$(host_events)
	write_pid 0 99
	expect_eq "$(host_events)" "$n0" "events with type 3 disabled"
	nvme fdp set-events $DEV -p 0 -t 3 -e || fail "set-events enable"
	write_pid 0 99
	expect_eq "$(host_events)" $((n0 + 1)) "events with type 3 enabled"
	expect_nvme_status 2 "set-events of handle 4" \
		nvme fdp set-events $DEV -p 4 -t 3 -e
	# Media Reallocated (80h) off and on again on handle 3.
	nvme fdp set-events $DEV -p 3 -t 128 || fail "set-events 80h off"
	out=$(nvme get-feature $CTRL -f 0x1e --cdw11=$((3 | 4 << 16)) \
		-l 8 -b | od -An -t u1) || fail "get-feature 1Eh of 3"
	expect_eq "$(echo $out | cut -d' ' -f5-8)" "128 0 129 1" \
		"80h disabled on handle 3"
	nvme fdp set-events $DEV -p 3 -t 128 -e || fail "set-events 80h on"
	out=$(nvme get-feature $CTRL -f 0x1e --cdw11=$((3 | 4 << 16)) \
		-l 8 -b | od -An -t u1) || fail "get-feature 1Eh of 3"
	expect_eq "$(echo $out | cut -d' ' -f5-6)" "128 1" \
		"80h enabled on handle 3"
	expect_nvme_status 2 "set-events of type 82h" \
		nvme fdp set-events $DEV -p 0 -t 130 -e
	unload
}

# The controller events: on a small device (256 KiB blocks as make
# study-fdp makes them, on 2 dies: little flash beyond the capacity),
# fdpload's three tenants write through handles 1-3, each its own LBA
# range (hot: the first 10 %, warm: the next 30 %, cold: the rest), twice
# the capacity (every LBA once, then as many random writes; half as many
# on a light run: GC runs from the first of them, the spare being all the
# flash left), and GC moves their data. Every event must be a Media
# Reallocated one whose handle wrote the LBA it names.
test_ctrl_events() {
	local lbas=4096 n i typ flags pid nsid lbav ruh nlbam lba lo hi
	load frontend=nvme profile=tlc size=16M channels=2 dies_per_channel=1 \
		page_size=4096 pages_per_block=64 op_percent=7 fdp=1 fdp_ruhs=4
	wait_for $DEV
	fdpload --fdp --seed 1 --writes "$(light $lbas $((lbas / 2)))" \
		--read-every 0 $DEV >$T.load || fail "fdpload"
	[ "$(cat /sys/class/vflash/vflash0/stats/gc_copied_pages)" -gt 0 ] ||
		fail "GC copied nothing"
	nvme fdp events $CTRL -e 1 >$T.cevt || fail "nvme fdp events"
	head -20 $T.cevt
	nvme fdp events $CTRL -e 1 -b >$T.cev || fail "controller events"
	n=$(u $T.cev 0 4)
	[ "$n" -gt 0 ] && [ "$n" -le 63 ] || fail "controller events: $n"
	# One line per event: type flags PID NSID LBAV RUHID NLBAM LBA.
	od -An -v -t u1 -w64 -j 64 -N $((64 * n)) $T.cev |
		awk '{ lba = 0; for (k = 28; k >= 21; k--) lba = lba * 256 + $k
		       print $1, $2, $3 + 256 * $4, $13 + 256 * $14, $17, $35,
			     $19 + 256 * $20, lba }' >$T.cevl
	expect_eq "$(wc -l <$T.cevl)" "$n" "events decoded"
	i=0
	while read -r typ flags pid nsid lbav ruh nlbam lba; do
		expect_eq "$typ $flags $pid $nsid $lbav" "128 7 $ruh 1 1" \
			"event $i: type, flags, PID, NSID, LBAV"
		case $ruh in
		1) lo=0 hi=$((lbas / 10)) ;;
		2) lo=$((lbas / 10)) hi=$((lbas / 10 + lbas * 3 / 10)) ;;
		3) lo=$((lbas / 10 + lbas * 3 / 10)) hi=$lbas ;;
		*) fail "event $i: handle $ruh wrote nothing" ;;
		esac
		[ "$lba" -ge "$lo" ] && [ "$lba" -lt "$hi" ] ||
			fail "event $i: LBA $lba is not handle $ruh's"
		[ "$nlbam" -gt 0 ] || fail "event $i: NLBAM 0"
		i=$((i + 1))
	done <$T.cevl
	# No host events came of it.
	expect_eq "$(host_events)" 0 "host events"
	unload
}

test_placed_writes() {
	load_fdp
	prep
	full=$(ruamw 3)
	[ "$full" -gt 1 ] || fail "RUAMW of an untouched handle: $full"
	other=$(ruamw 5)
	expect_eq "$other" "$full" "RUAMW of handles 3 and 5"
	write_pid 10 3
	expect_eq "$(ruamw 3)" $((full - 1)) "RUAMW of handle 3 after a write"
	expect_eq "$(ruamw 5)" "$full" "RUAMW of handle 5 after it"
	write_pid 11 3
	write_pid 12 5
	expect_eq "$(ruamw 3)" $((full - 2)) "RUAMW of handle 3 after two"
	expect_eq "$(ruamw 5)" $((full - 1)) "RUAMW of handle 5 after one"
	nvme read $DEV -s 10 -c 0 -z 4096 -d $T.back >/dev/null ||
		fail "read back"
	cmp $T.pat $T.back || fail "data of a placed write"
	# A placement identifier past the handles: handle 0, and an event.
	h0=$(ruamw 0)
	write_pid 20 8
	expect_eq "$(ruamw 0)" $((h0 - 1)) "RUAMW of handle 0 after pid 8"
	expect_eq "$(host_events)" 1 "host events"
	expect_eq "$(u $T.ev 64 1)" 3 "event type (invalid placement id)"
	expect_eq "$(u $T.ev 65 1)" 7 "event flags (PIV, NSIDV, LV)"
	expect_eq "$(u $T.ev 66 2)" 8 "event placement id"
	expect_eq "$(u $T.ev 76 4)" 1 "event NSID"
	expect_eq "$(u $T.ev 98 1)" 0 "event RUHID (where the write went)"
	nvme fdp events $CTRL -e 1 -E
	nvme fdp events $CTRL -e 1 -b >$T.cev || fail "controller events"
	expect_eq "$(u $T.cev 0 4)" 0 "controller events"
	# HBMW counts what the host wrote.
	nvme fdp stats $CTRL -e 1 -b >$T.s1 || fail "fdp stats"
	write_pid 30 1
	nvme fdp stats $CTRL -e 1 -b >$T.s2 || fail "fdp stats"
	expect_eq "$(($(u $T.s2 0 8) - $(u $T.s1 0 8)))" 4096 "HBMW of a write"
	# Streams directive (DTYPE 1h) and a placement without FDP's
	# directive: Invalid Field.
	expect_nvme_status 2 "a streams directive" \
		nvme write $DEV -s 0 -c 0 -z 4096 -d $T.pat --dir-type=1 \
		--dir-spec=1
	# Through the block layer, as ever.
	n=$(light 8 2)
	dd if=/dev/urandom of=$T.big bs=1M count="$n" 2>/dev/null
	dd if=$T.big of=$DEV bs=1M oflag=direct 2>/dev/null || fail "dd"
	cmp -n $((n << 20)) $T.big $DEV || fail "dd round trip"
	unload
}

test_update() {
	load_fdp
	prep
	full=$(ruamw 2)
	write_pid 0 2
	write_pid 1 6
	expect_eq "$(ruamw 2)" $((full - 1)) "RUAMW of 2 after a write"
	nvme fdp update $DEV -p 2 || fail "RUH Update of 2"
	expect_eq "$(ruamw 2)" "$full" "RUAMW of 2 after its update"
	expect_eq "$(ruamw 6)" $((full - 1)) "RUAMW of 6 after 2's update"
	expect_eq "$(host_events)" 1 "host events after the update"
	expect_eq "$(u $T.ev 64 1)" 0 "event type (RU not fully written)"
	expect_eq "$(u $T.ev 66 2)" 2 "event placement id"
	# An update of a handle with a fresh unit: no event.
	nvme fdp update $DEV -p 2 || fail "second RUH Update of 2"
	expect_eq "$(host_events)" 1 "host events after a second update"
	# One bad identifier fails the command and changes nothing.
	expect_nvme_status 2 "RUH Update of 6 and 9" nvme fdp update $DEV -p 6,9
	expect_eq "$(ruamw 6)" $((full - 1)) "RUAMW of 6 after a refused update"
	nvme read $DEV -s 0 -c 0 -z 4096 -d $T.back >/dev/null ||
		fail "read back"
	cmp $T.pat $T.back || fail "data written before the update"
	# Raw commands: a management operation other than 1h, too long a list.
	expect_nvme_status 2 "I/O Management Receive MO 2" \
		nvme io-passthru $DEV -o 0x12 -n 1 --cdw10=2 --cdw11=3 -r -l 16
	expect_nvme_status 2 "I/O Management Send of 9 identifiers" \
		nvme io-passthru $DEV -o 0x1d -n 1 --cdw10=$((1 | 8 << 16)) \
		-l 18 -w -i /dev/zero
	unload
}

test_fdp_off() {
	load frontend=nvme size=64M
	wait_for $DEV
	prep
	nvme id-ctrl $CTRL -b >$T.idcb || fail "id-ctrl binary"
	ctratt=$(u $T.idcb 96 4)
	expect_eq $(((ctratt >> 19) & 1)) 0 "CTRATT.FDPS without fdp"
	expect_nvme_status 109 "configs without FDP (Invalid Log Page)" \
		nvme get-log $CTRL -i 0x20 -l 16 -S 1
	if nvme fdp configs $CTRL -e 1 >/dev/null 2>&1; then
		fail "nvme fdp configs without FDP succeeded"
	fi
	expect_nvme_status 2 "a placed write without FDP" \
		nvme write $DEV -s 0 -c 0 -z 4096 -d $T.pat --dir-type=2 \
		--dir-spec=0
	expect_nvme_status 1 "RUH Status without FDP (Invalid Opcode)" \
		nvme fdp status $DEV
	expect_nvme_status 2 "get-feature 1Dh without FDP" \
		nvme get-feature $CTRL -f 0x1d --cdw11=1
	unload
}

test_configfs() {
	load frontend=nvme size=64M
	mkdir $CFS/a $CFS/b || fail "mkdir"
	for d in a b; do
		echo nvme >$CFS/$d/frontend
		echo 64M >$CFS/$d/size
	done
	echo 1 >$CFS/b/fdp
	echo 2 >$CFS/b/fdp_ruhs
	expect_write_refused $CFS/a/fdp_ruhs 17 "fdp_ruhs=17: must be 1 to 16"
	echo 1 >$CFS/a/power || fail "power a"
	echo 1 >$CFS/b/power || fail "power b"
	sleep 1
	n=0
	for c in /dev/nvme[0-9]; do
		if nvme fdp configs "$c" -e 1 -b >$T.cfg 2>/dev/null; then
			expect_eq "$(u $T.cfg 24 2)" 2 "NRUH of the configfs device"
			n=$((n + 1))
		fi
	done
	expect_eq "$n" 1 "controllers with FDP"
	rmdir $CFS/a $CFS/b
	unload
}

test_bad_params() {
	expect_load_error "$EINVAL" "fdp=2: must be 0 or 1" \
		frontend=nvme size=64M fdp=2
	expect_load_error "$EINVAL" "fdp_ruhs=0: must be 1 to 16" \
		frontend=nvme size=64M fdp=1 fdp_ruhs=0
	expect_load_error "$EINVAL" "fdp_ruhs=17: must be 1 to 16" \
		frontend=nvme size=64M fdp=1 fdp_ruhs=17
	expect_load_error "$EINVAL" "fdp=1: not with zoned=1" \
		frontend=nvme size=64M fdp=1 zoned=1
}

# put FILE OFFSET BYTES VALUE: VALUE little-endian at OFFSET of FILE
put() {
	local i=0 v=$4 esc=""

	# Each byte's three octal digits by arithmetic, not a printf per byte.
	while [ $i -lt "$3" ]; do
		esc="$esc\\$(((v >> 6) & 3))$(((v >> 3) & 7))$((v & 7))"
		v=$((v >> 8))
		i=$((i + 1))
	done
	printf "$esc" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# create_ph BLOCKS [RUHID...]: Namespace Management create of BLOCKS
# 4 KiB blocks with a Placement Handle List of the RUHIDs given (NPHNDLS
# at byte 392, the list from byte 512; nvme-cli 2.3's create-ns has no
# --nphndls/--phndls), through admin-passthru. Prints the command's
# output: its result is the new NSID.
create_ph() {
	local blocks=$1 i=0 r
	shift
	head -c 4096 /dev/zero >$T.ns
	put $T.ns 0 8 "$blocks"
	put $T.ns 8 8 "$blocks"
	put $T.ns 392 2 $#
	for r in "$@"; do
		put $T.ns $((512 + 2 * i)) 2 "$r"
		i=$((i + 1))
	done
	nvme admin-passthru $CTRL --opcode=0x0d --cdw10=0 --data-len=4096 \
		-i $T.ns -w 2>&1
}

# new_ns BLOCKS [RUHID...]: create_ph, then attach; the NSID in NEW_NSID
# (nvme-cli 2.x prints "... is Success and result: 0x00000002")
new_ns() {
	local out hex
	out=$(create_ph "$@") || fail "create $*: $out"
	hex=$(echo "$out" | sed -n 's/.*result: *\(0x\)\{0,1\}\([0-9a-fA-F]*\).*/\2/p')
	[ -n "$hex" ] || fail "create $*: no result in: $out"
	NEW_NSID=$((0x$hex))
	[ "$NEW_NSID" -gt 1 ] || fail "create $*: NSID $NEW_NSID in: $out"
	nvme attach-ns $CTRL --namespace-id="$NEW_NSID" --controllers=1 \
		>/dev/null || fail "attach-ns $NEW_NSID"
	wait_for ${CTRL}n$NEW_NSID
}

# ph NAME H: placement/handle<H>_NAME of the device
ph() {
	cat /sys/class/vflash/vflash0/placement/handle$2_$1
}

# Per-namespace Placement Handle Lists (create NPHNDLS and the list):
# namespace 2 gets reclaim unit handle 3 alone, namespace 3 handle 5;
# both write with placement identifier 0, and each handle's own host and
# media pages grow while handle 0's (identifier 0 of namespace 1) stay
# put: tenant isolation. RUH Status and log 21h show each list; a bad
# list is Invalid Placement Handle List (2Ah) with DNR and allocates
# nothing; nvme-cli's create-ns (no list) gets handle 0 alone.
test_ns_placement() {
	local n2 n3 h0 m0 h3 m3 h5 m5 i n out
	load_fdp ns1_size=64M
	prep
	new_ns 8192 3
	n2=$NEW_NSID
	new_ns 8192 5
	n3=$NEW_NSID
	expect_eq "$n2 $n3" "2 3" "NSIDs made"
	nvme fdp status ${CTRL}n2 -b >$T.st || fail "RUH Status of n2"
	expect_eq "$(u $T.st 14 2)" 1 "n2's placement handles"
	expect_eq "$(u $T.st 16 2)" 0 "n2's PID 0"
	expect_eq "$(u $T.st 18 2)" 3 "n2's PID 0 is RUH 3"
	nvme fdp status ${CTRL}n3 -b >$T.st || fail "RUH Status of n3"
	expect_eq "$(u $T.st 18 2)" 5 "n3's PID 0 is RUH 5"
	nvme fdp status $DEV -b >$T.st || fail "RUH Status of n1"
	expect_eq "$(u $T.st 14 2)" 8 "n1's placement handles"
	h0=$(ph host_pages 0) m0=$(ph media_pages 0)
	h3=$(ph host_pages 3) m3=$(ph media_pages 3)
	h5=$(ph host_pages 5) m5=$(ph media_pages 5)
	dd if=/dev/urandom of=$T.big bs=64k count=1 2>/dev/null
	for i in 0 16 32 48; do
		for n in 2 3; do
			nvme write ${CTRL}n$n -s $i -c 15 -z 65536 -d $T.big \
				--dir-type=2 --dir-spec=0 >/dev/null ||
				fail "placed write to n$n at $i"
		done
	done
	nvme flush ${CTRL}n2 >/dev/null || fail "flush n2"
	nvme flush ${CTRL}n3 >/dev/null || fail "flush n3"
	expect_eq $(($(ph host_pages 3) - h3)) 64 "RUH 3's host pages (n2)"
	expect_eq $(($(ph host_pages 5) - h5)) 64 "RUH 5's host pages (n3)"
	expect_eq $(($(ph host_pages 0) - h0)) 0 "RUH 0's host pages"
	[ $(($(ph media_pages 3) - m3)) -ge 64 ] ||
		fail "RUH 3's media pages: $(($(ph media_pages 3) - m3))"
	[ $(($(ph media_pages 5) - m5)) -ge 64 ] ||
		fail "RUH 5's media pages: $(($(ph media_pages 5) - m5))"
	expect_eq $(($(ph media_pages 0) - m0)) 0 "RUH 0's media pages"
	nvme read ${CTRL}n3 -s 16 -c 15 -z 65536 -d $T.back >/dev/null ||
		fail "read back n3"
	cmp $T.big $T.back || fail "n3's data"
	# Bad lists: a handle past NRUH, one twice, more than NRUH; none
	# allocates an NSID.
	expect_nvme_status 2a "a list naming RUH 8 of 8" create_ph 256 8
	expect_nvme_status 2a "a list naming RUH 1 twice" create_ph 256 1 1
	expect_nvme_status 2a "a list of 9 handles" \
		create_ph 256 0 1 2 3 4 5 6 7 0
	# nvme-cli's own create-ns, no list: the controller's handle 0.
	out=$(nvme create-ns $CTRL --nsze=256 --ncap=256 --flbas=0 2>&1) ||
		fail "create-ns: $out"
	expect_match "$out" "created nsid:4" "create-ns without a list"
	nvme attach-ns $CTRL --namespace-id=4 --controllers=1 >/dev/null ||
		fail "attach-ns 4"
	wait_for ${CTRL}n4
	nvme fdp status ${CTRL}n4 -b >$T.st || fail "RUH Status of n4"
	expect_eq "$(u $T.st 14 2)" 1 "n4's placement handles"
	expect_eq "$(u $T.st 18 2)" 0 "n4's PID 0 is RUH 0"
	# Log 21h: namespace 1's list names all 8 (host specified).
	nvme fdp usage $CTRL -e 1 -b >$T.us || fail "RUH usage"
	expect_eq "$(u $T.us 0 2)" 8 "NRUH in log 21h"
	expect_eq "$(u $T.us 8 1)" 1 "RUH 0's attributes"
	# Log 20h: NNSS, every namespace the controller can make.
	nvme fdp configs $CTRL -e 1 -b >$T.cfg || fail "configs"
	expect_eq "$(u $T.cfg 28 4)" 32 NNSS
	unload
}

# Thousands of random commands, FDP ones among them (logs, features, I/O
# Management, placed writes): each gets a status, nothing times out, and
# afterwards fio verify passes and every handle still takes writes. A
# light run fuzzes 5 s (the debug kernel's 10 s made under a thousand
# commands) and verifies 4 MiB.
test_fuzz() {
	local seed h
	load_fdp
	dmesg -c >/dev/null
	seed=$(date +%s)
	nvme_fuzz fuzz $CTRL /dev/ng0n1 -s "$seed" -n 20000 -t "$(light 10 5)" ||
		fail "nvme_fuzz on /dev/ng0n1 (seed $seed)"
	! dmesg | grep -Ei 'timeout|resetting|failed' ||
		fail "the driver complained during the fuzz"
	fio --name=verify --filename=$DEV --ioengine=libaio --direct=1 \
		--rw=randwrite --bs=16k --iodepth=8 --size="$(light 16M 4M)" --verify=crc32c \
		--do_verify=1 --verify_fatal=1 --output-format=terse \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "fio verify"; }
	dd if=/dev/urandom of=/tmp/blk bs=4096 count=1 2>/dev/null
	for h in 0 1 7; do
		nvme write $DEV --start-block=$((100 + h)) --block-count=0 \
			--data-size=4096 --data=/tmp/blk --dir-type=2 \
			--dir-spec=$h >/dev/null || fail "placed write, handle $h"
	done
	unload
}

# make study-fdp at its tiny scale (one seed, 32 MiB, 1x the LBAs): the
# load runs in both modes and the study's mechanism checks pass: with FDP
# each handle's placement/handle<N>_host_pages is exactly the writes its
# tenant issued and handle 0 took none; without, handle 0 took them all.
test_study() {
	/vflash/bench/study/fdp.sh -k "$KO" -o /tmp/study-fdp -s tiny -S 1 ||
		fail "fdp.sh exited $?"
	expect_eq "$(grep -c "^PASS" /tmp/study-fdp/checks.txt)" 8 "mechanism checks passed"
	expect_eq "$(wc -l </tmp/study-fdp/fdp.csv)" 3 "rows of fdp.csv (header and two runs)"
}

# fdp_state: FDP as the host sees it (RUH Status, the usage, statistics
# and both event logs, binary), and the data
fdp_state() {
	local log

	nvme fdp status $DEV -b | md5sum
	for log in usage stats; do
		nvme fdp $log $CTRL -e 1 -b | md5sum
	done
	nvme fdp events $CTRL -e 1 -b | md5sum
	nvme fdp events $CTRL -e 1 -E -b | md5sum
	dev_sum
}

# fdp_work: the counters a seeded fdpload decides (cleaning inline, so
# not the host's pace), FDP's statistics and RUH Status
fdp_work() {
	local s

	for s in host_write_pages nand_program_pages nand_erase_blocks gc_runs \
		gc_copied_pages write_amplification; do
		echo "$s $(cat $SYS/stats/$s)"
	done
	nvme fdp stats $CTRL -e 1 -b | md5sum
	nvme fdp status $DEV -b | md5sum
}

# What a drive keeps across a power cycle comes back after a hold, and
# through an image into a new device (docs/images.md): reclaim units
# part written by three tenants' placed writes, GC's Media Reallocated
# events, a host event, an event type disabled on one handle. The same
# seeded load continued on the saved device and on the restored one
# gives the same counters.
test_state_kept() {
	set -- frontend=nvme profile=tlc size=16M channels=2 dies_per_channel=1 \
		page_size=4096 pages_per_block=64 op_percent=7 fdp=1 fdp_ruhs=4
	load "$@"
	wait_for $DEV
	echo inline >$SYS/policy/maintenance || fail "maintenance=inline"
	prep
	fdpload --fdp --seed 2 --writes "$(light 4096 1024)" --read-every 0 \
		$DEV >$T.load || fail "fdpload"
	write_pid 20 8
	nvme fdp set-events $DEV -p 2 -t 128 || fail "set-events 80h off"
	expect_eq "$(host_events)" 1 "host events"
	fdp_state >$T.state0
	hold_nvme
	echo running >$SYS/state || fail "state=running"
	wait_for $DEV
	fdp_state >$T.state1
	diff $T.state0 $T.state1 || fail "FDP after a hold"
	hold_nvme
	save_image
	echo running >$SYS/state || fail "state=running after the save"
	wait_for $DEV
	fdpload --fdp --seed 3 --writes 512 --read-every 0 $DEV >$T.load ||
		fail "fdpload after the save"
	fdp_work >$T.work0
	unload
	restore_image "$@"
	grep -q '\[inline\]' $SYS/policy/maintenance ||
		fail "maintenance policy not restored: $(cat $SYS/policy/maintenance)"
	echo running >$SYS/state || fail "running after the restore"
	wait_for $DEV
	fdp_state >$T.state2
	diff $T.state0 $T.state2 || fail "FDP after a restore"
	fdpload --fdp --seed 3 --writes 512 --read-every 0 $DEV >$T.load ||
		fail "fdpload after the restore"
	fdp_work >$T.work1
	cat $T.work1
	diff $T.work0 $T.work1 || fail "the same load after the save and the restore"
	# Regression: instant preconditioning reset the per-handle counters
	# FDP's events are the increments of, and the next look reported a
	# Media Reallocated event of 2^64 - N pages. The replay is no host's
	# history: no controller event comes of it.
	nvme fdp events $CTRL -e 1 -b | md5sum >$T.cev0
	hold_nvme
	echo "workload=random written=150" >$SYS/precondition ||
		fail "precondition"
	echo running >$SYS/state || fail "running after the precondition"
	wait_for $DEV
	sleep 1
	nvme fdp events $CTRL -e 1 -b | md5sum >$T.cev1
	diff $T.cev0 $T.cev1 || fail "controller events after a precondition"
	unload
	# Another block size (the flash model the same): one line, and
	# nothing changed.
	load hold=1 "$@" lba_size=512
	dmesg -c >/dev/null
	if dd if=$IMG of=$SYS/image bs=64k 2>/dev/null; then
		fail "an image of 4 KiB blocks into 512-byte ones"
	fi
	expect_eq "$(dmesg | grep -c 'image:')" 1 "dmesg lines"
	dmesg | grep 'image:' | grep -q 'nvme: lba_size=4096, this device 512' ||
		fail "no line naming lba_size: $(dmesg | grep 'image:')"
	expect_eq "$(cat $SYS/stats/host_write_pages)" 0 \
		"host writes of the device as made"
	unload
	expect_gone
}

run_test_full_debug discovery "every load_fdp's Identify, ctrl_events' FDP events log, placed_writes' reclaim unit status, and fuzz" test_discovery
run_test_full_debug features "ctrl_events (the FDP events feature), and fuzz (random Get and Set Features on an FDP controller)" test_features
run_test placed_writes test_placed_writes
run_test_full_debug update "placed_writes (reclaim unit status after placed writes) and ctrl_events" test_update
run_test ctrl_events test_ctrl_events
run_test_full_debug ns_placement "placed_writes and the ns suite run its paths" test_ns_placement
run_test_full_debug fdp_off "every device of the other suites (FDP off)" test_fdp_off
run_test configfs test_configfs
run_test bad_params test_bad_params
run_test fuzz test_fuzz
run_test_full_debug state_kept "image_dual and powercut's cut_after_restore run the hold, the kept controller and its image" test_state_kept
# Under the debug kernel (CI's time; 97 s of its 316): the study drives
# the load placed_writes, update and fuzz already run there.
run_test_not_debug study "placed_writes, ctrl_events and fuzz run its paths" test_study
