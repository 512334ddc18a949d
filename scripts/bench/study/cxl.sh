#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CXL-SSD cache study (issue 12, `make study-cxl`): eviction policy x
# prefetch policy x working-set size x access pattern x flash profile,
# each cell repeated once per seed, on vflash's CXL frontend
# (/dev/vflash0) driven by mmap_lat (scripts/tools/mmap_lat.c).
#
# One cell: policy/eviction and policy/prefetch set, then one mmap_lat run
# over a working set of WS x the cache (the first WS bytes of the device):
# if it fits the cache, a pass that touches every page once; then WARM x
# (working-set pages) untimed accesses of the pattern, stats/reset (mmap_lat --reset), then ACCESSES
# timed accesses of the pattern, WRITE_PCT percent of them stores. The
# cell's row holds mmap_lat's figures and every file of stats/ read right
# after the run: the counters cover the timed accesses only.
# vflash is loaded afresh (an empty cache) for every profile, seed,
# pattern and working set; the eviction x prefetch cells of that group run
# back to back on the same working set, so each of them but the first
# starts with the cache full of the working set's own pages (what a cold
# cache holds after the first pass anyway) and reaches its own policy's
# steady state in the warm-up. Loading the module takes about 0.5 s in
# the VM, more than most cells. Two things keep a cell from inheriting
# what the one before it did: each cell draws its own accesses (mmap_lat
# --seed from the seed and the cell's place in the group; the zipf
# pattern's hot pages, --perm-seed, come from the seed alone, so they
# are the same for the whole group), and lifo runs first after the load:
# lifo never evicts what it holds at the start, so after another policy's
# run it would keep that run's last pages, and with the same accesses
# replayed those are exactly the pages the next cell's timed accesses
# end on (seen: rand over 4x the cache, lifo hit 0.34-0.41 instead of
# 0.25).
#
# Mechanism checks, after every cell (and by -C on a whole CSV): a cell
# whose counters show that a mechanism never ran makes the script print
#   MECHANISM-FAIL <cell>: <counter>=<value> (<why>)
# and, at the end, exit 3. The rules: a working set larger than the cache
# must evict (evictions > 0) and miss (misses > 0); stores over a working
# set larger than the cache must write back (dirty_writebacks > 0);
# next-n or stride prefetch on a seq or stride scan over a working set
# larger than the cache must issue prefetches (prefetch_issued > 0).
#
# usage: scripts/bench/study/cxl.sh [options]
#   -k KO        vflash.ko to load (default ./vflash.ko)
#   -o DIR       output directory (default /tmp/vflash-study-cxl): cxl.csv
#                (one row per cell and seed), cxl.log (mmap_lat's lines),
#                mechanism.txt (the failed checks), kv.csv (kvstore part)
#   -p PROFILES  flash profiles (default "znand cylon")
#   -e POLICIES  eviction policies (default "fifo lifo clock lru s3fifo random")
#   -f POLICIES  prefetch policies (default "none next-n stride")
#   -a PATTERNS  access patterns: seq rand zipf stride (default all four)
#   -w FACTORS   working sets, as multiples of the cache (default "0.5 1 2 4")
#   -s SEEDS     one repetition per seed (default "1 2 3"); a seed fixes
#                every access of every cell (each cell its own sequence,
#                from the seed and the cell's place in its group)
#   -c CACHE     cache_size= (default 1M: 256 pages)
#   -S SIZE      size= (default: 16M, or 8x the cache if that is more)
#   -n ACCESSES  timed accesses per cell (default 1024)
#   -u WARM      warm-up accesses of the pattern, as a multiple of the
#                working set's pages (default 1), after the pass
#   -x PCT       stores, percent of the accesses (default 20)
#   -z THETA     Zipf exponent of the zipf pattern (default 0.99)
#   -t PAGES     stride of the stride pattern (default 8)
#   -d DEGREE    config/prefetch_degree (default 4, the module's)
#   -L PCT       config/cache_free_low_pct (default 4; the module's is 1)
#   -H PCT       config/cache_free_high_pct (default 10; the module's is 3):
#                prefetch only takes free slots (a demand miss leaves it
#                min(degree, free_high)), never evicts, and the
#                module's watermarks give a 256-page cache a pool of 4 to 8
#                slots, against a prefetch degree of 4 (a real cache of
#                GiBs has thousands); see docs/studies.md, study-cxl
#   -P NS        config/wait_spin_ns (default: the module's, 20000; the
#                VM study spins whole waits: 100000)
#   -A 0|1       pin (1, the default with two CPUs or more): the workload
#                to CPU 0 and vflash's evictor thread to the last CPU
#                (taskset), so that a workload spinning its NAND waits
#                never shares a CPU with the evictor that refills the
#                free pool
#   -m MAPTOOL   mmap_lat (default: mmap_lat in PATH, else scripts/tools/)
#   -K KVSTORE   kvstore binary for the YCSB part (default: kvstore in
#                PATH, else scripts/bench/study/kvstore; "none" skips the part)
#   -Y SPEC      the YCSB part (kvstore): "PROFILE HEAP RECORDS OPS MIXES
#                EVICTIONS PREFETCHES", lists ;-separated (default "cylon
#                4M 3000 2000 a;b;c;d fifo;lifo;clock;lru;s3fifo;random
#                none;next-n": 3000 records of 1000 bytes, about 3 MiB of
#                the 4 MiB heap in use, 3x the default cache)
#   -g tiny      a smoke-test scale: 512K cache, 512 accesses (options
#                given after it override it)
#   -I WHAT      test hook, to show the checks fail: "prefetch" runs every
#                cell with prefetch none, "evict" runs a working set of a
#                quarter of the cache, "writeback" runs no stores, while
#                the rows still name what was asked for
#   -C CSV       only check CSV's rows (exit 3 if a check fails)
#   -h           this text
#
# Needs root and a kernel that can load KO; vflash must not be loaded.
# POSIX sh: it runs in the project's VM (busybox) as on a real host.
set -eu

KO=./vflash.ko
OUT=/tmp/vflash-study-cxl
PROFILES="znand cylon"
EVICTIONS="fifo lifo clock lru s3fifo random"
PREFETCHES="none next-n stride"
PATTERNS="seq rand zipf stride"
FACTORS="0.5 1 2 4"
SEEDS="1 2 3"
CACHE=1M
SIZE=
ACCESSES=1024
WARM=1
WRITE_PCT=20
THETA=0.99
STRIDE=8
DEGREE=4
FREE_LOW=4
FREE_HIGH=10
PIN=
WAIT_SPIN=
MAPLAT=
KVSTORE=
YCSB="cylon 4M 3000 2000 a;b;c;d fifo;lifo;clock;lru;s3fifo;random none;next-n"
INJECT=
CHECK=
SYS=/sys/class/vflash/vflash0
DEV=/dev/vflash0

usage() {
	sed -n '4,/^set -eu/s/^# \{0,1\}//p' "$0" | sed '${/^$/d;}'
	exit "$1"
}

while getopts k:o:p:e:f:a:w:s:c:S:n:u:x:z:t:d:L:H:A:P:m:K:Y:g:I:C:h opt; do
	case $opt in
	k) KO=$OPTARG ;;
	o) OUT=$OPTARG ;;
	p) PROFILES=$OPTARG ;;
	e) EVICTIONS=$OPTARG ;;
	f) PREFETCHES=$OPTARG ;;
	a) PATTERNS=$OPTARG ;;
	w) FACTORS=$OPTARG ;;
	s) SEEDS=$OPTARG ;;
	c) CACHE=$OPTARG ;;
	S) SIZE=$OPTARG ;;
	n) ACCESSES=$OPTARG ;;
	u) WARM=$OPTARG ;;
	x) WRITE_PCT=$OPTARG ;;
	z) THETA=$OPTARG ;;
	t) STRIDE=$OPTARG ;;
	d) DEGREE=$OPTARG ;;
	L) FREE_LOW=$OPTARG ;;
	H) FREE_HIGH=$OPTARG ;;
	A) PIN=$OPTARG ;;
	P) WAIT_SPIN=$OPTARG ;;
	m) MAPLAT=$OPTARG ;;
	K) KVSTORE=$OPTARG ;;
	Y) YCSB=$OPTARG ;;
	g)
		[ "$OPTARG" = tiny ] || { echo "study-cxl: -g: only tiny" >&2; exit 2; }
		CACHE=512K
		ACCESSES=512
		;;
	I)
		case $OPTARG in
		prefetch|evict|writeback) INJECT=$OPTARG ;;
		*) echo "study-cxl: -I: prefetch, evict or writeback" >&2; exit 2 ;;
		esac
		;;
	C) CHECK=$OPTARG ;;
	h) usage 0 ;;
	*) echo "study-cxl: bad option (-h for help)" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "study-cxl: no arguments, only options: $*" >&2; exit 2; }

# The mechanism rules, an awk function over a row r[] (columns by name);
# it prints a MECHANISM-FAIL line per broken rule and returns their count.
RULES='
function fail(r, counter, why) {
	printf "MECHANISM-FAIL profile=%s seed=%s pattern=%s ws=%sx eviction=%s prefetch=%s: %s=%s (%s)\n",
		r["profile"], r["seed"], r["pattern"], r["ws_factor"],
		r["eviction"], r["prefetch"], counter, r[counter], why
	return 1
}
function check(r,    n, big) {
	n = 0
	big = r["ws_pages"] + 0 > r["cache_pages"] + 0
	if (big && r["evictions"] == 0)
		n += fail(r, "evictions", "a working set larger than the cache evicted nothing")
	if (big && r["misses"] == 0)
		n += fail(r, "misses", "a working set larger than the cache never missed")
	if (big && r["write_pct"] > 0 && r["dirty_writebacks"] == 0)
		n += fail(r, "dirty_writebacks", "stores over a working set larger than the cache wrote nothing back")
	if (big && r["prefetch"] != "none" &&
	    (r["pattern"] == "seq" || r["pattern"] == "stride") &&
	    r["prefetch_issued"] == 0)
		n += fail(r, "prefetch_issued", r["prefetch"] " prefetch on a " r["pattern"] " scan larger than the cache issued nothing")
	return n
}'

# check_rows CSV: the rules over every row of a CSV with its header;
# exit 3 if one is broken
check_rows() {
	awk -F, "$RULES"'
	NR == 1 { for (i = 1; i <= NF; i++) name[i] = $i; nf = NF; next }
	{
		split("", r)
		for (i = 1; i <= nf; i++) r[name[i]] = $i
		bad += check(r)
	}
	END { exit bad ? 3 : 0 }' "$1"
}

if [ -n "$CHECK" ]; then
	check_rows "$CHECK"
	exit
fi

# bad MESSAGE: a bad option, exit 2
bad() {
	echo "study-cxl: $*" >&2
	exit 2
}
# words_in LIST ALLOWED WHAT: every word of LIST is one of ALLOWED
words_in() {
	[ -n "$1" ] || bad "$3: empty list"
	for w in $1; do
		case " $2 " in
		*" $w "*) ;;
		*) bad "$3: unknown '$w' (one of: $2)" ;;
		esac
	done
}
# uint VALUE WHAT [MAX]: a decimal integer (at most MAX)
uint() {
	case $1 in
	'' | *[!0-9]*) bad "$2: not a number: '$1'" ;;
	esac
	[ -z "${3:-}" ] || [ "$1" -le "$3" ] || bad "$2: $1 is above $3"
}
words_in "$PROFILES" "qlc-hybrid samsung-970pro tlc optane cxdvirt-znand znand cylon zn540" "-p"
words_in "$EVICTIONS" "fifo lifo clock lru s3fifo random" "-e"
words_in "$PREFETCHES" "none next-n stride" "-f"
words_in "$PATTERNS" "seq rand zipf stride" "-a"
[ -n "$SEEDS" ] || bad "-s: no seed"
for v in $SEEDS; do uint "$v" "-s" 1000000; done
for v in $FACTORS; do
	echo "$v" | grep -Eq '^[0-9]+(\.[0-9]+)?$' || bad "-w: not a number: '$v'"
done
uint "$ACCESSES" -n
[ "$ACCESSES" -gt 0 ] || bad "-n: no accesses"
uint "$WARM" -u
uint "$WRITE_PCT" -x 100
uint "$STRIDE" -t
uint "$DEGREE" -d 64
uint "$FREE_LOW" -L 50
uint "$FREE_HIGH" -H 50
[ "$FREE_LOW" -le "$FREE_HIGH" ] || bad "-L $FREE_LOW is above -H $FREE_HIGH"
[ -z "$WAIT_SPIN" ] || uint "$WAIT_SPIN" -P
NCPU=$(nproc)
if [ -z "$PIN" ]; then
	PIN=0
	[ "$NCPU" -lt 2 ] || PIN=1
fi
case $PIN in
0) RUN= ;;
1)
	[ "$NCPU" -ge 2 ] || bad "-A 1: needs two CPUs"
	RUN="taskset -c 0"
	;;
*) bad "-A: 0 or 1" ;;
esac
echo "$THETA" | grep -Eq '^[0-9]+(\.[0-9]+)?$' || bad "-z: not a number: '$THETA'"

# kmod's, not busybox's (which retries a failed load, running init twice).
INSMOD=insmod
RMMOD=rmmod
[ ! -x /sbin/insmod ] || INSMOD=/sbin/insmod
[ ! -x /sbin/rmmod ] || RMMOD=/sbin/rmmod
LOADED=

# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../../helpers.sh"
DIE_PREFIX=study-cxl
die_cleanup() {
	[ -z "$LOADED" ] || $RMMOD vflash 2>/dev/null || true
}

if [ -z "$MAPLAT" ]; then
	MAPLAT=$(command -v mmap_lat || true)
	[ -n "$MAPLAT" ] || MAPLAT=$(dirname "$0")/../../tools/mmap_lat
fi
[ -x "$MAPLAT" ] || die "no mmap_lat ($MAPLAT): run make tools"
if [ -z "$KVSTORE" ]; then
	KVSTORE=$(command -v kvstore || true)
	[ -n "$KVSTORE" ] || KVSTORE=$(dirname "$0")/kvstore
fi
[ -f "$KO" ] || bad "no $KO"
[ ! -d /sys/module/vflash ] || bad "vflash is loaded: unload it first"

# bytes N[KMG]: N in bytes
bytes() {
	echo "$1" | awk '{ n = $1 + 0; u = substr($1, length($1));
		if (u == "K" || u == "k") n *= 1024;
		if (u == "M" || u == "m") n *= 1048576;
		if (u == "G" || u == "g") n *= 1073741824;
		printf "%d\n", n }'
}
CACHE_BYTES=$(bytes "$CACHE")
CACHE_PAGES=$((CACHE_BYTES / 4096))
if [ -z "$SIZE" ]; then
	SIZE=$((8 * CACHE_BYTES))
	[ "$SIZE" -ge 16777216 ] || SIZE=16777216
fi
SIZE_BYTES=$(bytes "$SIZE")
for f in $FACTORS; do
	awk -v f="$f" -v c="$CACHE_BYTES" -v s="$SIZE_BYTES" \
		'BEGIN { exit !(f > 0 && f * c + 256 * 4096 <= s) }' ||
		die "working set ${f}x the cache does not fit the device ($SIZE), with room for prefetch"
done

now_s() {
	cut -d' ' -f1 /proc/uptime
}

# vload PROFILE: vflash with an empty cache, preconditioned
vload() {
	n=0
	$INSMOD "$KO" frontend=cxl profile="$1" size="$SIZE" \
		cache_size="$CACHE" || die "insmod $KO profile=$1"
	LOADED=1
	while [ ! -c $DEV ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -c $DEV ] || die "$DEV did not appear"
	[ -z "$WAIT_SPIN" ] || echo "$WAIT_SPIN" >$SYS/config/wait_spin_ns ||
		die "config/wait_spin_ns=$WAIT_SPIN"
	echo "$DEGREE" >$SYS/config/prefetch_degree ||
		die "config/prefetch_degree=$DEGREE"
	# high first: low may not exceed it
	echo "$FREE_HIGH" >$SYS/config/cache_free_high_pct ||
		die "config/cache_free_high_pct=$FREE_HIGH"
	echo "$FREE_LOW" >$SYS/config/cache_free_low_pct ||
		die "config/cache_free_low_pct=$FREE_LOW"
	stats_files
	if [ "$PIN" = 1 ]; then
		for p in /proc/[0-9]*; do
			[ "$(cat "$p/comm" 2>/dev/null)" = vflash0-evict ] || continue
			taskset -p -c $((NCPU - 1)) "${p#/proc/}" >/dev/null ||
				die "cannot pin the evictor (${p#/proc/})"
			p=
			break
		done
		[ -z "$p" ] || die "no vflash0-evict thread to pin"
	fi
	echo 1 >$SYS/config/precondition
	# The programs it charged finish in model time (pages x tPROG /
	# dies: 13 ms for 16M on znand or cylon); wait them out.
	sleep 0.2
}

# Every file of stats/ but reset, sorted by name (the CSV's last columns)
STATS_FILES=
stats_files() {
	[ -z "$STATS_FILES" ] || return 0
	for f in "$SYS"/stats/*; do
		[ "${f##*/}" != reset ] || continue
		STATS_FILES="$STATS_FILES $f"
	done
}

mkdir -p "$OUT"
CSV=$OUT/cxl.csv
LOG=$OUT/cxl.log
MECH=$OUT/mechanism.txt
: >"$LOG"
: >"$MECH"
rm -f "$CSV"
HEAD="profile,seed,pattern,ws_factor,ws_pages,cache_pages,eviction,prefetch,write_pct,accesses,stores,hit_ratio,ops_per_s,elapsed_ns,user_p50_ns,user_p99_ns,user_p999_ns,present_pages"

ncells=0
for _ in $SEEDS; do for _ in $PROFILES; do for _ in $PATTERNS; do
	for _ in $FACTORS; do for _ in $EVICTIONS; do for _ in $PREFETCHES; do
		ncells=$((ncells + 1))
	done; done; done
done; done; done
echo "study-cxl: $ncells cells: seeds [$SEEDS] profiles [$PROFILES] patterns [$PATTERNS] ws [$FACTORS]x evictions [$EVICTIONS] prefetches [$PREFETCHES]"
echo "study-cxl: size=$SIZE cache=$CACHE_BYTES ($CACHE_PAGES pages) accesses=$ACCESSES warm=pass+${WARM}x write_pct=$WRITE_PCT zipf=$THETA stride=$STRIDE degree=$DEGREE free_pct=$FREE_LOW-$FREE_HIGH pin=$PIN wait_spin_ns=${WAIT_SPIN:-default}${INJECT:+ INJECT=$INJECT}"

# run_cell PROFILE SEED PATTERN FACTOR EVICTION PREFETCH CELLSEED
run_cell() {
	ws_pages=$(awk -v f="$4" -v c="$CACHE_PAGES" 'BEGIN { printf "%d\n", f * c }')
	run_pages=$ws_pages
	pf=$6
	wp=$WRITE_PCT
	case $INJECT in
	prefetch) pf=none ;;
	evict) run_pages=$((CACHE_PAGES / 4)) ;;
	writeback) wp=0 ;;
	esac
	echo "$5" >$SYS/policy/eviction || die "policy/eviction=$5"
	echo "$pf" >$SYS/policy/prefetch || die "policy/prefetch=$pf"
	# The pass over every page only where the working set fits: beyond
	# the cache it is one more scan that the pattern's warm-up undoes.
	extra=
	[ "$run_pages" -le "$CACHE_PAGES" ] || extra=--no-warm
	case $3 in
	zipf) extra="$extra --zipf $THETA" ;;
	stride) extra="$extra --stride $STRIDE" ;;
	esac
	# shellcheck disable=SC2086
	line=$($RUN "$MAPLAT" --target $DEV --ws $((run_pages * 4096)) \
		--mode "$3" $extra --accesses "$ACCESSES" \
		--warm-accesses $((WARM * run_pages)) --write-pct "$wp" \
		--reset $SYS/stats/reset --mincore --seed "$7" \
		--perm-seed $((2 * $2 + 1))) ||
		die "mmap_lat failed in cell $1 seed $2 $3 ${4}x $5 $6"
	# One awk for the row, the log line and the checks: every process
	# costs milliseconds in the VM.
	# shellcheck disable=SC2086
	awk -v line="$line" -v csv="$CSV" -v logf="$LOG" \
		-v meta="$1,$2,$3,$4,$ws_pages,$CACHE_PAGES,$5,$6,$WRITE_PCT" \
		-v mnames="$HEAD" "$RULES"'
	{ f = FILENAME; sub(/.*\//, "", f); st[++ns] = f; r[f] = $0 }
	END {
		nh = split(mnames, hn, ",")
		split(meta, mv, ",")
		n = split(line, kv, " ")
		for (i = 1; i <= n; i++) {
			split(kv[i], p, "=")
			m[p[1]] = p[2]
		}
		for (i = 1; i <= 9; i++) r[hn[i]] = mv[i]
		r["accesses"] = m["accesses"]
		r["stores"] = m["stores"]
		r["hit_ratio"] = sprintf("%.6f", 1 - r["misses"] / m["accesses"])
		r["ops_per_s"] = sprintf("%.0f", m["accesses"] * 1e9 / m["elapsed_ns"])
		r["elapsed_ns"] = m["elapsed_ns"]
		r["user_p50_ns"] = m["p50_ns"]
		r["user_p99_ns"] = m["p99_ns"]
		r["user_p999_ns"] = m["p999_ns"]
		r["present_pages"] = m["present_pages"]
		if ((getline tmp < csv) <= 0) {
			h = mnames
			for (i = 1; i <= ns; i++) h = h "," st[i]
			print h >> csv
		}
		close(csv)
		row = ""
		for (i = 1; i <= nh; i++) row = row (i > 1 ? "," : "") r[hn[i]]
		for (i = 1; i <= ns; i++) row = row "," r[st[i]]
		print row >> csv
		printf "%s | %s |", meta, line >> logf
		for (i = 1; i <= ns; i++) printf " %s=%s", st[i], r[st[i]] >> logf
		printf "\n" >> logf
		check(r)
	}' $STATS_FILES >"$OUT/.row.out"
	if [ -s "$OUT/.row.out" ]; then
		cat "$OUT/.row.out"
		cat "$OUT/.row.out" >>"$MECH"
	fi
}

# The YCSB part (scripts/bench/study/kvstore.c): a B+tree whose heap is a
# mapping of /dev/vflash0, larger than the cache, under YCSB's mixes, for
# each eviction and prefetch policy of -Y. One module load per seed and
# mix; the policy cells run back to back, each with its own load phase
# (which rewrites the whole heap: the warm-up). Rows go to kv.csv: the
# cell, kvstore's key=value pairs (ops_per_s, p50_ns, p99_ns, and the
# run phase's dev_* counter deltas), misses_per_op, and the cache's
# miss-latency percentiles (stats/ reset before the run: load and run).
run_kvstore() {
	if [ "$KVSTORE" = none ] || [ ! -x "$KVSTORE" ]; then
		echo "study-cxl: kvstore part skipped (no kvstore binary: ${KVSTORE})"
		return 0
	fi
	# shellcheck disable=SC2086
	set -- $YCSB
	[ $# -eq 7 ] || die "-Y: want PROFILE HEAP RECORDS OPS MIXES EVICTIONS PREFETCHES, got '$YCSB'"
	kprof=$1
	kheap=$(bytes "$2")
	krec=$3
	kops=$4
	kmixes=$(echo "$5" | tr ';' ' ')
	kevs=
	for ev in $(echo "$6" | tr ';' ' '); do
		case $ev in
		lifo) kevs="lifo $kevs" ;;
		*) kevs="$kevs $ev" ;;
		esac
	done
	kpfs=$(echo "$7" | tr ';' ' ')
	[ "$kheap" -le "$SIZE_BYTES" ] || die "-Y: heap $2 is larger than the device ($SIZE)"
	KV=$OUT/kv.csv
	rm -f "$KV"
	echo "study-cxl: kvstore part: $kprof heap=$kheap (cache $CACHE_BYTES) records=$krec ops=$kops mixes [$kmixes] evictions [$kevs] prefetches [$kpfs]"
	for seed in $SEEDS; do
		for mix in $kmixes; do
			vload "$kprof"
			for ev in $kevs; do
				for pf in $kpfs; do
					echo "$ev" >$SYS/policy/eviction || die "policy/eviction=$ev"
					echo "$pf" >$SYS/policy/prefetch || die "policy/prefetch=$pf"
					echo 0 >$SYS/stats/reset
					# shellcheck disable=SC2086
					line=$($RUN "$KVSTORE" --dev $DEV --heap "$kheap" \
						--records "$krec" --ops "$kops" --mix "$mix" \
						--seed "$seed") ||
						die "kvstore failed: $kprof seed $seed mix $mix $ev $pf"
					echo "kv $kprof $seed $mix $ev $pf: $line" >>"$LOG"
					awk -v line="$line" -v csv="$KV" \
						-v meta="$kprof,$ev,$pf,$kheap,$CACHE_PAGES" "$RULES"'
					{ f = FILENAME; sub(/.*\//, "", f); st[f] = $0 }
					END {
						n = split(line, kv, " ")
						h = "profile,eviction,prefetch,heap_bytes_mapped,cache_pages"
						row = meta
						for (i = 1; i <= n; i++) {
							split(kv[i], p, "=")
							h = h "," p[1]
							row = row "," p[2]
							m[p[1]] = p[2]
						}
						h = h ",misses_per_op,miss_p50_ns,miss_p99_ns"
						row = row "," sprintf("%.4f", m["dev_misses"] / (m["ops"] ? m["ops"] : 1)) \
							"," st["miss_latency_p50_ns"] "," st["miss_latency_p99_ns"]
						if ((getline tmp < csv) <= 0)
							print h >> csv
						close(csv)
						print row >> csv
						split(meta, mv, ",")
						r["profile"] = mv[1]; r["seed"] = m["seed"]
						r["pattern"] = "ycsb-" m["mix"]; r["ws_factor"] = "heap"
						r["eviction"] = mv[2]; r["prefetch"] = mv[3]
						r["ws_pages"] = m["heap_bytes"] / 4096
						r["cache_pages"] = mv[5]
						r["evictions"] = m["dev_evictions"]
						r["misses"] = m["dev_misses"]
						r["dirty_writebacks"] = m["dev_dirty_writebacks"]
						r["write_pct"] = m["mix"] == "a" ? 50 : 0
						r["prefetch_issued"] = 1
						check(r)
					}' "$SYS/stats/miss_latency_p50_ns" "$SYS/stats/miss_latency_p99_ns" >"$OUT/.row.out"
					if [ -s "$OUT/.row.out" ]; then
						cat "$OUT/.row.out"
						cat "$OUT/.row.out" >>"$MECH"
					fi
				done
			done
			vunload
			echo "study-cxl: kvstore seed $seed mix $mix done at $(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { printf "%.0f", b - a }') s"
		done
	done
	rm -f "$OUT/.row.out"
}

# lifo first after each load (see above)
ORDER=
for ev in $EVICTIONS; do
	case $ev in
	lifo) ORDER="lifo $ORDER" ;;
	*) ORDER="$ORDER $ev" ;;
	esac
done

t0=$(now_s)
i=0
for seed in $SEEDS; do
	for prof in $PROFILES; do
		for pat in $PATTERNS; do
			for fac in $FACTORS; do
				vload "$prof"
				c=0
				for ev in $ORDER; do
					for pf in $PREFETCHES; do
						i=$((i + 1))
						c=$((c + 1))
						run_cell "$prof" "$seed" "$pat" "$fac" "$ev" "$pf" \
							$((2 * (1000 * seed + c) + 1))
					done
				done
				vunload
				echo "study-cxl: $i/$ncells cells ($prof seed $seed $pat ${fac}x done) at $(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { printf "%.0f", b - a }') s"
			done
		done
	done
done
rm -f "$OUT/.row.csv" "$OUT/.row.out"
echo "study-cxl: sweep done in $(awk -v a="$t0" -v b="$(now_s)" 'BEGIN { printf "%.0f", b - a }') s: $CSV"
run_kvstore
if [ -s "$MECH" ]; then
	echo "study-cxl: FAILED: $(wc -l <"$MECH") mechanism checks failed (listed above and in $MECH)" >&2
	exit 3
fi
echo "study-cxl: every mechanism check passed"
