# vmtest-mem: 2G
# vmtest-smp: 2
# vmtest-timeout: 600
SYS=/sys/class/vflash/vflash0
one() {
	echo $1 > $SYS/policy/eviction
	mmap_lat --target /dev/vflash0 --ws 4M --mode rand --accesses 2048 --warm-accesses 2048 --no-warm --reset $SYS/stats/reset --seed $2 --cdf /tmp/cdf --mincore | tr ' ' '\n' | grep -E "present|elapsed" | tr '\n' ' '
	echo "$1 misses=$(cat $SYS/stats/misses) refaults=$(cat $SYS/stats/refaults) ev=$(cat $SYS/stats/evictions) res=$(cat $SYS/stats/resident_pages)"
	awk '$1 < 3000 { f = $2 } END { print "RESULT '$1' kernel hit", 1 - '$(cat $SYS/stats/misses)' / 2048, "fraction under 3us:", f }' /tmp/cdf
}
exp1() {
	insmod $KO frontend=cxl profile=znand size=16M cache_size=1M
	while [ ! -c /dev/vflash0 ]; do sleep 0.1; done
	echo 1 > $SYS/config/precondition; sleep 0.2
	one fifo 5
	one lifo 5
	one lifo 7
	one lifo 9
	one fifo 9
	one lru 11
	one lifo 11
	rmmod vflash
}
run_test exp1 exp1
