#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# shellcheck disable=SC2317 # the app_* functions are called as "app_$app"
#
# The applications study (docs/studies.md, "study-apps"; issue 25): real,
# unmodified programs with their memory on a frontend=cxl device
# (vflashctl run, docs/apps.md) against the same programs in DRAM, in one
# boot, at several device cache sizes:
#   redis     redis-server + redis-benchmark (SET/GET, random keys), then a
#             BGSAVE (a fork) and a GET of a key set before it
#   memcached memcached + memaslap (Debian's memcaslap: 90 % get, 10 % set,
#             a share of the gets verified)
#   sqlite    sqlite3 :memory: running an analytic script (a table of
#             orders, an index, GROUP BYs, a join, an UPDATE)
#   graph     graphrank (scripts/bench/study/graphrank.c): a BFS and PageRank
#             iterations over a generated skewed graph
# Per application: one warm run on the device with a cache as large as
# the device, whose resident pages at the end (procs; redis: before its
# BGSAVE, whose fork copy reads every heap page) are the application's
# footprint F; then, for each FRAC of -f, a run in DRAM (no
# vflash, no shim) and right after it a run on the device with a cache of
# FRAC x F (1 keeps every page cached, 0.5 lets about half the accesses
# hit with uniform access). vflash is loaded afresh (frontend=cxl
# profile=znand, an empty cache, prefetch none) for every device run.
#
# Output in OUT: apps.csv (a row per application and cache: ops,
# throughput and latency in DRAM and on the device, the process's
# region_pages, resident, misses and writebacks from
# /sys/kernel/debug/vflash/vflash0/procs read at the end of the run,
# while the program still ran), apps.log (the programs' output) and
# checks.txt (PASS/FAIL lines: each device run held region pages and
# missed, gave the DRAM run's answer, wrote back at the smallest cache,
# and the smallest cache missed more per operation than the warm run).
# scripts/bench/study/report-apps.py makes the table and the plots.
#
# Throughput is operations per second: redis-benchmark's and memaslap's
# own figures, rows per second of the sqlite script's statements (.timer),
# edges per second of graphrank's BFS and iterations. Latency: the mean
# of redis-benchmark's per-test average latency; for the others, the time
# per operation (concurrency / throughput for memaslap's clients).
#
# Exit status: 0; 1 if a check failed; 2 on bad usage; 3 if vflash or an
# application failed.

usage() {
	cat <<EOF
usage: $0 [-k KO] [-o OUT] [-s full|tiny] [-A "APPS"] [-f "FRACS"]
  -k KO      vflash.ko to load (default ./vflash.ko); vflash must not be
             loaded when the study starts
  -o OUT     output directory (default ./study-apps)
  -s SCALE   full: a 256 MiB device, footprints of 10-30 MiB
             tiny: 64 MiB, small request counts (make check's smoke test)
  -A APPS    applications (default "redis memcached sqlite graph"; one
             whose programs the VM lacks is skipped with a line)
  -f FRACS   cache sizes as fractions of the footprint (default
             "1 0.75 0.5"; tiny "1 0.5")
EOF
}

KO=./vflash.ko
OUT=./study-apps
SCALE=full
APPS="redis memcached sqlite graph"
FRACS=
# shellcheck source=scripts/helpers.sh
. "$(dirname "$0")/../../helpers.sh"
DIE_PREFIX=apps.sh
DIE_STATUS=3
while getopts k:o:s:A:f:h opt; do
	case $opt in
	A) APPS=$OPTARG ;;
	f) FRACS=$OPTARG ;;
	*) common_opt "$opt" ;;
	esac
done
case $SCALE in
full)
	DEV_MB=256
	REDIS_N=20000
	REDIS_KEYS=20000
	MC_N=20000
	MC_WIN=10k
	SQL_ROWS=40000
	GRAPH_V=100000
	GRAPH_IT=3
	[ -n "$FRACS" ] || FRACS="1 0.75 0.5"
	;;
tiny)
	DEV_MB=64
	REDIS_N=1000
	REDIS_KEYS=1000
	MC_N=1000
	MC_WIN=1k
	SQL_ROWS=3000
	GRAPH_V=10000
	GRAPH_IT=2
	[ -n "$FRACS" ] || FRACS="1 0.5"
	;;
*)
	usage >&2
	exit 2
	;;
esac

SYS=/sys/class/vflash/vflash0
PROCS=/sys/kernel/debug/vflash/vflash0/procs

# die's last lines of the applications' log
die_cleanup() {
	[ ! -f "$OUT/apps.log" ] || tail -n 20 "$OUT/apps.log" >&2
}

# check APP WHAT OK: record a mechanism check (OK: 1 or 0)
check() {
	if [ "$3" = 1 ]; then
		echo "PASS $1: $2" >>"$OUT/checks.txt"
	else
		echo "FAIL $1: $2" >>"$OUT/checks.txt"
		FAILED=1
	fi
}

calc() { awk "BEGIN { $1 }"; }

# load_dev CACHE_PAGES: vflash with its cache of that many pages (none
# loaded before)
load_dev() {
	[ -e /sys/module/configfs ] || modprobe configfs 2>/dev/null
	insmod "$KO" frontend=cxl profile=znand size="${DEV_MB}M" cache_size=$(($1 * 4096)) ||
		die "insmod $KO cache_size=$(($1 * 4096)) failed"
	echo none >$SYS/policy/prefetch || die "prefetch none"
}

unload_dev() { rmmod vflash || die "rmmod vflash failed"; }

# The procs line of the application (the private one with the most region
# pages: a BGSAVE child's copy has gone by then) in PROCS_LINE's file.
grab_procs() {
	awk '$3 == "private"' "$1" | sort -k4,4n | tail -n 1 >"$OUT/procs.line"
}

# wait_port CMD PID: until CMD succeeds (the server answers) or PID dies
wait_up() {
	local n=0
	until eval "$1" >/dev/null 2>&1; do
		n=$((n + 1))
		[ "$n" -lt 600 ] || return 1
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
}

# Each app_* runs the application once, under the command prefix $1
# ("" for DRAM, "vflashctl run --" for the device), and leaves in
# $OUT/run.txt: "ops N", "tput OPS_PER_S", "lat_us US", "answer ..." and,
# on the device, $OUT/procs.line.

app_redis() {
	local pid out ops=0 lat
	rm -rf /tmp/redis-study
	mkdir -p /tmp/redis-study
	# shellcheck disable=SC2086 # the prefix is a word list
	$1 redis-server --port 6391 --bind 127.0.0.1 --save "" --appendonly no \
		--dir /tmp/redis-study --daemonize no --loglevel warning >>"$OUT/apps.log" 2>&1 &
	pid=$!
	wait_up "redis-cli -p 6391 ping | grep -q PONG" "$pid" || die "redis-server did not start"
	redis-cli -p 6391 set key-before-save 42 >/dev/null
	out=$(redis-benchmark -p 6391 -c 4 -P 16 -n "$REDIS_N" -r "$REDIS_KEYS" -d 256 -t set,get --csv) ||
		die "redis-benchmark: $out"
	echo "$out" >>"$OUT/apps.log"
	# "SET","rps","avg_latency_ms",...: time-weighted throughput, mean latency
	echo "$out" | tr -d '"' | awk -F, -v n="$REDIS_N" '
		$2 ~ /^[0-9.]+$/ { ops += n; t += n / $2; lat += $3; k++ }
		END { if (!k) exit 1
			printf "ops %d\ntput %.1f\nlat_us %.2f\n", ops, ops / t, lat / k * 1000 }' \
		>"$OUT/run.txt" || die "no redis-benchmark results: $out"
	# The footprint before BGSAVE: the fork's copy reads every heap page,
	# so resident pages after it would be all the region pages.
	[ -z "$1" ] || awk '$3 == "private"' "$PROCS" | sort -k4,4n | tail -n 1 |
		awk '{ print "foot", $5 }' >>"$OUT/run.txt"
	redis-cli -p 6391 bgsave >/dev/null || die "BGSAVE"
	ops=0
	while :; do
		out=$(redis-cli -p 6391 info persistence | tr -d '\r') || die "redis-server died in BGSAVE"
		echo "$out" | grep -q 'rdb_bgsave_in_progress:0' && [ -s /tmp/redis-study/dump.rdb ] && break
		ops=$((ops + 1))
		[ "$ops" -lt 300 ] || die "BGSAVE did not finish"
		sleep 0.2
	done
	lat=$(echo "$out" | sed -n 's/^rdb_last_bgsave_status://p')
	echo "answer bgsave=$lat get=$(redis-cli -p 6391 get key-before-save) keys=$(redis-cli -p 6391 dbsize | tr -d '\r' | awk '{ print ($1 > 0) }')" >>"$OUT/run.txt"
	[ -z "$1" ] || { cat "$PROCS" >>"$OUT/apps.log"; grab_procs "$PROCS"; }
	redis-cli -p 6391 shutdown nosave >/dev/null 2>&1
	wait "$pid" || die "redis-server exited $?"
}

app_memcached() {
	local pid out
	# shellcheck disable=SC2086 # the prefix is a word list
	$1 memcached -u root -p 11299 -l 127.0.0.1 -m 128 -t 1 -A >>"$OUT/apps.log" 2>&1 &
	pid=$!
	wait_up "memcaslap -s 127.0.0.1:11299 -x 1 -T 1 -c 1" "$pid" || die "memcached did not start"
	out=$(memcaslap -s 127.0.0.1:11299 -x "$MC_N" -T 1 -c 16 -w "$MC_WIN" -X 256 -v 0.1 2>&1) ||
		die "memaslap: $out"
	echo "$out" >>"$OUT/apps.log"
	echo "$out" | awk '
		/^get_misses:/ { gm = $2 } /^verify_failed:/ { vf = $2 } /^verify_misses:/ { vm = $2 }
		/^Run time:/ { ops = $5; tps = $7 }
		END { if (!tps) exit 1
			printf "ops %d\ntput %.1f\nlat_us %.2f\n", ops, tps, 16 / tps * 1e6
			printf "answer get_misses=%d verify_failed=%d verify_misses=%d\n", gm, vf, vm }' \
		>"$OUT/run.txt" || die "no memaslap results: $out"
	[ -z "$1" ] || { cat "$PROCS" >>"$OUT/apps.log"; grab_procs "$PROCS"; }
	# -A: the "shutdown" command stops it (exit 0)
	printf 'shutdown\r\n' | nc 127.0.0.1 11299
	wait "$pid" || die "memcached exited $?"
}

app_sqlite() {
	local out pfile=/dev/null
	[ -z "$1" ] || pfile=$PROCS
	# shellcheck disable=SC2086 # the prefix is a word list
	out=$($1 sqlite3 :memory: <<SQL
.timer on
CREATE TABLE orders(id INTEGER PRIMARY KEY, cust INT, item INT, qty INT, price INT, note TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < $SQL_ROWS)
INSERT INTO orders SELECT x, (x * 7919) % 997, (x * 104729) % 503, x % 13 + 1,
	(x * 31) % 1000 + 1, printf('%040d', (x * 2654435761) % 1000000007) FROM c;
CREATE TABLE items(item INTEGER PRIMARY KEY, cat INT);
WITH RECURSIVE c(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM c WHERE x < 502)
INSERT INTO items SELECT x, x % 17 FROM c;
CREATE INDEX orders_cust ON orders(cust, item);
SELECT 'top', cust, sum(qty * price) AS v FROM orders GROUP BY cust ORDER BY v DESC, cust LIMIT 2;
SELECT 'cat', i.cat, count(*), sum(o.qty) FROM orders o JOIN items i USING (item)
	GROUP BY i.cat ORDER BY i.cat LIMIT 3;
UPDATE orders SET price = price + 1, note = note || 'x' WHERE cust % 5 = 0;
DELETE FROM orders WHERE item % 11 = 0;
SELECT 'sum', count(*), sum(qty * price), sum(length(note)) FROM orders;
SELECT 'med', price FROM orders ORDER BY price, id LIMIT 1 OFFSET (SELECT count(*) / 2 FROM orders);
.system cat $pfile
SQL
) || die "sqlite3: $out"
	echo "$out" >>"$OUT/apps.log"
	echo "$out" | awk -v n="$SQL_ROWS" '
		/^Run Time: real/ { t += $4 }
		END { if (t <= 0) t = 0.001
			printf "ops %d\ntput %.1f\nlat_us %.3f\n", n, n / t, t / n * 1e6 }' >"$OUT/run.txt"
	echo "answer $(echo "$out" | grep -E '^(top|cat|sum|med)\|' | tr '\n' ' ')" >>"$OUT/run.txt"
	[ -z "$1" ] || { echo "$out" >"$OUT/procs.raw"; grab_procs "$OUT/procs.raw"; }
}

app_graph() {
	local out
	# shellcheck disable=SC2086 # the prefix is a word list
	local pfile=/dev/null
	[ -z "$1" ] || pfile=$PROCS
	# shellcheck disable=SC2086 # the prefix is a word list
	out=$($1 graphrank "$GRAPH_V" 8 "$GRAPH_IT" 1 $pfile) || die "graphrank: $out"
	echo "$out" >>"$OUT/apps.log"
	echo "$out" | awk '
		/^ops / { ops = $2 } /^seconds / { s = $2 }
		END { if (s <= 0) s = 1e-6
			printf "ops %d\ntput %.1f\nlat_us %.4f\n", ops, ops / s, s / ops * 1e6 }' >"$OUT/run.txt"
	echo "$out" | grep '^answer' >>"$OUT/run.txt"
	[ -z "$1" ] || { echo "$out" >"$OUT/procs.raw"; grab_procs "$OUT/procs.raw"; }
}

have_app() {
	case $1 in
	redis) command -v redis-server && command -v redis-benchmark && command -v redis-cli ;;
	memcached) command -v memcached && command -v memcaslap ;;
	sqlite) command -v sqlite3 ;;
	graph) command -v graphrank ;;
	*) return 1 ;;
	esac >/dev/null
}

rv() { sed -n "s/^$1 //p" "$OUT/run.txt"; }
# procs fields: 4 region_pages 5 resident 6 misses 7 writebacks
pf() { awk -v f="$1" '{ print $f + 0 }' "$OUT/procs.line"; }

# device_run APP CACHE_PAGES: load, run on the device, unload
device_run() {
	: >"$OUT/procs.line"
	load_dev "$2"
	echo "== $1 device cache $2 pages" >>"$OUT/apps.log"
	"app_$1" "vflashctl run --"
	[ -s "$OUT/procs.line" ] || die "$1: no private line in $PROCS"
	unload_dev
}

mkdir -p "$OUT" || die "cannot make $OUT"
: >"$OUT/checks.txt"
: >"$OUT/apps.log"
FAILED=0
ip link set lo up 2>/dev/null
# memcached run as root needs -u root, which needs a passwd line (the
# test VM's initramfs has no /etc/passwd).
[ -f /etc/passwd ] || echo 'root:x:0:0:root:/:/bin/sh' >/etc/passwd
echo "app,frac,cache_pages,footprint_pages,ops,dram_tput,dev_tput,tput_ratio,dram_lat_us,dev_lat_us,lat_ratio,region_pages,resident,misses,misses_per_op,writebacks" >"$OUT/apps.csv"
for app in $APPS; do
	if ! have_app "$app"; then
		echo "SKIP $app: the VM lacks its programs" >>"$OUT/checks.txt"
		continue
	fi
	# The footprint: resident pages after a warm run in a device-sized
	# cache; its misses per operation are the ~100 % hit baseline.
	device_run "$app" $((DEV_MB * 256))
	foot=$(rv foot)
	[ -n "$foot" ] || foot=$(pf 5)
	[ "$foot" -gt 0 ] || die "$app: no resident pages in the warm run"
	warm_mpo=$(calc "printf \"%.4f\", $(pf 6) / $(rv ops)")
	last_mpo=
	last_wb=0
	for frac in $FRACS; do
		# The DRAM run right before each device run: the pair sees the
		# same load on the host.
		echo "== $app dram" >>"$OUT/apps.log"
		"app_$app" ""
		dram_tput=$(rv tput)
		dram_lat=$(rv lat_us)
		dram_answer=$(rv answer)
		cache=$(calc "c = int($frac * $foot); if (c < 64) c = 64; print c")
		device_run "$app" "$cache"
		ops=$(rv ops)
		region=$(pf 4)
		misses=$(pf 6)
		wb=$(pf 7)
		mpo=$(calc "printf \"%.4f\", $misses / $ops")
		check "$app" "cache $frac: region_pages $region > 0 and misses $misses > 0" \
			"$(calc "print ($region > 0 && $misses > 0)")"
		if [ "$(rv answer)" = "$dram_answer" ]; then
			check "$app" "cache $frac: the DRAM run's answer ($dram_answer)" 1
		else
			check "$app" "cache $frac: answer '$(rv answer)', DRAM's '$dram_answer'" 0
		fi
		echo "$app,$frac,$cache,$foot,$ops,$dram_tput,$(rv tput),$(calc "printf \"%.3f\", $(rv tput) / $dram_tput"),$dram_lat,$(rv lat_us),$(calc "printf \"%.3f\", $(rv lat_us) / $dram_lat"),$region,$(pf 5),$misses,$mpo,$wb" >>"$OUT/apps.csv"
		last_mpo=$mpo
		last_wb=$wb
	done
	check "$app" "the smallest cache misses more per op ($last_mpo) than the device-sized one ($warm_mpo)" \
		"$(calc "print ($last_mpo > $warm_mpo)")"
	check "$app" "the smallest cache wrote back dirty pages ($last_wb)" "$(calc "print ($last_wb > 0)")"
	case $app in
	redis) check "$app" "BGSAVE ok, the key read back" "$(calc "print (\"$dram_answer\" == \"bgsave=ok get=42 keys=1\")")" ;;
	memcached) check "$app" "memaslap: no get misses, no failed verifications" "$(calc "print (\"$dram_answer\" == \"get_misses=0 verify_failed=0 verify_misses=0\")")" ;;
	esac
done
cat "$OUT/checks.txt"
[ "$FAILED" = 0 ] || exit 1
exit 0
