# SPDX-License-Identifier: GPL-2.0
# Backing memory from a boot-time reservation: the claim, its checks, and
# release on unload. 256 MiB at 1 GiB is reserved with memmap=$ and 256 MiB
# at 1.5 GiB as legacy persistent memory with memmap=!.
# vmtest-mem: 4G
# vmtest-append: memmap=256M$0x40000000 memmap=256M!0x60000000
# vmtest-debug-skip: the memmap claim and memremap paths, small and unchanged since they were last run under the debug kernel; CI's time is near its budget

SYS=/sys/class/vflash/vflash0
EINVAL='Invalid (parameters|argument)'

test_warm_up() {
	load frontend=none size=16M
	unload
}

iomem_claim() {
	grep ' : vflash$' /proc/iomem | tr -d ' '
}

test_claim_shows_in_iomem() {
	grep -q '40000000-4fffffff : Reserved' /proc/iomem ||
		grep -q '40000000-4fffffff : reserved' /proc/iomem ||
		fail "the memmap= reservation is not in /proc/iomem"
	expect_eq "$(iomem_claim)" "" "claim before load"
	load frontend=none memmap_start=0x40000000 memmap_size=256M
	expect_eq "$(iomem_claim)" "40000000-4fffffff:vflash" "claim while loaded"
	expect_eq "$(cat $SYS/size)" 268435456 size
	dmesg | grep -q 'vflash0: 268435456 bytes (memmap range)' ||
		fail "no load line"
	unload
	expect_eq "$(iomem_claim)" "" "claim after unload"
	expect_gone
}

test_part_of_the_range() {
	load frontend=none memmap_start=0x44000000 memmap_size=64M
	expect_eq "$(iomem_claim)" "44000000-47ffffff:vflash" claim
	unload
	expect_gone
}

test_legacy_pmem_range() {
	load frontend=none memmap_start=0x60000000 memmap_size=256M
	expect_eq "$(iomem_claim)" "60000000-6fffffff:vflash" claim
	unload
	expect_gone
}

test_cycles() {
	i=0
	while [ $i -lt 10 ]; do
		load frontend=none memmap_start=1G memmap_size=256M
		expect_eq "$(iomem_claim)" "40000000-4fffffff:vflash" claim
		unload
		i=$((i + 1))
	done
	expect_gone
}

# The range runs 64 MiB past the reservation into System RAM.
test_past_the_reservation() {
	expect_load_error "$EINVAL" 'memmap_start=.*System RAM' frontend=none \
		memmap_start=0x4c000000 memmap_size=128M
}

# Another driver (nd_pmem) holds the legacy pmem range.
test_claimed_by_another_driver() {
	modprobe nd_e820 || fail "modprobe nd_e820"
	modprobe nd_pmem || fail "modprobe nd_pmem"
	i=0
	while [ ! -b /dev/pmem0 ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -b /dev/pmem0 ] || fail "no /dev/pmem0"
	grep -A2 '60000000-6fffffff' /proc/iomem
	expect_load_error "$EINVAL" 'memmap_start=.*already claimed' \
		frontend=none memmap_start=0x60000000 memmap_size=256M
	# The $ range is not affected.
	load frontend=none memmap_start=1G memmap_size=256M
	unload
}

run_test warm_up test_warm_up
run_test claim_shows_in_iomem test_claim_shows_in_iomem
run_test part_of_the_range test_part_of_the_range
run_test legacy_pmem_range test_legacy_pmem_range
run_test cycles test_cycles
run_test past_the_reservation test_past_the_reservation
run_test claimed_by_another_driver test_claimed_by_another_driver
