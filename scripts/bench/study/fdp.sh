#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
#
# The FDP study (docs/studies.md, "study-fdp"): three tenants of different
# data lifetimes write one namespace (scripts/bench/study/fdpload.c: hot 10 % of
# the LBAs taking 60 % of the writes, warm 30 %/30 %, cold 60 %/10 %
# sequential), once with every write on the default handle (fdp=0, the
# tenants' data mixed in the erase blocks) and once with each tenant on
# its own reclaim unit handle (fdp=1), and compares write amplification
# (the device's and, with FDP, each handle's), GC work and read tails.
#
# Per mode and seed: load vflash (frontend=nvme, profile tlc with 256 KiB
# blocks), run the
# load, read the counters, unload. Output in OUT: fdp.csv (one row per
# run) and checks.txt (the mechanism checks: with FDP, each handle's
# host pages are exactly its tenant's writes and handle 0 took none;
# without, handle 0, the only one, took them all).
# scripts/bench/study/report-fdp.py makes the table and the plot.
#
# Exit status: 0; 1 if a mechanism check failed (the study is broken, not
# a result); 2 on bad usage; 3 if vflash or the load failed.

usage() {
	cat <<EOF
usage: $0 [-k KO] [-o OUT] [-s full|tiny] [-S "SEEDS"] [-a "MODULE PARAMS"]
  -k KO      vflash.ko to load (default ./vflash.ko); vflash must not be
             loaded when the study starts
  -o OUT     output directory (default ./study-fdp)
  -s SCALE   full: a 128 MiB device, writes 3x its LBAs after the fill
             tiny: 32 MiB, 1x (make check's smoke test)
  -S SEEDS   load seeds, one repetition each (default "1 2 3")
  -a PARAMS  more module parameters (e.g. "cpus=3 spin_us=500")
EOF
}

KO=./vflash.ko
OUT=./study-fdp
SCALE=full
SEEDS="1 2 3"
PARAMS=
# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../../helpers.sh"
DIE_PREFIX=fdp.sh
DIE_STATUS=3
while getopts k:o:s:S:a:h opt; do
	case $opt in
	S) SEEDS=$OPTARG ;;
	a) PARAMS=$OPTARG ;;
	*) common_opt "$opt" ;;
	esac
done
case $SCALE in
full)
	SIZE_MB=128
	MULT=3
	;;
tiny)
	SIZE_MB=32
	MULT=1
	;;
*)
	usage >&2
	exit 2
	;;
esac

# tlc's 8 MiB erase blocks would give a 128 MiB device 6 blocks a die,
# most of them the streams' open blocks and GC's reserve: ~3.5x the
# capacity in flash, and no GC to speak of (a 256 MiB trial: 48 erases
# for 262144 writes). 256 KiB blocks (4 KiB pages,
# 64 a block) and 7 % over-provisioning make GC the device's work; each
# FDP handle still adds an open block a die (12 MiB with 4 handles).
GEOMETRY="page_size=4096 pages_per_block=64 op_percent=7"

SYS=/sys/class/vflash/vflash0
ph_of() { cat "$SYS/placement/handle$1_$2"; }

# find_ns
# shellcheck source=scripts/bench/study/nvme-ns.sh
. "$(dirname "$0")/nvme-ns.sh"

# check MODE SEED WHAT GOT WANT: record a mechanism check
check() {
	if [ "$4" = "$5" ]; then
		echo "PASS $1 seed $2: $3 $4" >>"$OUT/checks.txt"
	else
		echo "FAIL $1 seed $2: $3 is $4, want $5" >>"$OUT/checks.txt"
		FAILED=1
	fi
}

val() { sed -n "s/^$1 //p" "$OUT/load.out"; }
ratio() { awk -v v="$1" 'BEGIN { printf "%.3f", v / 1000 }'; }

mkdir -p "$OUT" || die "cannot make $OUT"
: >"$OUT/checks.txt"
FAILED=0
echo "mode,seed,lbas,writes,waf,gc_runs,gc_copied_pages,nand_erase_blocks,hot_waf,warm_waf,cold_waf,read_p50_us,read_p99_us,read_p999_us" >"$OUT/fdp.csv"
for seed in $SEEDS; do
	for mode in nofdp fdp; do
		fdp=0
		[ $mode = fdp ] && fdp="1 fdp_ruhs=4"
		# shellcheck disable=SC2086 # PARAMS and fdp are word lists
		insmod "$KO" frontend=nvme profile=tlc size="${SIZE_MB}M" $GEOMETRY fdp=$fdp $PARAMS ||
			die "insmod $KO failed"
		ns=$(find_ns) || die "no vflash namespace"
		lbas=$((SIZE_MB * 256))
		flag=
		[ $mode = fdp ] && flag=--fdp
		# shellcheck disable=SC2086 # flag is empty or one word
		fdpload $flag --seed "$seed" --writes $((MULT * lbas)) "$ns" >"$OUT/load.out" ||
			die "fdpload failed ($mode, seed $seed)"
		writes=$(($(val writes_hot) + $(val writes_warm) + $(val writes_cold)))
		check $mode "$seed" host_write_pages "$(stat_of host_write_pages)" $writes
		hot=- warm=- cold=-
		if [ $mode = fdp ]; then
			check $mode "$seed" handle0_host_pages "$(ph_of 0 host_pages)" 0
			check $mode "$seed" handle1_host_pages "$(ph_of 1 host_pages)" "$(val writes_hot)"
			check $mode "$seed" handle2_host_pages "$(ph_of 2 host_pages)" "$(val writes_warm)"
			check $mode "$seed" handle3_host_pages "$(ph_of 3 host_pages)" "$(val writes_cold)"
			hot=$(ratio "$(ph_of 1 write_amplification)")
			warm=$(ratio "$(ph_of 2 write_amplification)")
			cold=$(ratio "$(ph_of 3 write_amplification)")
		else
			# One stream: handle 0 took every write.
			check $mode "$seed" handle0_host_pages "$(ph_of 0 host_pages)" $writes
			check $mode "$seed" "placement files" "$(find "$SYS/placement" -type f | wc -l)" 3
		fi
		echo "$mode,$seed,$lbas,$writes,$(ratio "$(stat_of write_amplification)"),$(stat_of gc_runs),$(stat_of gc_copied_pages),$(stat_of nand_erase_blocks),$hot,$warm,$cold,$(awk -v a="$(val read_p50_ns)" -v b="$(val read_p99_ns)" -v c="$(val read_p999_ns)" 'BEGIN { printf "%.1f,%.1f,%.1f", a / 1e3, b / 1e3, c / 1e3 }')" >>"$OUT/fdp.csv"
		rmmod vflash || die "rmmod vflash failed"
	done
done
cat "$OUT/checks.txt"
exit $FAILED
