# SPDX-License-Identifier: GPL-2.0
#
# make            build vflash.ko against KDIR, and scripts/tools/mmap_lat
# make check      the whole test suite (build, KUnit, VM suites)
# make kunit      KUnit suites under UML only
# make vmtest     VM suites only (VMTEST=<suite> picks one)
# make check-debug every VM suite again under a KASAN/lockdep/kmemleak kernel
# make sparse     sparse over the sources (C=2)
# make checkpatch checkpatch.pl --strict over the sources
# make bench-backend  the backend's CPU cost per request (KUnit, UML)
# make bench-nvme fio on vflash (nvme, tlc) and null_blk in the VM (4 vCPUs)
# make bench-cxl  mmap_lat on vflash (cxl) and devdax in the VM, CDF plot
# make bench-icount-cxl guest kernel instructions per CXL miss and devdax fault
# make bench-icount-kernel [BASE=rev] kernel-wide instructions per NVMe command, BASE's vflash.ko (8aecb66) and this one
# make bench-fidelity lateness and measured/model ratios of a slowed model in the VM
# make bench-faultcost [BASE=rev] fast paths of BASE's vflash.ko vs this one, faults unarmed/armed
# make bench-idle [BASE=rev]   CPU an idle NVMe device costs, BASE's vflash.ko vs this one
# make bench-base [BASE=rev]   NVMe QD1/QD32 read IOPS, BASE's vflash.ko (8aecb66) vs this one
# make bench-threads NVMe QD1/QD32 read IOPS of the dispatcher/worker layouts (cpus=, workers=)
# make bench-peer NVMEVIRT=DIR [MODE=zns] vflash beside NVMeVirt (a checkout of it) in one VM boot
# make check-zbd FIO_SRC=DIR BLKTESTS=DIR ZONEFS_TOOLS=DIR fio's t/zbd, blktests' zbd and
#                 nvme groups, zonefs-tests (checkouts of them), btrfs and f2fs on zoned namespaces
# make bench-precondition instant vs real (2x capacity through NVMe) preconditioning, seq/random/hotcold, table and plot
# make bench-presets   every preset's model predictions, and runs with latencies x k that reach them
# make bench-crash crashcheck's long run: the device matrix, 5130 power cuts checked, 100 ext4+sqlite cuts
# make study-maintenance the seed's SLC/QLC maintenance study in the VM (docs/studies.md)
# make study-cxl  the CXL-SSD cache policy sweeps in the VM (docs/studies.md)
# make study-apps redis, memcached, sqlite3, a graph: DRAM vs the CXL device (docs/studies.md)
# make try        the test VM with vflash loaded and a shell on its console, for
#                 a host that cannot load it (docs/try.md): ARGS="frontend=cxl
#                 size=1G", FRONTEND=cxl; DEMO=1 a one-minute tour instead
# make install    vflash.ko into /lib/modules/<release>/extra (depmod), vflashctl
#                 and its helpers under PREFIX (/usr/local), the udev rule and
#                 a modprobe.d example; DESTDIR=, INSTALL_MOD_PATH=, PREFIX=,
#                 KDIR= or KERNELRELEASE= (docs/install.md). Into / for a kernel
#                 other than the running one only with KDIR=, KERNELRELEASE= or
#                 FORCE=1
# make uninstall  removes what make install put there (same variables)
# make clean

# Why KDIR is what it is: said by `make` when it is not the running
# kernel's, and checked by `make install`, which installs for another
# kernel than the running one only when asked (KERNELRELEASE=, KDIR= on
# the command line, or FORCE=1; docs/install.md).
ifneq ($(KERNELRELEASE),)
KDIR_WHY := KERNELRELEASE=$(KERNELRELEASE) asks for it
KDIR_ASKED := 1
else ifeq ($(origin KDIR),command line)
KDIR_WHY := KDIR= asks for it
KDIR_ASKED := 1
else ifeq ($(origin KDIR),environment)
KDIR_WHY := KDIR in the environment asks for it
else ifneq ($(KERNEL),)
KDIR_WHY := KERNEL=$(KERNEL) asks for that line's newest headers
else
KDIR_WHY := the running kernel has no headers (/lib/modules/$(shell uname -r)/build), so the newest 6.1 headers (scripts/kdir.sh, docs/develop/kernels.md); modprobe on this host cannot load it
endif
ifeq ($(FORCE),1)
KDIR_ASKED := 1
endif

# make install KERNELRELEASE=<release>: that kernel's headers
ifneq ($(KERNELRELEASE),)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
endif
KDIR ?= $(shell $(CURDIR)/scripts/kdir.sh $(KERNEL))
export KDIR

.PHONY: all modules tools clean check check-debug kunit vmtest sparse checkpatch \
	bench-backend bench-nvme bench-cxl bench-fidelity study-maintenance study-cxl study-fdp study-apps \
	bench-faultcost bench-crash bench-idle bench-peer bench-icount check-zbd bench-base bench-icount-cxl \
	bench-threads bench-icount-kernel bench-precondition bench-presets

all: modules tools

tools: scripts/tools/mmap_lat scripts/vm/cxl_check scripts/vm/nvme_fuzz scripts/bench/study/kvstore \
	scripts/vm/plcheck scripts/tools/crashcheck scripts/vm/mkzonefs scripts/bench/study/fdpload \
	scripts/bench/icount/ioloop scripts/shim/libvflash-shim.so scripts/vm/apps_check \
	scripts/bench/study/graphrank scripts/vm/imgpatch

# A static binary, so the test VM's initramfs needs no libraries for it.
scripts/tools/mmap_lat: scripts/tools/mmap_lat.c scripts/tools/toolkit.h
	$(CC) -O2 -Wall -Wextra -static -pthread -o $@ $< -lm

scripts/bench/study/kvstore: scripts/bench/study/kvstore.c scripts/tools/toolkit.h
	$(CC) -O2 -Wall -Wextra -static -pthread -o $@ $< -lm

scripts/bench/icount/ioloop: scripts/bench/icount/ioloop.c
	$(CC) -O2 -Wall -Wextra -static -o $@ $<

scripts/bench/study/fdpload: scripts/bench/study/fdpload.c
	$(CC) -O2 -Wall -Wextra -static -o $@ $<

scripts/vm/cxl_check: scripts/vm/cxl_check.c
	$(CC) -O2 -Wall -Wextra -static -pthread -o $@ $<

scripts/vm/nvme_fuzz: scripts/vm/nvme_fuzz.c
	$(CC) -O2 -Wall -Wextra -static -o $@ $<

scripts/vm/plcheck: scripts/vm/plcheck.c
	$(CC) -O2 -Wall -Wextra -static -pthread -o $@ $<

scripts/tools/crashcheck: scripts/tools/crashcheck.c
	$(CC) -O2 -Wall -Wextra -static -pthread -o $@ $<

# The LD_PRELOAD heap of vflashctl run (LGPL-2.1-or-later).
scripts/shim/libvflash-shim.so: scripts/shim/vflash_shim.c frontend_cxl/vflash_ioctl.h
	$(CC) -O2 -Wall -Wextra -shared -fPIC -fvisibility=hidden -pthread -o $@ $< -ldl

# Dynamic: the shim must interpose its malloc (the VM carries its libraries).
scripts/vm/apps_check: scripts/vm/apps_check.c
	$(CC) -O2 -Wall -Wextra -pthread -o $@ $<

# Dynamic too: the study-apps graph workload runs under vflashctl run.
scripts/bench/study/graphrank: scripts/bench/study/graphrank.c
	$(CC) -O2 -Wall -Wextra -o $@ $<

scripts/vm/mkzonefs: scripts/vm/mkzonefs.c
	$(CC) -O2 -Wall -Wextra -static -o $@ $<

scripts/vm/imgpatch: scripts/vm/imgpatch.c
	$(CC) -O2 -Wall -Wextra -static -o $@ $<

modules:
	@test -n "$(KDIR)" || { echo "no kernel headers found: run scripts/setup.sh or pass KDIR=" >&2; exit 1; }
	@rel=$$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$$/\1/p' "$(KDIR)/include/generated/utsrelease.h" 2>/dev/null); \
	[ "$$rel" = "$$(uname -r)" ] || \
		echo "*** vflash: building vflash.ko for kernel $$rel ($(KDIR)), NOT the running kernel $$(uname -r): $(KDIR_WHY)" >&2
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	@if [ -n "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build scripts/tools/mmap_lat scripts/vm/cxl_check scripts/vm/nvme_fuzz \
		scripts/bench/study/kvstore scripts/vm/plcheck scripts/tools/crashcheck \
		scripts/vm/mkzonefs scripts/bench/study/fdpload scripts/bench/icount/ioloop \
		scripts/shim/libvflash-shim.so scripts/vm/apps_check scripts/bench/study/graphrank \
		scripts/vm/imgpatch

check:
	scripts/check.sh

check-debug: tools
	scripts/check-debug.sh $(VMTEST)

kunit:
	scripts/kunit.sh

vmtest: modules tools
	scripts/vmtest.sh $(VMTEST)

sparse:
	scripts/sparse.sh

checkpatch:
	scripts/checkpatch.sh

bench-backend:
	scripts/kunit.sh 'vflash-bench'
	@grep -a ' bench ' $${VFLASH_CACHE:-/var/cache/vflash}/kunit-build/test.log

bench-nvme: modules tools
	@scripts/vmtest.sh bench-nvme bench-icount; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-nvme/results.txt; \
	sed -n 's/^BENCH icount \([a-z]*: \)/instructions, \1/p' build/vmtest/bench-icount/host.log; \
	exit $$rc

# Instructions per 4 KiB read and write in vflash.ko, counted by a QEMU
# plugin (scripts/bench/icount/; docs/performance.md, bench-icount).
bench-icount: modules tools
	@scripts/vmtest.sh bench-icount; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-icount/host.log; exit $$rc

# Guest kernel instructions per zero-time CXL miss and per devdax fault,
# one thread and two (docs/performance.md, bench-icount-cxl).
bench-icount-cxl: modules tools
	@scripts/vmtest.sh bench-icount-cxl; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-icount-cxl/host.log; exit $$rc

# Instant preconditioning against a real one, three workload kinds
# (docs/design/precondition.md, "Validation"): medians, ratios to the real
# run, and build/bench-precondition/precondition.png. PRE_BOOTS= boots
# (default 3, their rounds pooled, each boot's lines kept as
# build/bench-precondition/boot-N.txt); PRE_ROUNDS=, PRE_SIZE=,
# PRE_MEAS_IOS=, PRE_K= in the environment reach the guest.
bench-precondition: modules tools
	@rm -rf build/bench-precondition; mkdir -p build/bench-precondition; rc=0; \
	for b in $$(seq 1 $${PRE_BOOTS:-3}); do \
		scripts/vmtest.sh bench-precondition || rc=1; \
		cp build/vmtest/bench-precondition/results.txt \
			build/bench-precondition/boot-$$b.txt || rc=1; \
	done; \
	scripts/bench/precondition-report.py build/bench-precondition/boot-*.txt \
		-o build/bench-precondition || rc=1; exit $$rc

# The crash suite's long version (docs/crashcheck.md): every cell of the
# device matrix long; cuts, LBAs checked, violations, seeds per cell
# (docs/results/2026-12-05-crash-matrix.md).
bench-crash: modules tools
	@scripts/vmtest.sh bench-crash; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-crash/results.txt; exit $$rc

# The host's load average before and after: on a shared 2-core host it,
# not vflash, decides how late the VM's threads run (docs/performance.md).
# Every preset's model predictions, and device-bound runs with every
# latency x k against them (scripts/bench/vm/bench-presets.sh): the table
# and build/bench-presets/presets.png. PRESETS=, PRESET_IOPS=,
# PRESET_RUNTIME=, PRESET_SIZE= in the environment reach the guest.
bench-presets: modules tools
	@scripts/vmtest.sh bench-presets; rc=$$?; \
	scripts/bench/presets-report.py build/vmtest/bench-presets/results.txt \
		-o build/bench-presets || rc=1; exit $$rc

bench-fidelity: modules tools
	@l0=$$(cut -d' ' -f1-3 /proc/loadavg); \
	scripts/vmtest.sh bench-fidelity; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-fidelity/results.txt; \
	echo "host load average before: $$l0, after: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	exit $$rc

# NVMeVirt beside vflash in one boot (docs/performance.md): NVMEVIRT= is a
# checkout of it, built on the host by the suite's prep step; MODE=zns runs
# its ZNS build against vflash's zoned namespace. PEER_ARGS= adds options
# of scripts/bench/peer.sh in the guest (e.g. "-r 1 -t 5").
MODE ?= conv
bench-peer: modules
	@[ -n "$(NVMEVIRT)" ] || { echo "bench-peer: give an NVMeVirt checkout: make bench-peer NVMEVIRT=DIR" >&2; exit 2; }
	@case '$(MODE)' in conv) s=bench-peer ;; zns) s=bench-peer-zns ;; \
	*) echo "bench-peer: MODE=$(MODE): conv or zns" >&2; exit 2 ;; esac; \
	l0=$$(cut -d' ' -f1-3 /proc/loadavg); \
	NVMEVIRT='$(NVMEVIRT)' PEER_ARGS='$(PEER_ARGS)' scripts/vmtest.sh $$s; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/$$s/results.txt; \
	echo "host load average before: $$l0, after: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	exit $$rc

# fio's t/zbd/test-zbd-support, blktests' zbd and nvme groups,
# zonefs-tools' zonefs-tests, btrfs and f2fs on vflash's namespaces in the
# VM (docs/zns.md, "Outside suites"): FIO_SRC= a git checkout of fio,
# BLKTESTS= one of blktests, ZONEFS_TOOLS= one of zonefs-tools; none is
# part of the repository or of CI (docs/develop/testing.md says how to fetch them).
check-zbd: modules
	@[ -n "$(FIO_SRC)$(BLKTESTS)$(ZONEFS_TOOLS)" ] || { echo "check-zbd: give FIO_SRC=DIR (a fio git checkout), BLKTESTS=DIR and/or ZONEFS_TOOLS=DIR" >&2; exit 2; }
	@FIO_SRC='$(FIO_SRC)' FIO_ZBD_REV='$(FIO_ZBD_REV)' FIO_ZBD_ARGS='$(FIO_ZBD_ARGS)' BLKTESTS='$(BLKTESTS)' \
		ZONEFS_TOOLS='$(ZONEFS_TOOLS)' ZONEFS_ARGS='$(ZONEFS_ARGS)' ZBD_SUITES='$(ZBD_SUITES)' \
		scripts/vmtest.sh check-zbd; rc=$$?; \
	grep -E '^(PASS|FAIL|SKIP) ' build/vmtest$(if $(filter-out 6.1,$(KERNEL)),-$(KERNEL))/check-zbd/results.txt | \
		awk '{ n[$$1]++ } END { printf "check-zbd: %d passed, %d failed, %d skipped\n", n["PASS"], n["FAIL"], n["SKIP"] }'; \
	exit $$rc

# $(call beside,NAME,REV[,FILTER]): the VM benchmark NAME with REV's
# vflash.ko (built under build/baseline-ko/) carried into the VM beside
# this one as /vflash/base.ko; its BENCH lines (through FILTER, a pipe)
# and the host's load average before and after, as for bench-fidelity.
define beside
@ko=$$(scripts/bench/baseline-ko.sh '$(2)') || exit 1; \
	l0=$$(cut -d' ' -f1-3 /proc/loadavg); \
	echo "$(1): base $(2) = $$(git rev-parse --short '$(2)'), head $$(git describe --always --dirty)"; \
	VMTEST_BASE_KO=$$ko scripts/vmtest.sh $(1); rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/$(1)/results.txt $(3); \
	echo "host load average before: $$l0, after: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	exit $$rc
endef

# BASE (default: the commit before fault injection) beside this vflash.ko.
BASE ?= 73267b7^
bench-faultcost: modules tools
	$(call beside,bench-faultcost,$(BASE),| grep -v '^raw ')

# BASE (default d102433, the last commit whose dispatcher naps at most
# 1 ms however long it idles) beside this vflash.ko, as bench-faultcost.
bench-idle: IDLE_BASE := $(if $(filter command line,$(origin BASE)),$(BASE),d102433)
bench-idle: modules tools
	$(call beside,bench-idle,$(IDLE_BASE))

# BASE (default 8aecb66, the end of the first wave) beside this vflash.ko:
# fio 4 KiB random reads at QD1 and QD32, head / base IOPS (issue 27).
bench-base: SPEED_BASE := $(if $(filter command line,$(origin BASE)),$(BASE),8aecb66)
bench-base: modules
	$(call beside,bench-base,$(SPEED_BASE))

# Instructions per QD1 command over the whole guest kernel: BASE's
# vflash.ko (default 8aecb66) booted, then this one, and the two compared.
bench-icount-kernel: KBASE := $(if $(filter command line,$(origin BASE)),$(BASE),8aecb66)
bench-icount-kernel: modules tools
	@ko=$$(scripts/bench/baseline-ko.sh '$(KBASE)') || exit 1; \
	out=build/bench-icount-kernel; rm -rf $$out; mkdir -p $$out; \
	VMTEST_KO=$$ko scripts/vmtest.sh bench-icount-kernel || exit 1; \
	cp -r build/vmtest/bench-icount-kernel $$out/base; \
	scripts/vmtest.sh bench-icount-kernel || exit 1; \
	cp -r build/vmtest/bench-icount-kernel $$out/head; \
	echo "bench-icount-kernel: base $(KBASE), head $$(git describe --always --dirty)"; \
	scripts/bench/icount/kernel-report.py $$out/base:$$ko $$out/head:$(CURDIR)/vflash.ko | sed 's/^BENCH //'

# The NVMe frontend's thread layouts (cpus=, workers=) side by side.
bench-threads: modules
	@scripts/vmtest.sh bench-threads; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-threads/results.txt; \
	exit $$rc

# The VM's report, then its CDF points split into one file per curve under
# build/bench-cxl/ and plotted there (cxl-cdf.png) with gnuplot.
bench-cxl: modules tools
	@scripts/vmtest.sh bench-cxl; rc=$$?; \
	sed -n 's/^BENCH //p' build/vmtest/bench-cxl/results.txt; \
	scripts/bench/cxl-plot.sh build/vmtest/bench-cxl/results.txt \
		build/bench-cxl || rc=1; exit $$rc

# A study runs in the VM (scripts/bench/vm/study-*.sh) and sends its CSV
# back; the suite's "vmtest-host" line turns it into the Markdown table and
# the plots under build/vmtest/study-*/report/ (docs/studies.md).
study-maintenance study-cxl study-fdp study-apps: modules tools
	scripts/vmtest.sh $@

# The test VM (QEMU TCG) with vflash.ko loaded: ARGS= its parameters,
# FRONTEND= nvme or cxl; a shell on the console, or with DEMO=1 the tour
# (scripts/try.sh, docs/try.md).
.PHONY: try
try: modules tools
	@ARGS='$(ARGS)' FRONTEND='$(FRONTEND)' DEMO='$(DEMO)' scripts/try.sh

# scripts/install/install.sh does the work; the kernel release comes from KDIR.
# Like the kernel's modules_install, install builds nothing: `make` first
# (a rebuild here without the first build's flags, W=1, would redo it all).
.PHONY: install uninstall
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
INSTALL_MOD_PATH ?= $(DESTDIR)
install:
	DESTDIR="$(DESTDIR)" INSTALL_MOD_PATH="$(INSTALL_MOD_PATH)" PREFIX="$(PREFIX)" \
		SYSCONFDIR="$(SYSCONFDIR)" VFLASH_OTHER_KERNEL="$(KDIR_ASKED)" \
		scripts/install/install.sh install
uninstall:
	DESTDIR="$(DESTDIR)" INSTALL_MOD_PATH="$(INSTALL_MOD_PATH)" PREFIX="$(PREFIX)" \
		SYSCONFDIR="$(SYSCONFDIR)" scripts/install/install.sh uninstall
