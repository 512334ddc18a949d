#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The seed's SLC/QLC maintenance study (Dac25_ae, ../shared/seeds/) on
# vflash's NVMe frontend, every variant chosen through sysfs from one build
# (docs/studies.md, "study-maintenance").
#
# Per variant and seed: load vflash (frontend=nvme profile=qlc-hybrid),
# precondition it under a fixed policy set (stripe, read-heat, inline:
# the whole device written once, sequentially, 1 MiB at QD1, then left
# to settle), switch to the variant's placement, migration, maintenance
# and max_defer_ns, prewarm with Zipf reads of the read region, then
# measure: Zipf 0.75 4 KiB reads at QD32 on the read region and, at the
# same time, Zipf 0.75 4 KiB writes at QD32 rate-limited on the write
# region; unload. The counters are reset after preconditioning and again
# after the prewarm, so the measured columns cover the measured phase.
#
# Output in OUT: maintenance-raw.csv (one row per run: fio's figures, the
# model's own read percentiles, the mechanism counters, the
# preconditioned state), maintenance-cdf.csv (read latency at fio's
# percentiles, per run), checks.txt (the mechanism checks), fio's JSON.
# scripts/bench/study/report-maintenance.py makes the table and the plots.
#
# Exit status: 0; 1 if a mechanism check failed (a FAIL line names the
# variant, the seed and the counter: the study is broken, not a result);
# 2 on bad usage; 3 if vflash or fio failed.

usage() {
	cat <<EOF
usage: $0 [-k KO] [-o OUT] [-s full|tiny] [-S "SEEDS"] [-V VARIANTS]
          [-w WRITE_IOPS] [-D NS] [-a "MODULE PARAMS"] [-l]
  -k KO        vflash.ko to load (default ./vflash.ko); vflash must not
               be loaded when the study starts
  -o OUT       output directory (default ./study-maintenance)
  -s SCALE     full: 1 GiB device, prewarm 5 s, measured 10 s (the study)
               tiny: 256 MiB, 1 s and 3 s (make check's smoke test)
  -S SEEDS     fio seeds, one repetition each (default "1 2 3")
  -V VARIANTS  comma-separated variant names (default: all; -l lists them)
  -w IOPS      the measured phase's write rate (default 2500: a tenth of
               the reads' volume at the VM's ~25 K read IOPS; 0: no writes)
  -D NS        max_defer_ns of every read-priority variant instead of its
               own (0: read-priority defers nothing, and the mechanism
               check fails: the smoke test proves it with this)
  -a PARAMS    more module parameters (e.g. "cpus=3 spin_us=500")
  -l           list the variants and exit
EOF
}

# name placement migration maintenance max_defer_ns seed-analogue
VARIANTS_TABLE="\
stripe-heat-inline	stripe	read-heat	inline	10000000	V1-plain
stripe-heat-bg	stripe	read-heat	background	10000000	-
stripe-heat-rp1	stripe	read-heat	read-priority	1000000	-
stripe-heat-rp10	stripe	read-heat	read-priority	10000000	-
affinity-heat-inline	die-affinity	read-heat	inline	10000000	-
affinity-heat-bg	die-affinity	read-heat	background	10000000	-
affinity-heat-rp1	die-affinity	read-heat	read-priority	1000000	-
affinity-heat-rp10	die-affinity	read-heat	read-priority	10000000	-
hotcold-heat-inline	hot-cold	read-heat	inline	10000000	V1-hot/cold
hotcold-heat-bg	hot-cold	read-heat	background	10000000	-
hotcold-heat-rp1	hot-cold	read-heat	read-priority	1000000	V2-hot/cold
hotcold-heat-rp10	hot-cold	read-heat	read-priority	10000000	V3-hot/cold
stripe-off-inline	stripe	off	inline	10000000	-
stripe-off-bg	stripe	off	background	10000000	-
stripe-off-rp1	stripe	off	read-priority	1000000	-
stripe-off-rp10	stripe	off	read-priority	10000000	-"

KO=./vflash.ko
OUT=./study-maintenance
SCALE=full
SEEDS="1 2 3"
VARIANTS=all
WRITE_IOPS=2500
PARAMS=""
DEFER=""

bad() {
	echo "maintenance.sh: $*" >&2
	usage >&2
	exit 2
}

while getopts :k:o:s:S:V:w:D:a:lh opt; do
	case $opt in
	k) KO=$OPTARG ;;
	o) OUT=$OPTARG ;;
	s) SCALE=$OPTARG ;;
	S) SEEDS=$OPTARG ;;
	V) VARIANTS=$OPTARG ;;
	w) WRITE_IOPS=$OPTARG ;;
	D) DEFER=$OPTARG ;;
	a) PARAMS=$OPTARG ;;
	l) echo "$VARIANTS_TABLE"; exit 0 ;;
	h) usage; exit 0 ;;
	:) bad "-$OPTARG needs a value" ;;
	*) bad "unknown option -$OPTARG" ;;
	esac
done
[ $OPTIND -gt $# ] || bad "unexpected argument '$(eval echo "\${$OPTIND}")'"

case $SCALE in
full) SIZE_MB=1024 PREWARM_S=5 MEASURE_S=10 ;;
tiny) SIZE_MB=256 PREWARM_S=1 MEASURE_S=3 ;;
*) bad "-s: unknown scale '$SCALE'" ;;
esac
case $WRITE_IOPS in
'' | *[!0-9]*) bad "-w: not a number of IOPS: '$WRITE_IOPS'" ;;
esac
case $DEFER in
*[!0-9]*) bad "-D: not a number of nanoseconds: '$DEFER'" ;;
esac
[ -n "$SEEDS" ] || bad "-S: no seeds"
for s in $SEEDS; do
	case $s in
	'' | *[!0-9]*) bad "-S: not a number: '$s'" ;;
	esac
done
[ -f "$KO" ] || bad "-k: no module $KO"
if [ "$VARIANTS" = all ]; then
	VARIANTS=$(echo "$VARIANTS_TABLE" | cut -f1 | tr '\n' ',')
fi
for v in $(echo "$VARIANTS" | tr ',' ' '); do
	echo "$VARIANTS_TABLE" | cut -f1 | grep -qx -- "$v" ||
		bad "-V: unknown variant '$v' (-l lists them)"
done
[ ! -d /sys/module/vflash ] || bad "vflash is loaded: unload it first"

# The read region is the first 3/4 of the device, the write region the rest.
READ_MB=$((SIZE_MB * 3 / 4))
WRITE_MB=$((SIZE_MB - READ_MB))
PERCENTILES="1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

SYS=/sys/class/vflash/vflash0
mkdir -p "$OUT" || exit 3
RAW=$OUT/maintenance-raw.csv
CDF=$OUT/maintenance-cdf.csv
CHECKS=$OUT/checks.txt
: >"$CHECKS"
failed=0

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../../helpers.sh"
DIE_PREFIX=maintenance.sh
DIE_STATUS=3
die_cleanup() {
	[ ! -d /sys/module/vflash ] || rmmod vflash
}

ms() {
	awk -v ns="$1" 'BEGIN { printf "%.3f", ns / 1e6 }'
}

# find_ns
# shellcheck source=scripts/bench/study/nvme-ns.sh
. "$(dirname "$0")/nvme-ns.sh"

# Wait until the device has stopped programming and erasing (the write
# buffer drained, maintenance done) for a second, at most 60 s.
settle() {
	local last now i=0

	last=x
	while [ $i -lt 60 ]; do
		now="$(stat_of nand_program_pages) $(stat_of nand_erase_blocks)"
		[ "$now" = "$last" ] && return 0
		last=$now
		sleep 1
		i=$((i + 1))
	done
	echo "maintenance.sh: the device did not settle in 60 s" >&2
}

set_policies() {
	echo "$1" >"$SYS/policy/placement" &&
		echo "$2" >"$SYS/policy/migration" &&
		echo "$3" >"$SYS/policy/maintenance" &&
		echo "$4" >"$SYS/config/max_defer_ns"
}

# check VARIANT SEED COUNTER VALUE OP BOUND: record a mechanism check
# (OP: -gt or -eq)
check() {
	if test "$4" "$5" "$6"; then
		echo "ok $1 seed $2: $3=$4 ($5 $6)" >>"$CHECKS"
	else
		echo "FAIL $1 seed $2: $3=$4, want $5 $6: the mechanism did not run" |
			tee -a "$CHECKS" >&2
		failed=1
	fi
}

echo "variant,placement,migration,maintenance,max_defer_ns,seed,read_iops,read_p50_ms,read_p99_ms,read_p999_ms,read_p9999_ms,write_iops,write_p99_ms,model_read_p99_ms,model_read_p999_ms,gc_runs,gc_copied_pages,migrated_pages,repromoted_pages,read_preempts,waf,nand_erase_blocks,write_buffer_stalls,prewarm_migrated,prewarm_repromoted,pre_programs,pre_erases,pre_gc_runs,pre_free_slc,pre_free_qlc" >"$RAW"
echo "variant,seed,percentile,latency_ms" >"$CDF"

run_one() {
	local name=$1 placement=$2 migration=$3 maint=$4 defer=$5 seed=$6
	local dev json pre pw_mig pw_rep wjob r

	# shellcheck disable=SC2086
	insmod "$KO" frontend=nvme profile=qlc-hybrid size="${SIZE_MB}M" $PARAMS ||
		die "insmod $KO failed"
	dev=$(find_ns) || die "no vflash namespace appeared"

	# Precondition: the same policies, the same writes, for every run.
	set_policies stripe read-heat inline 10000000 || die "cannot set policies"
	fio --name=init --filename="$dev" --ioengine=libaio --direct=1 \
		--rw=write --bs=1M --iodepth=1 --size="${SIZE_MB}M" \
		--output=/dev/null || die "fio: initialization writes"
	settle
	pre="$(stat_of nand_program_pages),$(stat_of nand_erase_blocks),$(stat_of gc_runs),$(stat_of free_blocks_slc),$(stat_of free_blocks_qlc)"
	echo 0 >"$SYS/stats/reset"

	set_policies "$placement" "$migration" "$maint" "$defer" ||
		die "cannot switch to $name"
	fio --name=prewarm --filename="$dev" --ioengine=libaio --direct=1 \
		--rw=randread --bs=4k --iodepth=32 --offset=0 --size="${READ_MB}M" \
		--random_distribution=zipf:0.75 --randseed="$seed" \
		--time_based --runtime="$PREWARM_S" --norandommap \
		--output=/dev/null || die "fio: prewarm"
	pw_mig=$(stat_of migrated_pages)
	pw_rep=$(stat_of repromoted_pages)
	echo 0 >"$SYS/stats/reset"

	json=$OUT/fio-$name-$seed.json
	wjob=""
	if [ "$WRITE_IOPS" -gt 0 ]; then
		wjob="--name=write --rw=randwrite --offset=${READ_MB}M --size=${WRITE_MB}M --rate_iops=$WRITE_IOPS"
	fi
	# shellcheck disable=SC2086
	fio --filename="$dev" --ioengine=libaio --direct=1 --bs=4k \
		--iodepth=32 --random_distribution=zipf:0.75 \
		--randseed="$seed" --norandommap --time_based \
		--runtime="$MEASURE_S" --percentile_list="$PERCENTILES" \
		--output-format=json --output="$json" \
		--name=read --rw=randread --offset=0 --size="${READ_MB}M" \
		$wjob || die "fio: measured phase"

	r=$(jq -r '[.jobs[0].read.iops,
		(.jobs[0].read.clat_ns.percentile | ."50.000000", ."99.000000",
		 ."99.900000", ."99.990000")] | @tsv' "$json" |
		awk '{ printf "%.0f,%.3f,%.3f,%.3f,%.3f", $1, $2 / 1e6,
			$3 / 1e6, $4 / 1e6, $5 / 1e6 }')
	if [ "$WRITE_IOPS" -gt 0 ]; then
		r="$r,$(jq -r '[.jobs[1].write.iops,
			.jobs[1].write.clat_ns.percentile."99.000000"] | @tsv' "$json" |
			awk '{ printf "%.0f,%.3f", $1, $2 / 1e6 }')"
	else
		r="$r,0,0"
	fi
	echo "$name,$placement,$migration,$maint,$defer,$seed,$r,$(ms "$(stat_of read_latency_p99_ns)"),$(ms "$(stat_of read_latency_p999_ns)"),$(stat_of gc_runs),$(stat_of gc_copied_pages),$(stat_of migrated_pages),$(stat_of repromoted_pages),$(stat_of read_preempts),$(awk -v w="$(stat_of write_amplification)" 'BEGIN { printf "%.3f", w / 1000 }'),$(stat_of nand_erase_blocks),$(stat_of write_buffer_stalls),$pw_mig,$pw_rep,$pre" >>"$RAW"
	jq -r --arg v "$name" --arg s "$seed" '.jobs[0].read.clat_ns.percentile |
		to_entries[] | [$v, $s, (.key | tonumber), (.value / 1e6)] | @csv' \
		"$json" | tr -d '"' >>"$CDF"

	# The mechanisms the variant names must have run.
	check "$name" "$seed" gc_runs "$(stat_of gc_runs)" -gt 0
	case $migration in
	read-heat)
		check "$name" "$seed" migrated_pages "$(stat_of migrated_pages)" -gt 0
		check "$name" "$seed" repromoted_pages_prewarm_and_measured \
			"$((pw_rep + $(stat_of repromoted_pages)))" -gt 0
		;;
	off)
		check "$name" "$seed" repromoted_pages_prewarm_and_measured \
			"$((pw_rep + $(stat_of repromoted_pages)))" -eq 0
		;;
	esac
	case $maint in
	read-priority)
		check "$name" "$seed" read_preempts "$(stat_of read_preempts)" -gt 0 ;;
	*)
		check "$name" "$seed" read_preempts "$(stat_of read_preempts)" -eq 0 ;;
	esac

	rmmod vflash || die "rmmod vflash failed"
}

t0=$(date +%s)
for seed in $SEEDS; do
	for v in $(echo "$VARIANTS" | tr ',' ' '); do
		# shellcheck disable=SC2046
		set -- $(echo "$VARIANTS_TABLE" | awk -v v="$v" '$1 == v')
		defer=$5
		[ "$4" != read-priority ] || defer=${DEFER:-$5}
		echo "maintenance.sh: $(($(date +%s) - t0)) s: $1 seed $seed"
		run_one "$1" "$2" "$3" "$4" "$defer" "$seed"
	done
done
echo "maintenance.sh: done in $(($(date +%s) - t0)) s; $(grep -c '^FAIL' "$CHECKS") failed mechanism checks"
exit $failed
