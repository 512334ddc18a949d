# SPDX-License-Identifier: GPL-2.0
# Every invalid parameter fails the load with -EINVAL or -ENOMEM and one
# dmesg line naming the parameter, leaves nothing behind, and a good load
# works afterwards; no parameters at all load with no device. This VM has
# no memmap= reservation.
# vmtest-mem: 4G

EINVAL='Invalid (parameters|argument)'
ENOMEM='Cannot allocate memory'

test_warm_up() {
	load frontend=none size=16M
	unload
}

# A size beyond memory as data loads with store=sparse and store=none.
test_sparse_beyond_memory() {
	local s
	for s in sparse none; do
		load frontend=none size=64G store=$s
		expect_eq "$(cat /sys/class/vflash/vflash0/size)" $((64 << 30)) \
			"size with store=$s"
		unload
	done
}

run_test warm_up test_warm_up

# parse_test NAME COMMAND...: a value refused by its parameter's own check,
# before the device or its frontend allocates anything. On make check's
# debug line one refusal of each kind runs instead (CI's time): a core
# parameter (frontend_unknown, hold_bad), one found out after the
# allocation began (size_beyond_memory, op_percent_beyond_ftl,
# memmap_not_reserved), an NVMe one (nvme_lba_size, nvme_cpus_offline)
# and a CXL one (cxl_cache_size_too_small, cxl_cache_size_too_large).
parse_test() {
	local name=$1
	shift
	run_test_full_debug "$name" "the same refusal as this suite's frontend_unknown, hold_bad, nvme_lba_size and cxl_cache_size_too_small" "$@"
}

# No parameters at all: no device at load, configfs makes them.
test_no_params() {
	load
	[ ! -e /sys/class/vflash/vflash0 ] || fail "a device without parameters"
	[ -d /sys/kernel/config/vflash ] || fail "no configfs directory"
	unload
	expect_gone
}
run_test no_params test_no_params
parse_test frontend_missing expect_load_error "$EINVAL" frontend size=16M
parse_test frontend_missing_profile expect_load_error "$EINVAL" 'frontend: missing' profile=tlc
parse_test frontend_empty expect_load_error "$EINVAL" frontend frontend=
run_test frontend_unknown expect_load_error "$EINVAL" "frontend=bogus: unknown frontend 'bogus'" frontend=bogus
parse_test frontend_listed_twice expect_load_error "$EINVAL" frontend frontend=none,none
parse_test size_zero expect_load_error "$EINVAL" 'size=0: must not be zero' frontend=none size=0
parse_test size_unaligned expect_load_error "$EINVAL" size frontend=none size=16777217
parse_test size_too_small expect_load_error "$EINVAL" size frontend=none size=4K
parse_test size_junk expect_load_error "$EINVAL" size frontend=none size=12Q
parse_test size_overflow expect_load_error "$EINVAL" size frontend=none size=16E
run_test sparse_beyond_memory test_sparse_beyond_memory
run_test size_beyond_memory expect_load_error "$ENOMEM" 'size: .*exceeds the memory available' frontend=none size=64G
parse_test store_unknown expect_load_error "$EINVAL" "store=bogus: unknown store" frontend=none size=16M store=bogus
parse_test store_empty expect_load_error "$EINVAL" 'store' frontend=none size=16M store=
parse_test store_case expect_load_error "$EINVAL" 'store=Sparse: unknown store' frontend=none size=16M store=Sparse
run_test store_with_memmap expect_load_error "$EINVAL" 'store=sparse: only full with memmap' frontend=none memmap_start=1G memmap_size=256M store=sparse
# Sparse and none need memory for the FTL's tables only: 64 GiB loads in
# this 4 GiB VM, 8 TiB (about 22 GB of tables) does not.
run_test store_sparse_beyond_metadata expect_load_error "$ENOMEM" 'size: .*exceeds the memory available.*store=sparse' frontend=none size=8T store=sparse
run_test store_none_beyond_metadata expect_load_error "$ENOMEM" 'size: .*exceeds the memory available.*store=none' frontend=none size=8T store=none
run_test hold_bad expect_load_error "$EINVAL" 'hold=2: must be 0 or 1' frontend=none size=16M hold=2
parse_test profile_unknown expect_load_error "$EINVAL" profile frontend=none profile=bogus
# Geometry overrides: each bad value, then what only the whole rules out.
parse_test geometry_without_frontend expect_load_error "$EINVAL" 'frontend: missing' channels=4
parse_test channels_zero expect_load_error "$EINVAL" 'channels=0: must be from 1 to 64' frontend=none size=16M channels=0
parse_test channels_too_many expect_load_error "$EINVAL" 'channels=65: must be from 1 to 64' frontend=none size=16M channels=65
parse_test channels_junk expect_load_error "$EINVAL" 'channels=8x: not a decimal number' frontend=none size=16M channels=8x
parse_test dies_zero expect_load_error "$EINVAL" 'dies_per_channel=0: must be from 1 to 64' frontend=none size=16M dies_per_channel=0
parse_test dies_too_many expect_load_error "$EINVAL" 'dies_per_channel=100: must be from 1 to 64' frontend=none size=16M dies_per_channel=100
parse_test page_size_not_pow2 expect_load_error "$EINVAL" 'page_size=12K: must be a power of two' frontend=none size=16M page_size=12K
parse_test page_size_small expect_load_error "$EINVAL" 'page_size=2048: must be a power of two from 4 KiB' frontend=none size=16M page_size=2048
parse_test page_size_large expect_load_error "$EINVAL" 'page_size=128K: must be a power of two' frontend=none size=16M page_size=128K
parse_test page_size_junk expect_load_error "$EINVAL" 'page_size=16Q: not a number' frontend=none size=16M page_size=16Q
parse_test pages_per_block_small expect_load_error "$EINVAL" 'pages_per_block=2: must be from 4 to 4096' frontend=none size=16M pages_per_block=2
parse_test pages_per_block_large expect_load_error "$EINVAL" 'pages_per_block=5000: must be from 4 to 4096' frontend=none size=16M pages_per_block=5000
parse_test op_percent_zero expect_load_error "$EINVAL" 'op_percent=0: must be from 1 to 100' frontend=none size=16M op_percent=0
parse_test op_percent_large expect_load_error "$EINVAL" 'op_percent=101: must be from 1 to 100' frontend=none size=16M op_percent=101
parse_test op_percent_junk expect_load_error "$EINVAL" 'op_percent=7%: not a decimal number' frontend=none size=16M op_percent=7%
run_test pages_per_block_qlc expect_load_error "$EINVAL" 'pages_per_block=130: must be a multiple of 4 with profile qlc-hybrid' frontend=none size=16M pages_per_block=130
# 8 TiB with twice its capacity in flash: beyond the FTL's 2^32 slots.
run_test op_percent_beyond_ftl expect_load_error "$EINVAL" 'op_percent=100: .*more flash than the FTL addresses' frontend=none size=8T store=none profile=tlc op_percent=100
run_test size_beyond_ftl expect_load_error "$EINVAL" 'size=16T: .*more flash than the FTL addresses' frontend=none size=16T store=none
parse_test memmap_start_alone expect_load_error "$EINVAL" memmap_start frontend=none memmap_start=1G
parse_test memmap_size_alone expect_load_error "$EINVAL" memmap_size frontend=none memmap_size=256M
parse_test memmap_unaligned expect_load_error "$EINVAL" memmap_start frontend=none memmap_start=0x40000100 memmap_size=256M
parse_test memmap_with_size expect_load_error "$EINVAL" size frontend=none memmap_start=1G memmap_size=256M size=256M
# Without a reservation, 1 GiB is plain System RAM.
run_test memmap_system_ram expect_load_error "$EINVAL" 'memmap_start=.*overlaps System RAM' frontend=none memmap_start=1G memmap_size=256M
# 64 GiB is beyond this VM's memory: nothing there at all.
run_test memmap_not_reserved expect_load_error "$EINVAL" 'memmap_start=.*not .*reserved' frontend=none memmap_start=64G memmap_size=256M
# frontend=nvme's own parameters.
run_test nvme_lba_size expect_load_error "$EINVAL" 'lba_size=1000: must be 512 or 4096' frontend=nvme size=16M lba_size=1000
parse_test nvme_workers expect_load_error "$EINVAL" 'workers=9: must be 0 to 8' frontend=nvme size=16M workers=9
parse_test nvme_poll_idle expect_load_error "$EINVAL" 'poll_idle_us=2000000: must be at most' frontend=nvme size=16M poll_idle_us=2000000
parse_test nvme_nap_max_us expect_load_error "$EINVAL" 'nap_max_us=99: must be 100 to' frontend=nvme size=16M nap_max_us=99
parse_test nvme_spin_us expect_load_error "$EINVAL" 'spin_us=1000001: must be at most' frontend=nvme size=16M spin_us=1000001
parse_test nvme_cpus_junk expect_load_error "$EINVAL" 'cpus=x: not a CPU list' frontend=nvme size=16M cpus=x
run_test nvme_cpus_offline expect_load_error "$EINVAL" 'cpus=0-99: ' frontend=nvme size=16M cpus=0-99
# frontend=cxl's own parameter.
parse_test cxl_cache_size_zero expect_load_error "$EINVAL" 'cache_size=0: not a non-zero multiple of 4K' frontend=cxl size=16M cache_size=0
parse_test cxl_cache_size_junk expect_load_error "$EINVAL" 'cache_size=12Q: ' frontend=cxl size=16M cache_size=12Q
parse_test cxl_cache_size_unaligned expect_load_error "$EINVAL" 'cache_size=4097: ' frontend=cxl size=16M cache_size=4097
run_test cxl_cache_size_too_small expect_load_error "$EINVAL" 'cache_size=16K: must be ' frontend=cxl size=16M cache_size=16K
run_test cxl_cache_size_too_large expect_load_error "$EINVAL" 'cache_size=32M: must be ' frontend=cxl size=16M cache_size=32M
