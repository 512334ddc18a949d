# SPDX-License-Identifier: GPL-2.0
# `make bench-cxl`: scripts/bench/cxl.sh in the project's VM, on vflash
# (frontend=cxl) and on a plain devdax device in the same boot: a legacy
# pmem region from memmap=1G!4G, turned into /dev/dax0.0 by ndctl. Not a
# test: it lives outside scripts/vm/suites/, so `make check` skips it.
# The report goes to the results port as "BENCH " lines, and each CDF
# point as "CDF NAME LATENCY_NS FRACTION" (the Makefile plots them).
# Two vCPUs, as many as the host kind has cores: with a third, the
# two-thread miss run keeps three vCPU threads busy (two faulting threads
# and vflash's evictor) on two host cores, and every TLB-flush IPI of an
# eviction waits for a descheduled vCPU thread (p99 of milliseconds).
# With two, the evictor shares the vCPUs and a miss that finds the free
# pool empty evicts itself, as designed.
# NAND waits are spun whole (wait_spin_ns 100 us > cylon's 41 us): waking
# a halted vCPU from an hrtimer sleep costs tens of us or more in TCG
# (the sleeping variant is printed too, for comparison).
# cxl.sh runs ROUNDS times; each ratio is given per round and as the
# median of the rounds, against its target: single runs of the same
# boot differ by up to 1.5x in TCG (docs/performance.md).
# vmtest-mem: 6G
# vmtest-smp: 2
# vmtest-append: memmap=1G!4G
# vmtest-timeout: 1800

ROUNDS=5

# median_ratios FILE...: "ratio NAME=MEDIAN target T PASS|MISS (rounds)"
# for every ratio line of the rounds' outputs.
median_ratios() {
	awk '$1 == "ratio" || $1 == "control" {
		split($2, kv, "=")
		name = $1 " " kv[1]
		if (!(name in n)) order[++k] = name
		v[name, ++n[name]] = kv[2]
		if ($3 == "target") tgt[name] = $4
	}
	END {
		for (i = 1; i <= k; i++) {
			name = order[i]
			m = n[name]
			for (a = 1; a <= m; a++) s[a] = v[name, a]
			for (a = 1; a <= m; a++)
				for (b = a + 1; b <= m; b++)
					if (s[b] < s[a]) { t = s[a]; s[a] = s[b]; s[b] = t }
			med = m % 2 ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
			all = ""
			for (a = 1; a <= m; a++) all = all (a > 1 ? " " : "") v[name, a]
			line = sprintf("median %s=%.3f", name, med)
			t = tgt[name]
			if (t != "") {
				ok = 0
				if (t ~ /^>=/) ok = med >= substr(t, 3) + 0
				else if (t ~ /^<=/) ok = med <= substr(t, 3) + 0
				else { split(t, r, "-"); ok = med >= r[1] + 0 && med <= r[2] + 0 }
				line = line " target " t (ok ? " PASS" : " MISS")
			}
			print line " (rounds: " all ")"
		}
	}' "$@"
}

bench_cxl() {
	local f name i
	devdax
	for i in $(seq "$ROUNDS"); do
		/vflash/bench/cxl.sh -k "$KO" -x /dev/dax0.0 -w 100000 \
			-o "/tmp/bench$i" >"/tmp/bench$i.out" ||
			{ cat "/tmp/bench$i.out"; fail "scripts/bench/cxl.sh"; }
		while IFS= read -r line; do
			report "BENCH round $i: $line"
		done <"/tmp/bench$i.out"
	done
	median_ratios /tmp/bench*.out | while IFS= read -r line; do
		report "BENCH $line"
	done
	# The CDFs of the last round.
	for f in "/tmp/bench$ROUNDS"/cdf-*.txt; do
		name=${f#/tmp/bench"$ROUNDS"/cdf-}
		name=${name%.txt}
		grep -v '^#' "$f" | while read -r ns frac; do
			report "CDF $name $ns $frac"
		done
	done
}

run_test bench-cxl bench_cxl
