# vmtest-mem: 2G
# vmtest-smp: 2
# vmtest-timeout: 600
exp1() {
	/vflash/study/cxl.sh -k $KO -o /tmp/s -p "znand cylon" -a "seq rand zipf stride" -w "4" -s 1 -P 100000 -e "fifo lifo lru" -f "none next-n stride" -a "seq stride"
	cat /tmp/s/cxl.csv
}
run_test exp1 exp1
