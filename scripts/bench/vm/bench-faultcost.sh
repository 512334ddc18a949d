# SPDX-License-Identifier: GPL-2.0
# `make bench-faultcost [BASE=REV]`: what fault injection (issue 14) costs
# the fast paths when nothing is armed, and when a rule that never fires
# is armed. Three arms, each loaded afresh for every measurement, in one
# boot:
#   base   /vflash/base.ko: vflash.ko of BASE (default 73267b7^, the
#          commit before core/faults.c), built on the host by
#          scripts/bench/baseline-ko.sh and carried by vmtest.sh
#          (VMTEST_BASE_KO)
#   head   /vflash/vflash.ko, nothing armed
#   armed  /vflash/vflash.ko with one rule armed that never fires: NVMe
#          read_error on every block with probability 0 (every read is
#          matched and counted, none fails); CXL poison on the device's
#          last 256 pages, outside every working set below
# The arms take turns, FC_ROUNDS rounds each, the order reversed every
# other round (base head armed, armed head base, ...), so that a drift
# of the host's load falls on every arm alike.
#   NVMe (frontend=nvme profile=tlc size=256M, the device's threads on the
#   last vCPU with spin_us=500, as bench-nvme; fio on the other vCPUs),
#   the whole device written first (128 KiB, QD32): fio 4 KiB random
#   reads, QD1 (psync: median latency, IOPS) and QD32 (libaio: IOPS).
#   CXL (frontend=cxl profile=cylon size=256M cache_size=16M, every
#   latency knob 0, so that the fault path's own time is all a miss costs;
#   prefetch none; preconditioned): mmap_lat --first-touch over 4x the
#   cache right after the load (every access a miss through vfc_fault(),
#   where the poison check is: p50, p99, and vflash's own miss p50), then
#   random loads over half the cache, warmed, --untimed (hits: native
#   loads that never enter vflash; Mops, the median of 3 runs). Latencies
#   in us.
# Only parameters both modules accept (BASE's core/params.c has the same
# module parameters as today's).
# Not a test: it lives outside scripts/vm/suites/, so `make check` skips
# it. The report goes to the results port as "BENCH " lines: per metric
# and arm the median over the rounds and the rounds' min-max, the ratios
# head/base and armed/base of the medians, and the base rounds' own
# spread (min/median-max/median) to judge them against.
# vmtest-mem: 4G
# vmtest-smp: 4
# vmtest-timeout: 1800
# (busybox sh; no "local": the functions share these globals: arm, round,
# r, line, k, i, hits)

FC_ROUNDS=6
FC_RUNTIME=3		# seconds per fio job, after a 1 s ramp
FC_NV_SIZE=256M
FC_CX_SIZE=256M
FC_CX_CACHE=16M
FC_CX_MISS_WS=64M	# 4x the cache
FC_CX_PAGES=65536	# FC_CX_SIZE in 4 KiB pages
FC_SYS=/sys/class/vflash/vflash0
FC_FAULTS=/sys/class/vflash/vflash0/faults
FC_RAW=/tmp/faultcost.raw
FC_ZERO_KNOBS="slc_read_ns main_read_ns qlc_read_l_ns qlc_read_cl_ns
	qlc_read_cu_ns qlc_read_u_ns slc_prog_ns main_prog_ns slc_erase_ns
	main_erase_ns channel_xfer_ns host_xfer_ns fw_overhead_ns"

# fc_ko ARM: the module of the arm
fc_ko() {
	case $1 in
	base) echo /vflash/base.ko ;;
	*) echo "$KO" ;;
	esac
}

# fc_order ROUND: the arms in the order of that round
fc_order() {
	if [ $(($1 % 2)) -eq 1 ]; then
		echo base head armed
	else
		echo armed head base
	fi
}

# fc_record FRONTEND METRIC ARM ROUND VALUE
fc_record() {
	echo "$1 $2 $3 $4 $5" >>$FC_RAW
	echo "faultcost: $*"
}

# fc_arm FAULT RANGE: arm a rule of the loaded head module that never
# fires on the measured accesses (probability 0 for NVMe)
fc_arm() {
	[ -d $FC_FAULTS/"$1" ] || fail "no $FC_FAULTS/$1 (debugfs mounted?)"
	echo "$2" >$FC_FAULTS/"$1"/range || fail "faults/$1/range=$2"
	echo 1 >$FC_FAULTS/"$1"/armed || fail "faults/$1/armed=1"
}

# fc_fio TAG RW BS DEPTH ENGINE: one fio job on /dev/nvme0n1, on every
# vCPU but the device's; prints "IOPS P50_NS"
fc_fio() {
	fio --name="$1" --filename=/dev/nvme0n1 --rw="$2" --bs="$3" \
		--iodepth="$4" --ioengine="$5" --direct=1 --size=$FC_NV_SIZE \
		--time_based --runtime=$FC_RUNTIME --ramp_time=1 \
		--norandommap --randrepeat=0 --cpus_allowed="0-$(($(nproc) - 2))" \
		--lat_percentiles=1 --percentile_list=50:99 --output-format=json \
		--output="/tmp/fc-$1.json" >/dev/null || fail "fio $1"
	jq -r '.jobs[0] | if .error != 0 then "error" else
		"\(.read.iops) \(.read.lat_ns.percentile["50.000000"])" end' \
		"/tmp/fc-$1.json"
}

fc_nvme_one() {
	arm=$1
	round=$2
	insmod "$(fc_ko "$arm")" frontend=nvme profile=tlc size=$FC_NV_SIZE \
		cpus=$(($(nproc) - 1)) spin_us=500 || fail "insmod $arm nvme"
	wait_for /dev/nvme0n1
	if [ "$arm" = armed ]; then
		echo 0 >$FC_FAULTS/read_error/probability ||
			fail "faults/read_error/probability=0"
		fc_arm read_error all
	fi
	fio --name=precondition --filename=/dev/nvme0n1 --rw=write --bs=128k \
		--iodepth=32 --ioengine=libaio --direct=1 --size=$FC_NV_SIZE \
		--output-format=json --output=/tmp/fc-precondition.json \
		>/dev/null || fail "precondition"
	r=$(fc_fio qd1 randread 4k 1 psync)
	[ "$r" != error ] || fail "fio qd1 $arm"
	# shellcheck disable=SC2086 # two words
	set -- $r
	fc_record nvme qd1_iops "$arm" "$round" "$1"
	fc_record nvme qd1_p50_us "$arm" "$round" \
		"$(awk -v v="$2" 'BEGIN { printf "%.1f", v / 1000 }')"
	r=$(fc_fio qd32 randread 4k 32 libaio)
	[ "$r" != error ] || fail "fio qd32 $arm"
	# shellcheck disable=SC2086 # two words
	set -- $r
	fc_record nvme qd32_iops "$arm" "$round" "$1"
	if [ "$arm" = armed ]; then
		# The rule was armed all along and looked at every read.
		expect_eq "$(cat $FC_FAULTS/read_error/armed)" 1 "read_error armed"
		expect_eq "$(cat $FC_FAULTS/read_error/injected)" 0 "read_error injected"
		[ "$(cat $FC_FAULTS/read_error/matched)" -gt 0 ] ||
			fail "read_error matched no read"
		echo "faultcost: read_error matched $(cat $FC_FAULTS/read_error/matched) reads, injected 0"
	fi
	rmmod vflash || fail "rmmod vflash ($arm nvme)"
}

# fc_us LINE KEY: the value of KEY= (ns) in mmap_lat's LINE, in us
fc_us() {
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" |
		awk '{ printf "%.2f\n", $1 / 1000 }'
}

fc_cxl_one() {
	arm=$1
	round=$2
	hits=
	insmod "$(fc_ko "$arm")" frontend=cxl profile=cylon size=$FC_CX_SIZE \
		cache_size=$FC_CX_CACHE || fail "insmod $arm cxl"
	wait_for /dev/vflash0
	echo none >$FC_SYS/policy/prefetch
	for k in $FC_ZERO_KNOBS; do
		echo 0 >"$FC_SYS/config/$k" || fail "config/$k"
	done
	if [ "$arm" = armed ]; then
		fc_arm poison "$((FC_CX_PAGES - 256))-$((FC_CX_PAGES - 1))"
	fi
	echo 1 >$FC_SYS/config/precondition
	sleep 2
	echo 0 >$FC_SYS/stats/reset
	line=$(mmap_lat --target /dev/vflash0 --ws $FC_CX_MISS_WS --first-touch \
		--seed "$round") || fail "mmap_lat miss $arm"
	echo "faultcost: miss $arm: $line"
	fc_record cxl miss_p50_us "$arm" "$round" "$(fc_us "$line" p50_ns)"
	fc_record cxl miss_p99_us "$arm" "$round" "$(fc_us "$line" p99_ns)"
	fc_record cxl kmiss_p50_us "$arm" "$round" \
		"$(fc_us "x=$(cat $FC_SYS/stats/miss_latency_p50_ns)" x)"
	for i in 1 2 3; do
		line=$(mmap_lat --target /dev/vflash0 --ws 50% --cache $FC_CX_CACHE \
			--untimed --accesses 2000000 --seed "$i") ||
			fail "mmap_lat hit $arm"
		echo "faultcost: hit $arm: $line"
		hits="$hits $(echo "$line" | tr ' ' '\n' | sed -n 's/^mops=//p')"
	done
	fc_record cxl hit_mops "$arm" "$round" \
		"$(echo "$hits" | tr ' ' '\n' | sed '/^$/d' | sort -n | sed -n 2p)"
	if [ "$arm" = armed ]; then
		expect_eq "$(cat $FC_FAULTS/poison/armed)" 1 "poison armed"
		expect_eq "$(cat $FC_SYS/stats/fault_poison_signals)" 0 "poison signals"
	fi
	rmmod vflash || fail "rmmod vflash ($arm cxl)"
}

# The table: per metric and arm, the median and min-max of the rounds;
# head/base and armed/base of the medians; the base rounds' spread
# around their median; and the ratios to base within each round (the arms
# of a round ran minutes apart at most): their median and min-max.
fc_report() {
	sort -k1,1 -k2,2 -k3,3 -k5,5n $FC_RAW | awk -v rounds=$FC_ROUNDS '
	function f(x) {
		return x >= 100 ? sprintf("%.0f", x) : x >= 10 ? sprintf("%.1f", x) : sprintf("%.2f", x)
	}
	# the ratio ARM/base within each round: median [min-max]
	function perround(m, arm, r, n, x, i, j, t) {
		n = 0
		for (r = 1; r <= rounds; r++)
			if (byr[m " base", r] > 0 && (m " " arm, r) in byr)
				x[++n] = byr[m " " arm, r] / byr[m " base", r]
		if (!n)
			return "-"
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
				t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
			}
		return sprintf("%.3f [%.2f-%.2f]",
			n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2, x[1], x[n])
	}
	function med(key, n) {
		n = cnt[key]
		return n % 2 ? v[key, (n + 1) / 2] : (v[key, n / 2] + v[key, n / 2 + 1]) / 2
	}
	{
		key = $1 " " $2 " " $3
		v[key, ++cnt[key]] = $5 + 0
		byr[key, $4] = $5 + 0
		if (!($1 " " $2 in seen)) { seen[$1 " " $2] = 1; order[++nm] = $1 " " $2 }
	}
	END {
		printf "%-17s %-22s %-22s %-22s %-9s %-10s %-23s %s\n", "metric",
			"base median [min-max]", "head median [min-max]",
			"armed median [min-max]", "head/base", "armed/base",
			"base rounds/base median", "per round: head/base armed/base [min-max]"
		for (i = 1; i <= nm; i++) {
			m = order[i]
			line = ""
			for (a = 1; a <= 3; a++) {
				arm = a == 1 ? "base" : a == 2 ? "head" : "armed"
				k = m " " arm
				md[arm] = med(k)
				line = line sprintf("%-22s ", sprintf("%s [%s-%s]",
					f(md[arm]), f(v[k, 1]), f(v[k, cnt[k]])))
			}
			k = m " base"
			split(m, mm, " ")
			printf "%-17s %s%-9s %-10s %-23s %s %s\n", mm[1] "_" mm[2], line,
				md["base"] ? sprintf("%.3f", md["head"] / md["base"]) : "-",
				md["base"] ? sprintf("%.3f", md["armed"] / md["base"]) : "-",
				md["base"] ? sprintf("%.2f-%.2f", v[k, 1] / md["base"],
					v[k, cnt[k]] / md["base"]) : "-",
				perround(m, "head"), perround(m, "armed")
		}
	}'
}

bench_faultcost() {
	[ -f /vflash/base.ko ] || fail "no /vflash/base.ko (VMTEST_BASE_KO)"
	rm -f $FC_RAW
	report "BENCH faultcost: base.ko md5 $(md5sum </vflash/base.ko | cut -c1-12), head $(md5sum <"$KO" | cut -c1-12); $FC_ROUNDS rounds per arm, order alternated; $(nproc) vCPUs"
	for round in $(seq "$FC_ROUNDS"); do
		for arm in $(fc_order "$round"); do
			fc_nvme_one "$arm" "$round"
		done
	done
	for round in $(seq "$FC_ROUNDS"); do
		for arm in $(fc_order "$round"); do
			fc_cxl_one "$arm" "$round"
		done
	done
	echo "faultcost: raw results (frontend metric arm round value):"
	cat $FC_RAW
	fc_report >/tmp/faultcost.table
	cat /tmp/faultcost.table
	while IFS= read -r line; do
		report "BENCH $line"
	done </tmp/faultcost.table
	while read -r fe metric arm round value; do
		report "BENCH raw $fe $metric $arm round $round $value"
	done <$FC_RAW
}

run_test bench-faultcost bench_faultcost
