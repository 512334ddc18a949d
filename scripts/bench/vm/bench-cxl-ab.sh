# SPDX-License-Identifier: GPL-2.0
# The zero-time CXL miss of two builds side by side in one boot:
#   VMTEST_BASE_KO=OLD/vflash.ko scripts/vmtest.sh bench-cxl-ab
# Per round: devdax first touch, then for /vflash/base.ko and
# /vflash/vflash.ko alternately the zero-time miss (bench-cxl's
# miss-overhead run: profile=cylon, every latency knob at 0, 4x the cache
# in random order) with 1 and 2 threads; "BENCH" lines with each p50 and
# at the end the medians of the per-round ratios. TCG's timing of a miss
# swings round to round: only the ratios of one round, and their medians,
# mean anything. Not a test: outside scripts/vm/suites/.
# vmtest-mem: 6G
# vmtest-smp: 2
# vmtest-append: memmap=1G!4G
# vmtest-timeout: 1200

AB_ROUNDS=5
SYS=/sys/class/vflash/vflash0
ZERO_KNOBS="slc_read_ns main_read_ns qlc_read_l_ns qlc_read_cl_ns
	qlc_read_cu_ns qlc_read_u_ns slc_prog_ns main_prog_ns slc_erase_ns
	main_erase_ns channel_xfer_ns host_xfer_ns fw_overhead_ns"
FT="--ws $((128 << 20)) --map-size $((128 << 20)) --first-touch"

# p50 KO THREADS: the zero-time miss p50 of module KO
p50() {
	local k line

	insmod "$1" frontend=cxl profile=cylon size=512M cache_size=32M ||
		fail "insmod $1"
	wait_for /dev/vflash0
	echo none >$SYS/policy/prefetch
	echo 100000 >$SYS/config/wait_spin_ns
	for k in $ZERO_KNOBS; do
		echo 0 >"$SYS/config/$k"
	done
	echo 1 >$SYS/config/precondition
	sleep 2
	# shellcheck disable=SC2086
	line=$(mmap_lat --target /dev/vflash0 $FT --threads "$2") ||
		fail "mmap_lat $1"
	rmmod vflash || fail "rmmod"
	echo "$line" | tr ' ' '\n' | sed -n 's/^p50_ns=//p'
}

median() {
	sort -n | awk '{ v[NR] = $1 }
		END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

bench_cxl_ab() {
	local i f dax b1 n1 b2 n2

	[ -f /vflash/base.ko ] || fail "no /vflash/base.ko (VMTEST_BASE_KO)"
	devdax >/dev/null
	for i in $(seq $AB_ROUNDS); do
		# shellcheck disable=SC2086
		dax=$(mmap_lat --target /dev/dax0.0 $FT | tr ' ' '\n' |
			sed -n 's/^p50_ns=//p')
		b1=$(p50 /vflash/base.ko 1)
		n1=$(p50 /vflash/vflash.ko 1)
		b2=$(p50 /vflash/base.ko 2)
		n2=$(p50 /vflash/vflash.ko 2)
		report "BENCH ab round $i: devdax_ft_p50=$dax base_1t=$b1 new_1t=$n1 base_2t=$b2 new_2t=$n2"
		echo "$b1 $dax" >>/tmp/ab-base-ovh
		echo "$n1 $dax" >>/tmp/ab-new-ovh
		echo "$b2 $b1" >>/tmp/ab-base-2t
		echo "$n2 $n1" >>/tmp/ab-new-2t
	done
	for f in base-ovh new-ovh base-2t new-2t; do
		report "BENCH ab median $f=$(awk '{ printf "%.3f\n", $1 / $2 }' /tmp/ab-$f | median)"
	done
}

run_test bench-cxl-ab bench_cxl_ab
