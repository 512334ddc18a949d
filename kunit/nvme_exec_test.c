// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the NVMe frontend's admin and NVM commands
 * (frontend_nvme/admin.c, io.c), executed by vfn_admin() and vfn_io() on
 * a controller structure with a real flash backend, backing memory and
 * fake host memory. The fake only reports page properties; hostmem.c's
 * vfn_map_data() and vfn_host_kva() and prp.c's vfn_host_page_ok()
 * decide, as in the kernel.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/ioport.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/ftl.h"
#include "backend_flash/profile.h"
#include "core/faults.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"
#include "policy/policy.h"

#define DNR(x)		((x) | NVME_STATUS_DNR)
#define PG		VFN_HOST_PAGE
#define HOST_PAGES	64

static const struct vflash_profile prof = {
	.name = "t-admin", .desc = "test", .cell = VFLASH_CELL_SLC,
	.channels = 1, .dies_per_channel = 2, .flash_page_bytes = 4096,
	.pages_per_block = 16, .read_ns = 10000, .xfer_ns_per_4k = 1000,
	.slc_prog_ns = 100000, .prog_ns = 100000, .slc_erase_ns = 1000000,
	.erase_ns = 1000000,
};

#define NS_BLOCKS	256		/* 4 KiB blocks: 1 MiB, the flash size */

/*
 * Host page frames 0..HOST_PAGES-1, plain RAM unless marked reserved;
 * the device's backing memory in @store.
 */
struct admin_env {
	struct vfn_ctrl *c;
	struct vflash_dev *vdev;
	u8 *mem;
	bool reserved[HOST_PAGES];
	u8 *store;
	struct resource store_res;
	struct vfn_cmd last;
};

static void env_probe(const struct vfn_hostmem *hm, u64 pfn,
		      struct vfn_page_info *pi)
{
	struct vfn_ctrl *c = container_of(hm, struct vfn_ctrl, hm);
	struct admin_env *e = c->vdev->fe_priv[0];

	if (pfn >= HOST_PAGES)
		return;
	pi->kva = e->mem + pfn * PG;
	pi->reserved = e->reserved[pfn];
	pi->ram = true;
}

/* pci.c is not built under UML: no interrupt to raise. */
static void no_irq(struct vfn_ctrl *c, u16 vector)
{
}

/* The controller's pieces as main.c wires them, but the interrupt. */
static const struct vfn_ctrl_ops env_ops = {
	.admin = vfn_admin,
	.admin_reset = vfn_admin_reset,
	.io = vfn_io,
	.power_cut = vfn_io_power_cut,
	.raise_irq = no_irq,
	.discard = vfn_io_discard,
	.program = vfn_io_program,
};

/*
 * The namespace table with namespace 1 over the first @ns1 blocks of the
 * device, attached, zoned with @zg's zones if @zoned; @zg is the
 * controller's zone geometry (NULL: no Zoned command set), @nr_ph its
 * placement handles.
 */
static void setup_table_ns1(struct kunit *test, const struct vfn_zone_geo *zg,
			    bool zoned, u16 nr_ph, u64 ns1)
{
	struct vfn_ctrl *c = ((struct admin_env *)test->priv)->c;
	__le16 phndl[VFN_FDP_MAX_RUH];
	struct vfn_ns_spec s = {
		.nsze = ns1, .ncap = ns1,
		.csi = zoned ? NVME_CSI_ZNS : NVME_CSI_NVM,
		.nphndls = nr_ph, .phndl = phndl,
	};
	u8 list[4] = { 1, 0, VFN_CNTLID, 0 };
	u32 nsid = 0, i;

	/* FDP: as the load makes it, every handle, in order. */
	for (i = 0; i < nr_ph; i++)
		phndl[i] = cpu_to_le16(i);

	vfn_nstab_exit(&c->nst);
	vfn_nstab_init(&c->nst, NS_BLOCKS, 12, nr_ph, zg);
	KUNIT_ASSERT_EQ(test, vfn_ns_create(&c->nst, &s, &nsid), 0);
	KUNIT_ASSERT_EQ(test, nsid, 1U);
	KUNIT_ASSERT_EQ(test, vfn_ns_attach(&c->nst, nsid, true, list, true), 0);
	bitmap_zero(c->nst.changed, VFN_MAX_NS + 1);
}

/* As a load makes it: namespace 1 over the whole device. */
static void setup_table(struct kunit *test, const struct vfn_zone_geo *zg,
			bool zoned, u16 nr_ph)
{
	setup_table_ns1(test, zg, zoned, nr_ph, NS_BLOCKS);
}

/* The zones a controller makes zoned namespaces with here: 16 blocks. */
static const struct vfn_zone_geo zg16 = { .zsze = 16, .zcap = 16 };

static int admin_init(struct kunit *test)
{
	struct admin_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	struct vfn_ctrl *c;
	u32 q;

	KUNIT_ASSERT_NOT_NULL(test, e);
	e->vdev = kunit_kzalloc(test, sizeof(*e->vdev), GFP_KERNEL);
	e->c = kunit_kzalloc(test, sizeof(*e->c), GFP_KERNEL);
	e->mem = kunit_kzalloc(test, HOST_PAGES * PG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->vdev);
	KUNIT_ASSERT_NOT_NULL(test, e->c);
	KUNIT_ASSERT_NOT_NULL(test, e->mem);
	e->vdev->dev.init_name = "vflash-t";
	e->vdev->cfg.profile = &prof;
	e->vdev->cfg.size_bytes = BIT_ULL(20);
	e->vdev->fe_priv[0] = e;
	e->vdev->flash = vflash_flash_create(&prof, BIT_ULL(20));
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->vdev->flash));
	KUNIT_ASSERT_EQ(test, vflash_faults_init(&e->vdev->faults,
						 e->vdev->flash, NS_BLOCKS,
						 "vflash-t"), 0);

	c = e->c;
	c->vdev = e->vdev;
	c->ops = &env_ops;
	c->ident = kunit_kzalloc(test, PG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->ident);
	/* BAR0's registers and doorbells: Create zeroes a doorbell. */
	c->bar = kunit_kzalloc(test, VFN_BAR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->bar);
	c->hm.probe = env_probe;
	/* Backing memory as with memmap=: one linear mapping. */
	e->store = kunit_kzalloc(test, NS_BLOCKS * PG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e->store);
	e->vdev->backing.size_bytes = NS_BLOCKS * PG;
	e->vdev->backing.res = &e->store_res;
	e->vdev->backing.kaddr = e->store;
	for (q = 0; q <= VFN_MAX_IOQ; q++)
		spin_lock_init(&c->cq_lock[q]);
	/* As after an enable: the admin queues' generation moved. */
	c->cq[0].live = true;
	c->cq[0].gen = 2;
	/* The host enabled every command set (CC.CSS 110b). */
	c->iocs = true;
	test->priv = e;
	setup_table(test, &zg16, false, 0);
	return 0;
}

static void admin_exit(struct kunit *test)
{
	struct admin_env *e = test->priv;

	if (!e)
		return;
	vfn_nstab_exit(&e->c->nst);
	kvfree(e->c->zreport);
	vflash_faults_destroy(&e->vdev->faults);
	if (!IS_ERR_OR_NULL(e->vdev->flash))
		vflash_flash_destroy(e->vdev->flash);
}

/* Run one admin command; its status, and its result in *@result. */
static u16 run(struct kunit *test, u8 op, u32 nsid, u32 cdw10, u32 cdw11,
	       u32 cdw12, u64 prp1, u32 *result)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };
	struct vfn_cmd out = { };

	cmd.common.opcode = op;
	cmd.common.nsid = cpu_to_le32(nsid);
	cmd.common.cdw10 = cpu_to_le32(cdw10);
	cmd.common.cdw11 = cpu_to_le32(cdw11);
	cmd.common.cdw12 = cpu_to_le32(cdw12);
	cmd.common.dptr.prp1 = cpu_to_le64(prp1);
	vfn_admin(e->c, &cmd, &out);
	if (result)
		*result = le32_to_cpu(out.cqe.result.u32);
	return out.sc;
}

static bool all_bytes(const u8 *p, u8 val, size_t n)
{
	while (n--)
		if (*p++ != val)
			return false;
	return true;
}

/*
 * Regression: with no buffer the kernel sends PRP1 = 0, and Identify
 * wrote 4 KiB into physical page 0.
 */
static void identify_without_buffer(struct kunit *test)
{
	struct admin_env *e = test->priv;

	memset(e->mem, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 0,
				  NVME_ID_CNS_CTRL, 0, 0, 0, NULL),
			NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem, 0xaa, PG));
	/* With a buffer it works: VID 1234h, LPA bits 1 and 2, VWC 7. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 0,
				  NVME_ID_CNS_CTRL, 0, 0, 3 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, e->mem[3 * PG], 0x34);
	KUNIT_EXPECT_EQ(test, e->mem[3 * PG + 1], 0x12);
	KUNIT_EXPECT_EQ(test, e->mem[3 * PG + 261], 0x06);
	KUNIT_EXPECT_EQ(test, e->mem[3 * PG + 525], 0x07);
	/* A reserved page (the kernel image) is never written. */
	e->reserved[4] = true;
	memset(e->mem + 4 * PG, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1, NVME_ID_CNS_NS,
				  0, 0, 4 * PG, NULL),
			NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 4 * PG, 0xaa, PG));
}

/* Regression: every log page was 4096 bytes, so offsets past 512 worked. */
static void get_log_lengths(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *buf = e->mem + 5 * PG;

	memset(buf, 0xaa, PG);
	/* SMART, 512 bytes: the temperature, 323 K, at byte 1. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_SMART | 127 << 16, 0, 0, 5 * PG,
				  NULL), 0);
	KUNIT_EXPECT_EQ(test, buf[1] | buf[2] << 8, VFN_TEMP_K);
	KUNIT_EXPECT_EQ(test, buf[512], 0xaa);
	/* 8 bytes from offset 508: 4 of the log, then zeros. */
	memset(buf, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_SMART | 1 << 16, 0, 508, 5 * PG,
				  NULL), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(buf, 0, 8));
	KUNIT_EXPECT_EQ(test, buf[8], 0xaa);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_SMART | 1 << 16, 0, 516, 5 * PG,
				  NULL), DNR(NVME_SC_INVALID_FIELD));
	/* Firmware slot: AFI 1, FRS1 "1.0". */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 0,
				  NVME_LOG_FW_SLOT | 127 << 16, 0, 0, 5 * PG,
				  NULL), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 1);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 8, "1.0", 3), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 0,
				  NVME_LOG_ERROR | 15 << 16, 0, 68, 5 * PG,
				  NULL), DNR(NVME_SC_INVALID_FIELD));
}

/*
 * Regression: Get Features Number of Queues said 1 before any Set while
 * Create refused every queue; the write cache read 0 while Identify said
 * there was one; no feature went back to its default at a reset.
 */
static void features_and_reset(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *smart = e->mem + 6 * PG;
	u32 r = 0;

	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_NUM_QUEUES, 0, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, r, 0x3f003fU);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0, 5 | 15 << 16,
				  NVME_QUEUE_PHYS_CONTIG, 0, 10 * PG, NULL), 0);
	KUNIT_EXPECT_TRUE(test, e->c->cq[5].live);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_NUM_QUEUES, 0, 0, 0, NULL),
			DNR(NVME_SC_CMD_SEQ_ERROR));

	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_VOLATILE_WC, 0, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, r, 1U);
	KUNIT_EXPECT_TRUE(test, e->c->wce);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_VOLATILE_WC, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_FALSE(test, e->c->wce);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_ARBITRATION, 0x01020303, 0, 0,
				  NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_ARBITRATION, 0, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, r, 0x01020303U);
	/* Get's select: the default, and the capabilities. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_ARBITRATION | 1 << 8, 0, 0, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_ARBITRATION | 3 << 8, 0, 0, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 4U);
	/* An over-temperature threshold below 323 K: the SMART warning. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_TEMP_THRESH, 300, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_SMART | 127 << 16, 0, 0, 6 * PG,
				  NULL), 0);
	KUNIT_EXPECT_EQ(test, smart[0] & NVME_SMART_CRIT_TEMPERATURE,
			NVME_SMART_CRIT_TEMPERATURE);

	/* A controller reset and enable move the admin CQ's generation. */
	e->c->cq[0].gen += 2;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_VOLATILE_WC, 0, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, r, 1U);
	KUNIT_EXPECT_TRUE(test, e->c->wce);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_ARBITRATION, 0, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, r, 0U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_TEMP_THRESH, 0, 0, 0, &r), 0);
	KUNIT_EXPECT_EQ(test, r, (u32)VFN_WCTEMP_K);
	/* The hook the reset path calls does the same. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_VOLATILE_WC, 0, 0, 0, NULL), 0);
	vfn_admin_reset(e->c);
	KUNIT_EXPECT_TRUE(test, e->c->wce);
}

/* Queue memory: aligned (PRP Offset Invalid), RAM the device may write. */
static void create_queue_memory(struct kunit *test)
{
	struct admin_env *e = test->priv;

	/* Regression: an unaligned base was Invalid Field. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0, 1 | 15 << 16,
				  NVME_QUEUE_PHYS_CONTIG, 0, 10 * PG + 0x200,
				  NULL), DNR(NVME_SC_PRP_INVALID_OFFSET));
	/* Page 0, a reserved page, a queue running past memory: refused. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0, 1 | 15 << 16,
				  NVME_QUEUE_PHYS_CONTIG, 0, 0, NULL),
			DNR(NVME_SC_INVALID_FIELD));
	e->reserved[12] = true;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0, 1 | 15 << 16,
				  NVME_QUEUE_PHYS_CONTIG, 0, 12 * PG, NULL),
			DNR(NVME_SC_INVALID_FIELD));
	/* 1024 16-byte entries: 4 pages, the last one reserved. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0,
				  1 | 1023 << 16, NVME_QUEUE_PHYS_CONTIG, 0,
				  9 * PG, NULL), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0,
				  1 | 1023 << 16, NVME_QUEUE_PHYS_CONTIG, 0,
				  (HOST_PAGES - 2) * PG, NULL),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_FALSE(test, e->c->cq[1].live);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_cq, 0,
				  1 | 1023 << 16, NVME_QUEUE_PHYS_CONTIG, 0,
				  20 * PG, NULL), 0);
	KUNIT_EXPECT_PTR_EQ(test, e->c->cq[1].kva,
			    (void *)(e->mem + 20 * PG));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_sq, 0,
				  1 | 15 << 16,
				  NVME_QUEUE_PHYS_CONTIG | 1 << 16, 0,
				  30 * PG + 0x40, NULL),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_create_sq, 0,
				  1 | 15 << 16,
				  NVME_QUEUE_PHYS_CONTIG | 1 << 16, 0,
				  30 * PG, NULL), 0);
}

/* Run one NVM command on namespace 1 with control bits (cdw12 31:16). */
static u16 run_io_ctl(struct kunit *test, u8 op, u64 slba, u32 nlb,
		      u32 cdw11, u16 control, u64 prp1, u64 prp2)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.rw.opcode = op;
	cmd.rw.nsid = cpu_to_le32(1);
	cmd.rw.slba = cpu_to_le64(slba);
	cmd.rw.length = cpu_to_le16(nlb - 1);
	cmd.rw.control = cpu_to_le16(control);
	cmd.common.cdw11 = cpu_to_le32(cdw11 | slba >> 32);
	cmd.common.dptr.prp1 = cpu_to_le64(prp1);
	cmd.common.dptr.prp2 = cpu_to_le64(prp2);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* Run one NVM command on namespace 1; its status. */
static u16 run_io(struct kunit *test, u8 op, u64 slba, u32 nlb, u32 cdw11,
		  u64 prp1, u64 prp2)
{
	return run_io_ctl(test, op, slba, nlb, cdw11, 0, prp1, prp2);
}

/*
 * Regression: a Read without a buffer (PRP1 = 0), or longer than its
 * buffer (PRP2 = 0), wrote the device's data into physical page 0.
 */
static void read_without_buffer(struct kunit *test)
{
	struct admin_env *e = test->priv;

	memset(e->store, 0x5a, 8 * PG);
	memset(e->mem, 0xaa, 4 * PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 0, 1, 0, 0, 0),
			NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 0, 2, 0, 3 * PG, 0),
			NVME_SC_DATA_XFER_ERROR);
	/* Three blocks: PRP2 = 0 is a list at page 0. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 0, 3, 0, 3 * PG, 0),
			NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem, 0xaa, 4 * PG));
	/* With buffers it reads. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 0, 2, 0, 3 * PG,
				     7 * PG), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0x5a, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 7 * PG, 0x5a, PG));
}

/*
 * The direction matters: the device may read a reserved RAM page (the
 * block layer writes from the zero page) but never write one.
 */
static void reserved_pages_by_direction(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct nvme_dsm_range *r = (void *)(e->mem + 9 * PG);

	e->reserved[5] = true;
	memset(e->mem + 5 * PG, 0x77, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 4, 1, 0, 5 * PG, 0),
			0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 4 * PG, 0x77, PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_compare, 4, 1, 0, 5 * PG,
				     0), 0);
	memset(e->store + 6 * PG, 0x11, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 6, 1, 0, 5 * PG, 0),
			NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 5 * PG, 0x77, PG));

	/* A DSM range list in reserved RAM is read; at page 0 it is not. */
	e->reserved[9] = true;
	r[0].slba = cpu_to_le64(4);
	r[0].nlb = cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_dsm, 0, 1, NVME_DSMGMT_AD,
				     9 * PG, 0), 0);
	memset(e->mem + 8 * PG, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 4, 1, 0, 8 * PG, 0),
			0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 8 * PG, 0, PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_dsm, 0, 1, NVME_DSMGMT_AD,
				     0, 0), NVME_SC_DATA_XFER_ERROR);
}

/* The due time of a one-block Write at @slba from host page 3. */
static u64 write_due(struct kunit *test, u64 slba)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };
	struct vfn_cmd out = { };

	cmd.rw.opcode = nvme_cmd_write;
	cmd.rw.nsid = cpu_to_le32(1);
	cmd.rw.slba = cpu_to_le64(slba);
	cmd.common.dptr.prp1 = cpu_to_le64(3 * PG);
	vfn_io(e->c, &cmd, &out, 0);
	KUNIT_EXPECT_EQ(test, out.sc, 0);
	return out.due_ns;
}

/*
 * Regression: with the volatile write cache on (the default), a write
 * completes once it is in the device's write buffer, before its program;
 * turned off (Set Features 06h), every write is written through, as with
 * FUA: it completes only once programmed. The write cache setting was
 * stored and reported but writes ignored it.
 */
static void write_cache_off_writes_through(struct kunit *test)
{
	struct admin_env *e = test->priv;

	e->c->wce = true;
	KUNIT_EXPECT_LT(test, write_due(test, 0), prof.prog_ns);
	e->c->wce = false;
	KUNIT_EXPECT_GE(test, write_due(test, 8), prof.prog_ns);
}

/*
 * Regression: Write Zeroes ignored FUA and a write cache turned off: it
 * completed from the write buffer, before its program, like a cached
 * write.
 */
static void write_zeroes_honours_fua_and_write_cache(struct kunit *test)
{
	struct admin_env *e = test->priv;

	e->c->wce = true;
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_zeroes, 0, 1, 0, 0,
				     0), 0);
	KUNIT_EXPECT_LT(test, e->last.due_ns, prof.prog_ns);
	KUNIT_EXPECT_EQ(test, run_io_ctl(test, nvme_cmd_write_zeroes, 8, 1, 0,
					 NVME_RW_FUA, 0, 0), 0);
	KUNIT_EXPECT_GE(test, e->last.due_ns, prof.prog_ns);
	e->c->wce = false;
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_zeroes, 16, 1, 0, 0,
				     0), 0);
	KUNIT_EXPECT_GE(test, e->last.due_ns, prof.prog_ns);
}

#define WZ_DEAC		BIT(9)

/* Arm power_cut (probability 0: cut by hand): the log starts anew. */
static void log_writes(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_faults *ft = &e->vdev->faults;

	ft->pl.backing = &e->vdev->backing;
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_POWER_CUT,
					       "armed", "0"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_POWER_CUT,
					       "probability", "0"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_POWER_CUT,
					       "armed", "1"), 0);
	KUNIT_ASSERT_TRUE(test, ft->pl.on);
}

/* Block @blk holds 0x5a, then a write without FUA puts 0xaa there. */
static void unflushed_write(struct kunit *test, u64 blk)
{
	struct admin_env *e = test->priv;

	memset(e->store + blk * PG, 0x5a, PG);
	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_write, blk, 1, 0, 3 * PG,
				     0), 0);
}

/*
 * Regression: Deallocate and Write Zeroes with DEAC were not logged for
 * power loss, and Write Zeroes' FUA was ignored: a cut put back the data
 * of an earlier write that was not durable over a discarded block (which
 * must read zeros), or over zeros written with FUA and acknowledged.
 */
static void cut_keeps_discards_and_durable_zeroes(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_faults *ft = &e->vdev->faults;
	struct nvme_dsm_range *r = (void *)(e->mem + 9 * PG);

	e->c->wce = true;
	/* The control: an unflushed write is taken back by a cut. */
	log_writes(test);
	unflushed_write(test, 20);
	vflash_pl_cut(&ft->pl, 1, NULL, NULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 20 * PG, 0x5a, PG));

	/* Discarded (10: Deallocate, 12: Write Zeroes with DEAC): zeros. */
	log_writes(test);
	unflushed_write(test, 10);
	unflushed_write(test, 12);
	r[0].slba = cpu_to_le64(10);
	r[0].nlb = cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_dsm, 0, 1, NVME_DSMGMT_AD,
				     9 * PG, 0), 0);
	KUNIT_EXPECT_EQ(test, run_io_ctl(test, nvme_cmd_write_zeroes, 12, 1, 0,
					 WZ_DEAC, 0, 0), 0);
	vflash_pl_cut(&ft->pl, 1, NULL, NULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 10 * PG, 0, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 12 * PG, 0, PG));

	/* Zeros written with FUA, cut once acknowledged: zeros. */
	log_writes(test);
	unflushed_write(test, 14);
	KUNIT_EXPECT_EQ(test, run_io_ctl(test, nvme_cmd_write_zeroes, 14, 1, 0,
					 NVME_RW_FUA, 0, 0), 0);
	vflash_pl_cut(&ft->pl, e->last.due_ns, NULL, NULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 14 * PG, 0, PG));
}

/*
 * Regression (issue 37, 4): a write that found no slot on any die (bad
 * blocks left GC no room) was acknowledged, even with FUA, though its
 * pages never reached flash and no Flush could make them durable. It
 * fails with Write Fault; the device refuses every later write.
 */
static void write_without_room_fails(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_flash *f = e->vdev->flash;
	u32 d, r, s;

	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_write, 5, 1, 0, 3 * PG, 0),
			0);
	/* No free block and no open one on any die; one bad block. */
	for (d = 0; d < f->nr_dies; d++) {
		spin_lock(&f->dies[d].lock);
		for (r = 0; r < VFF_NR_REGIONS; r++) {
			f->dies[d].nr_free[r] = 0;
			f->dies[d].free_head[r] = VFF_INVALID;
			for (s = 0; s < VFF_NR_STREAMS; s++)
				f->dies[d].open[s][r] = VFF_INVALID;
		}
		spin_unlock(&f->dies[d].lock);
	}
	atomic_set(&f->nr_bad[VFF_SLC], 1);
	KUNIT_EXPECT_EQ(test, run_io_ctl(test, nvme_cmd_write, 6, 1, 0,
					 NVME_RW_FUA, 3 * PG, 0),
			DNR(NVME_SC_WRITE_FAULT));
	KUNIT_EXPECT_TRUE(test, vflash_flash_out_of_room(f));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 7, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_NS_WRITE_PROTECTED));
}

/* The oldest event queued for the next Asynchronous Event Request, or 0. */
static u32 aen_head(const struct vfn_ctrl *c)
{
	return c->aen_nr ? c->aen_queue[0] : 0;
}

/*
 * Regression (issue 38): one event was kept for the next Asynchronous
 * Event Request; a second of another kind overwrote it, and the first
 * kind stayed masked for good (its log never read): an attach and a
 * zone gone read-only in one window, and Linux never rescanned. Events
 * queue in order, each kind once.
 */
static void aen_events_queue(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_ctrl *c = e->c;
	u32 ns = NVME_AER_NOTICE | NVME_AER_NOTICE_NS_CHANGED << 8 |
		 NVME_LOG_CHANGED_NS << 16;
	u32 zone = NVME_AER_NOTICE | VFN_AER_ZONE_CHANGED << 8 |
		   VFN_LOG_CHANGED_ZONES << 16;
	u32 res = 0;

	/* The first admin command after the enable resets the features. */
	KUNIT_ASSERT_EQ(test, run(test, nvme_admin_get_features, 0,
				  NVME_FEAT_ASYNC_EVENT, 0, 0, 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, c->aen_nr, 0U);
	vfn_aen(c, ns);
	vfn_aen(c, zone);
	vfn_aen(c, ns);
	KUNIT_EXPECT_EQ(test, c->aen_nr, 2U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_async_event, 0, 0, 0, 0, 0,
				  &res), 0);
	KUNIT_EXPECT_EQ(test, res, ns);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_async_event, 0, 0, 0, 0, 0,
				  &res), 0);
	KUNIT_EXPECT_EQ(test, res, zone);
	KUNIT_EXPECT_EQ(test, c->aen_nr, 0U);
}

/* Past the end: LBA Out of Range, nothing moved. */
static void read_past_the_end(struct kunit *test)
{
	struct admin_env *e = test->priv;

	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, NS_BLOCKS, 1, 0,
				     3 * PG, 0), DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, U64_MAX, 2, 0,
				     3 * PG, 0), DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0xaa, PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, NS_BLOCKS - 1, 1, 0,
				     3 * PG, 0), 0);
}

/* arm TEST FAULT RANGE TIMES: set a rule and arm it */
static void arm(struct kunit *test, enum vflash_fault fault, const char *range,
		const char *times)
{
	struct vflash_faults *ft = &((struct admin_env *)test->priv)->vdev->faults;

	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, fault, "range", range), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, fault, "times", times), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, fault, "armed", "1"), 0);
}

/*
 * Injected faults as the host sees them: Unrecovered Read Error and Write
 * Fault (with DNR) on the armed range only, the read's buffer and the
 * written page untouched, counted in stats/; a timeout is never to be
 * completed (due U64_MAX); a delay moves the due time by delay_ns and
 * the model's due time with it (not lateness).
 */
static void injected_faults(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_flash *f = e->vdev->flash;
	u64 due;

	memset(e->store, 0x5a, 8 * PG);
	memset(e->mem + 3 * PG, 0xaa, PG);
	arm(test, VFLASH_FAULT_READ_ERROR, "2-2", "1");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 1, 1, 0, 3 * PG, 0), 0);
	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 2, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0xaa, PG));
	KUNIT_EXPECT_GT(test, e->last.due_ns, 0ULL);
	KUNIT_EXPECT_FALSE(test, e->last.timed);
	/* times 1: the rule disarmed itself. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 2, 1, 0, 3 * PG, 0), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0x5a, PG));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_FAULT_READ_ERRORS), 1ULL);

	memset(e->mem + 3 * PG, 0xaa, PG);
	arm(test, VFLASH_FAULT_WRITE_FAULT, "4-5", "0");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 3, 2, 0, 3 * PG,
				     4 * PG), DNR(NVME_SC_WRITE_FAULT));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 3 * PG, 0x5a, 2 * PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 6, 1, 0, 3 * PG, 0), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 6 * PG, 0xaa, PG));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_FAULT_WRITE_FAULTS), 1ULL);

	arm(test, VFLASH_FAULT_TIMEOUT, "7-7", "1");
	memset(e->mem + 3 * PG, 0xaa, PG);
	run_io(test, nvme_cmd_read, 7, 1, 0, 3 * PG, 0);
	KUNIT_EXPECT_EQ(test, e->last.due_ns, U64_MAX);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0xaa, PG));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_FAULT_TIMEOUTS), 1ULL);

	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 8, 1, 0, 3 * PG, 0), 0);
	due = e->last.due_ns;
	KUNIT_ASSERT_EQ(test, vflash_fault_set(&e->vdev->faults, VFLASH_FAULT_DELAY,
					       "delay_ns", "5000000"), 0);
	arm(test, VFLASH_FAULT_DELAY, "8-8", "1");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 8, 1, 0, 3 * PG, 0), 0);
	KUNIT_EXPECT_GE(test, e->last.due_ns, due + 5000000);
	KUNIT_EXPECT_EQ(test, e->last.model_due_ns, e->last.due_ns);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_FAULT_DELAYS), 1ULL);

	/* Read-only: writes refused (generic 20h), nothing stored; reads go on. */
	arm(test, VFLASH_FAULT_READ_ONLY, "all", "0");
	memset(e->mem + 3 * PG, 0x77, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 5, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_NS_WRITE_PROTECTED));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 5 * PG, 0x5a, PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_zeroes, 5, 1, 0, 0, 0),
			DNR(NVME_SC_NS_WRITE_PROTECTED));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 5, 1, 0, 3 * PG, 0), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0x5a, PG));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_FAULT_READ_ONLY_WRITES), 2ULL);
}

/*
 * Make namespace 1 zoned: 16 zones of 16 blocks, @zcap writable, the
 * resource limits given.
 */
static void make_zoned(struct kunit *test, u64 zcap, u32 active, u32 open)
{
	struct vfn_ctrl *c = ((struct admin_env *)test->priv)->c;
	struct vfn_zone_geo zg = {
		.zsze = 16, .zcap = zcap, .max_active = active,
		.max_open = open,
	};

	setup_table(test, &zg, true, 0);
	if (!c->zreport)
		c->zreport = kvmalloc(VFN_MAX_XFER_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->zreport);
}

/* Namespace 1's zones. */
static struct vfn_zoned *zones(struct kunit *test)
{
	return &((struct admin_env *)test->priv)->c->nst.nsd[0].zns;
}

static void unmake_zoned(struct kunit *test)
{
	setup_table(test, &zg16, false, 0);
}

/*
 * Zone Management Send: @zsa on the zone of @slba; @all: CDW13 bits 15:8
 * (bit 0 Select All, bit 1 the action's option: with Open, ZRWAA).
 */
static u16 zone_send(struct kunit *test, u64 slba, u8 zsa, u8 all)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.zms.opcode = nvme_cmd_zone_mgmt_send;
	cmd.zms.nsid = cpu_to_le32(1);
	cmd.zms.slba = cpu_to_le64(slba);
	cmd.zms.zsa = zsa;
	cmd.zms.select_all = all;
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* Report Zones from @slba into host page 6, @bytes long, filter @zrasf. */
static u16 zone_report(struct kunit *test, u64 slba, u32 bytes, u8 zrasf,
		       bool partial)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.zmr.opcode = nvme_cmd_zone_mgmt_recv;
	cmd.zmr.nsid = cpu_to_le32(1);
	cmd.zmr.slba = cpu_to_le64(slba);
	cmd.zmr.numd = cpu_to_le32(bytes / 4 - 1);
	cmd.zmr.zrasf = zrasf;
	cmd.zmr.pr = partial;
	cmd.common.dptr.prp1 = cpu_to_le64(6 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/*
 * A zoned namespace's writes go to the write pointer, a refused write
 * stores nothing, Zone Append lands at the write pointer and says where,
 * and Report Zones shows it.
 */
static void zoned_writes_and_append(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *rep = e->mem + 6 * PG;

	make_zoned(test, 16, 0, 0);
	memset(e->mem + 3 * PG, 0x11, 2 * PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 0, 2, 0, 3 * PG,
				     4 * PG), 0);
	/* Off the write pointer: refused, the store keeps its zeros. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 5, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_ZONE_INVALID_WRITE));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 5 * PG, 0, PG));
	/* Across the zone's end. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 15, 2, 0, 3 * PG,
				     4 * PG), DNR(NVME_SC_ZONE_BOUNDARY_ERROR));
	memset(e->mem + 3 * PG, 0x22, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_zone_append, 0, 1, 0,
				     3 * PG, 0), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(e->last.cqe.result.u64), 2ULL);
	KUNIT_EXPECT_EQ(test, e->last.lpn, 2ULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 2 * PG, 0x22, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store, 0x11, 2 * PG));
	/* Zone Append names a zone by its first block. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_zone_append, 1, 1, 0,
				     3 * PG, 0), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(e->vdev->flash,
						VFLASH_STAT_ZONE_APPENDS), 1ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(e->vdev->flash,
						VFLASH_STAT_ZONE_IMPLICIT_OPENS),
			1ULL);
	/* Report: 16 zones match; zone 0 implicitly open, wp 3. */
	KUNIT_EXPECT_EQ(test, zone_report(test, 0, PG, 0, false), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(rep), 16ULL);
	KUNIT_EXPECT_EQ(test, rep[64 + 1] >> 4, VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(rep + 64 + 24), 3ULL);
	/* Only the open ones, from zone 0 on: one. */
	KUNIT_EXPECT_EQ(test, zone_report(test, 0, PG, 2, false), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(rep), 1ULL);
	/* Extended reports (no descriptor extensions) and big ones refused. */
	KUNIT_EXPECT_EQ(test, zone_report(test, 0, VFN_MAX_XFER_BYTES + 4, 0,
					  false), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_report(test, NS_BLOCKS, PG, 0, false),
			DNR(NVME_SC_LBA_RANGE));
	unmake_zoned(test);
}

/*
 * Regression guard for the reset's mechanism: a reset zone's blocks read
 * as zeros because the store is cleared (logical block n is always
 * backing block n), not because reads past the write pointer are faked.
 * A finished zone keeps its data until its reset.
 */
static void zoned_reset_discards(struct kunit *test)
{
	struct admin_env *e = test->priv;

	make_zoned(test, 16, 0, 0);
	memset(e->mem + 3 * PG, 0x33, 2 * PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 16, 2, 0, 3 * PG,
				     4 * PG), 0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 32, 1, 0, 3 * PG,
				     0), 0);
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_FINISH, false), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 16 * PG, 0x33, 2 * PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 18, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_ZONE_FULL));
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_RESET, false), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 16 * PG, 0, 2 * PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 32 * PG, 0x33, PG));
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].written, 16ULL);
	/* Select All: zone 2 too; an empty zone stays as it is. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_RESET, true), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 32 * PG, 0, PG));
	KUNIT_EXPECT_EQ(test, zones(test)->zones[2].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(e->vdev->flash,
						VFLASH_STAT_ZONE_FINISHES), 1ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(e->vdev->flash,
						VFLASH_STAT_ZONE_RESETS), 2ULL);
	/* Bad actions and transitions. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_CLOSE, false),
			DNR(NVME_SC_ZONE_INVALID_TRANSITION));
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_SET_DESC_EXT,
					false), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_send(test, NS_BLOCKS, NVME_ZONE_OPEN,
					false), DNR(NVME_SC_LBA_RANGE));
	unmake_zoned(test);
}

/* Write blocks [@from, @to) of namespace 1, one command each. */
static void write_blocks(struct kunit *test, u64 from, u64 to)
{
	for (; from < to; from++)
		KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, from, 1, 0,
					     3 * PG, 0), 0);
}

/*
 * Zone handles: on a flash with 16 placement handles made zone handles
 * (zoned=1), each zone that a write makes active is lent a handle of its
 * own, kept while it is open or closed; Full, Finish and Reset give it
 * back, its blocks sealed; a 16th active zone shares handle 0. A reset
 * erases the zone's blocks at once and completes after the erases.
 */
static void zoned_handles_lent_and_erased(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_profile *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct vfn_ctrl *c = e->c;
	struct vflash_flash *f;
	struct vfn_zoned *z;
	u32 i, b, h;

	KUNIT_ASSERT_NOT_NULL(test, p);
	*p = prof;
	p->placement_handles = VFLASH_FLASH_MAX_PLACEMENT;
	vflash_faults_destroy(&e->vdev->faults);
	vflash_flash_destroy(e->vdev->flash);
	f = vflash_flash_create(p, BIT_ULL(20));
	KUNIT_ASSERT_FALSE(test, IS_ERR(f));
	e->vdev->flash = f;
	KUNIT_ASSERT_EQ(test, vflash_faults_init(&e->vdev->faults, f,
						 NS_BLOCKS, "vflash-t"), 0);
	vflash_flash_set_zone_handles(f, true);
	c->nr_zph = vflash_flash_placement_handles(f);
	make_zoned(test, 16, 0, 0);
	z = zones(test);

	write_blocks(test, 0, 4);
	write_blocks(test, 16, 17);
	KUNIT_EXPECT_EQ(test, z->zones[0].ph, 1);
	KUNIT_EXPECT_EQ(test, z->zones[1].ph, 2);
	KUNIT_EXPECT_PTR_EQ(test, c->zph[1], &z->zones[0]);
	/* Zone 0's pages are in handle 1's blocks. */
	b = vff_block_of(f, f->l2p[0]);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[b].stream,
			(u32)vff_host_stream(1));
	/* Full: handle 1 back, its blocks sealed. */
	write_blocks(test, 4, 16);
	KUNIT_EXPECT_EQ(test, z->zones[0].state, VFN_ZS_FULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].ph, 0);
	KUNIT_EXPECT_NULL(test, c->zph[1]);
	for (i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test,
				(u32)f->blocks[vff_block_of(f, f->l2p[i])].state,
				(u32)VFF_BLK_FULL);
	/* Closed keeps it, Finish gives it back. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_CLOSE, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[1].ph, 2);
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, z->zones[1].ph, 0);
	/* A zone of one block's pages is laid out on one die, one block. */
	KUNIT_EXPECT_EQ(test, vff_block_of(f, f->l2p[15]), b);
	/* Reset: that block erased now. */
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_NAND_ERASE_BLOCKS),
			0ULL);
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_ZONE_ERASE_BLOCKS),
			1ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_NAND_ERASE_BLOCKS),
			1ULL);
	KUNIT_EXPECT_EQ(test, (u32)f->blocks[b].state, (u32)VFF_BLK_FREE);
	KUNIT_EXPECT_GE(test, e->last.due_ns, prof.erase_ns);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_ZONE_HOST_PAGES),
			17ULL);
	/* Sixteen active zones: fifteen handles, the last one shares 0. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_RESET, false), 0);
	for (i = 0; i < 16; i++)
		write_blocks(test, i * 16, i * 16 + 1);
	for (i = 0, h = 0; i < 16; i++)
		h += z->zones[i].ph != 0;
	KUNIT_EXPECT_EQ(test, h, 15U);
	KUNIT_EXPECT_EQ(test, z->zones[15].ph, 0);
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_RESET, true), 0);
	for (h = 1; h < VFLASH_FLASH_MAX_PLACEMENT; h++)
		KUNIT_EXPECT_NULL(test, c->zph[h]);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_GC_COPIED_PAGES),
			0ULL);
	c->nr_zph = 0;
	unmake_zoned(test);
}

/*
 * Regression (issue 38): a zoned write refused after the zone took it (an
 * injected Write Fault here) moved the write pointer past blocks never
 * written. A refused write changes nothing: the pointer and the state
 * stay, and the next write at the pointer is taken.
 */
static void zoned_failed_write_keeps_pointer(struct kunit *test)
{
	struct vfn_zoned *z;

	make_zoned(test, 16, 0, 0);
	z = zones(test);
	write_blocks(test, 0, 2);
	arm(test, VFLASH_FAULT_WRITE_FAULT, "2-2", "1");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 2, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_WRITE_FAULT));
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 2ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].state, VFN_ZS_IOPEN);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 2, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 3ULL);
	/* In an empty zone: it stays Empty. */
	arm(test, VFLASH_FAULT_WRITE_FAULT, "16-16", "1");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 16, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_WRITE_FAULT));
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 16ULL);
	KUNIT_EXPECT_EQ(test, z->zones[1].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->nr_iopen, 1U);
	unmake_zoned(test);
}

/* Program time of every region of the rig's flash. */
static void prog_ns(struct kunit *test, u64 ns)
{
	struct vflash_flash *f = ((struct admin_env *)test->priv)->vdev->flash;

	KUNIT_ASSERT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_SLC_PROG_NS,
						    ns), 0);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_MAIN_PROG_NS,
						    ns), 0);
}

/*
 * Regression (issue 37, 6): a cut took back data below a zone's write
 * pointer and left the pointer and the zone's state as they were: the
 * host saw written-but-zero holes, which no drive shows. A zone is
 * durable as a prefix: its write pointer goes back to the first block
 * taken back, every block from there reads zeros (one whose program had
 * ended too, and the FTL forgets it), and the zone is Empty or Closed. A
 * zone the cut took nothing from keeps its pointer and state.
 */
static void zoned_cut_rewinds_write_pointer(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_flash *f = e->vdev->flash;
	struct vfn_zoned *z;
	u64 cut;
	u32 i;

	make_zoned(test, 16, 0, 0);
	z = zones(test);
	e->c->wce = true;
	log_writes(test);
	memset(e->mem + 3 * PG, 0xaa, PG);
	/* Zone 3 full and flushed; zone 0 four blocks flushed. */
	write_blocks(test, 48, 64);
	write_blocks(test, 0, 4);
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_flush, 0, 1, 0, 0, 0), 0);
	/*
	 * Programs of 10 s: nothing written so is durable by the cut, but
	 * block 17, on the other die at once: durable, above block 16.
	 */
	prog_ns(test, 10ULL * NSEC_PER_SEC);
	write_blocks(test, 16, 17);
	prog_ns(test, 1000);
	write_blocks(test, 17, 18);
	KUNIT_ASSERT_NE(test, vff_die_of_block(f, vff_block_of(f, f->l2p[16])),
			vff_die_of_block(f, vff_block_of(f, f->l2p[17])));
	prog_ns(test, 10ULL * NSEC_PER_SEC);
	write_blocks(test, 4, 8);
	write_blocks(test, 32, 35);
	/*
	 * run_io() issues at model time 0: the cut 1 s into that time, not
	 * into the clock's (which would pass the 10 s programs' end once
	 * the KUnit run is 9 s old).
	 */
	cut = NSEC_PER_SEC;
	KUNIT_EXPECT_EQ(test, vfn_io_power_cut(e->c, cut), 8ULL);

	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 4ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 4ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].state, VFN_ZS_CLOSED);
	KUNIT_EXPECT_EQ(test, z->zones[2].wp, 32ULL);
	KUNIT_EXPECT_EQ(test, z->zones[2].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 16ULL);
	KUNIT_EXPECT_EQ(test, z->zones[1].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->zones[3].wp, 64ULL);
	KUNIT_EXPECT_EQ(test, z->zones[3].state, VFN_ZS_FULL);
	KUNIT_EXPECT_EQ(test, z->nr_iopen + z->nr_eopen, 0U);
	KUNIT_EXPECT_EQ(test, z->nr_closed, 1U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + i * PG, 0xaa, PG));
	for (i = 48; i < 64; i++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + i * PG, 0xaa, PG));
	for (i = 4; i < 48; i++)
		KUNIT_EXPECT_TRUE_MSG(test, all_bytes(e->store + i * PG, 0, PG),
				      "block %u", i);
	/* The durable block above zone 1's pointer: gone from the FTL too. */
	KUNIT_EXPECT_EQ(test, f->l2p[17], VFF_INVALID);
	/* The zone takes writes at its pointer again. */
	prog_ns(test, 100000);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 4, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 16, 1, 0, 3 * PG, 0),
			0);
	unmake_zoned(test);
}

/*
 * Namespace 1 zoned (16 zones of 16 blocks) with a ZRWA: a window of 4
 * blocks flushed in 2s, 2 resources.
 */
static void make_zoned_zrwa(struct kunit *test)
{
	struct vfn_ctrl *c = ((struct admin_env *)test->priv)->c;
	struct vfn_zone_geo zg = {
		.zsze = 16, .zcap = 16, .zrwas = 4, .zrwafg = 2, .nr_zrwa = 2,
	};

	setup_table(test, &zg, true, 0);
	if (!c->zreport)
		c->zreport = kvmalloc(VFN_MAX_XFER_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->zreport);
}

/* Zone Management Send with CDW13 bits 15:8 @flags (Select All, ZRWAA). */
#define ZMS_ALL		BIT(0)
#define ZMS_ZRWAA	BIT(1)

static u64 host_pages(struct kunit *test, enum vflash_stat s)
{
	return vflash_flash_stat(((struct admin_env *)test->priv)->vdev->flash,
				 s);
}

/*
 * ZRWA on the command path: Identify's fields; Open with ZRWAA; writes
 * into the window and overwrites land in the store but reach no flash
 * (host pages to the backend unchanged), reads of the window are served
 * from DRAM; an implicit flush, the explicit flush (action 11h) and
 * Finish program what they flush. Without zone_zrwa, Identify shows none
 * and both commands are Invalid Field.
 */
static void zoned_zrwa_window(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *id = e->mem + 5 * PG, *rep = e->mem + 6 * PG;
	u64 w;

	make_zoned(test, 16, 0, 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(id + 2), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(id + 50), 0U);
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_OPEN, ZMS_ZRWAA),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, VFN_ZSA_ZRWA_FLUSH, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zones(test)->zones[0].state, VFN_ZS_EMPTY);

	make_zoned_zrwa(test);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(id + 2), 3U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(id + 44), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(id + 48), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(id + 50), 4U);
	KUNIT_EXPECT_EQ(test, id[52], 1);
	/* ZRWAA with Select All, an unknown action: Invalid Field. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_OPEN,
					ZMS_ZRWAA | ZMS_ALL),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, 0x12, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_OPEN, ZMS_ZRWAA), 0);
	KUNIT_EXPECT_TRUE(test, zones(test)->zones[0].zrwa);

	w = host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES);
	memset(e->mem + 3 * PG, 0x33, 2 * PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 2, 2, 0, 3 * PG,
				     4 * PG), 0);
	memset(e->mem + 3 * PG, 0x11, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 0, 1, 0, 3 * PG, 0),
			0);
	memset(e->mem + 3 * PG, 0x44, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 2, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES),
			w);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store, 0x11, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 2 * PG, 0x44, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 3 * PG, 0x33, PG));
	/* Zone Append: Invalid Zone Operation Request. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_zone_append, 0, 1, 0,
				     3 * PG, 0), DNR(VFN_SC_ZONE_INVALID_OP));
	/* A read of the window: from DRAM, no page read on the flash. */
	w = host_pages(test, VFLASH_STAT_HOST_READ_PAGES);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 2, 2, 0, 7 * PG,
				     8 * PG), 0);
	KUNIT_EXPECT_EQ(test, host_pages(test, VFLASH_STAT_HOST_READ_PAGES), w);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 8 * PG, 0x33, PG));
	/* Report Zones: ZRWAV, the write pointer at the flushed point. */
	KUNIT_EXPECT_EQ(test, zone_report(test, 0, 128, 0, false), 0);
	KUNIT_EXPECT_EQ(test, rep[64 + 2], (u8)BIT(3));
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(rep + 64 + 24), 0ULL);

	/* Explicit flush of blocks 0-1 programs 2 pages. */
	w = host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES);
	KUNIT_EXPECT_EQ(test, zone_send(test, 2, VFN_ZSA_ZRWA_FLUSH, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_send(test, 4, VFN_ZSA_ZRWA_FLUSH, 0),
			DNR(NVME_SC_ZONE_BOUNDARY_ERROR));
	KUNIT_EXPECT_EQ(test, host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES),
			w);
	KUNIT_EXPECT_EQ(test, zone_send(test, 1, VFN_ZSA_ZRWA_FLUSH, 0), 0);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[0].wp, 2ULL);
	KUNIT_EXPECT_EQ(test, host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES),
			w + 2);
	/* A write to 8 ends 3 above the window: flushes 4 (2-5). */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 8, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[0].wp, 6ULL);
	KUNIT_EXPECT_EQ(test, host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES),
			w + 6);
	/* Below the write pointer now: Zone Invalid Write. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 5, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_ZONE_INVALID_WRITE));
	/* Finish programs the window (6-8), the zone Full, the ZRWA freed. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_FINISH, 0), 0);
	KUNIT_EXPECT_EQ(test, host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES),
			w + 9);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[0].state, VFN_ZS_FULL);
	KUNIT_EXPECT_FALSE(test, zones(test)->zones[0].zrwa);
	KUNIT_EXPECT_EQ(test, zones(test)->nr_zrwa, 0U);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 2 * PG, 0x44, PG));
	unmake_zoned(test);
}

/*
 * A write into a ZRWA window that fails after the zones took it (an
 * injected Write Fault) changes nothing: not the write pointer its
 * implicit flush would have moved, not the window, and the flush
 * programs nothing.
 */
static void zoned_zrwa_refused_write(struct kunit *test)
{
	struct vfn_zoned *z;
	u64 w;

	make_zoned_zrwa(test);
	z = zones(test);
	KUNIT_ASSERT_EQ(test, zone_send(test, 0, NVME_ZONE_OPEN, ZMS_ZRWAA), 0);
	write_blocks(test, 0, 2);
	w = host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES);
	arm(test, VFLASH_FAULT_WRITE_FAULT, "6-6", "1");
	/* Ends 3 above the window: it would flush 4 blocks. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 6, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_WRITE_FAULT));
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 0ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 2ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].state, VFN_ZS_EOPEN);
	KUNIT_EXPECT_TRUE(test, z->zones[0].zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 1U);
	/* At most the failed write's own page charged, no flush. */
	KUNIT_EXPECT_LE(test, host_pages(test, VFLASH_STAT_HOST_WRITE_PAGES),
			w + 1);
	/* The same write goes through once the rule is spent. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 6, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 4ULL);
	unmake_zoned(test);
}

/*
 * A power cut and the ZRWA window: without power-loss protection the
 * window is lost (its blocks read zeros, the write pointer at the last
 * flushed point, Closed); with plp it is flushed (the write pointer past
 * the last block written). Either way the ZRWA is gone.
 */
static void zoned_zrwa_cut(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_zoned *z;
	u32 i;

	make_zoned_zrwa(test);
	z = zones(test);
	e->c->wce = true;
	log_writes(test);
	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_ASSERT_EQ(test, zone_send(test, 0, NVME_ZONE_OPEN, ZMS_ZRWAA), 0);
	KUNIT_ASSERT_EQ(test, zone_send(test, 16, NVME_ZONE_OPEN, ZMS_ZRWAA),
			0);
	write_blocks(test, 0, 4);
	write_blocks(test, 16, 19);
	KUNIT_ASSERT_EQ(test, zone_send(test, 1, VFN_ZSA_ZRWA_FLUSH, 0), 0);
	/* The host's Flush: the flushed blocks durable, not the window. */
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_flush, 0, 1, 0, 0, 0), 0);
	vfn_io_power_cut(e->c, NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 2ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].written, 2ULL);
	KUNIT_EXPECT_EQ(test, z->zones[0].state, VFN_ZS_CLOSED);
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 16ULL);
	KUNIT_EXPECT_EQ(test, z->zones[1].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + i * PG, 0xaa, PG));
	for (i = 2; i < 20; i++)
		KUNIT_EXPECT_TRUE_MSG(test, all_bytes(e->store + i * PG, 0, PG),
				      "block %u", i);

	/* With plp (set while power_cut is disarmed): the window is flushed. */
	KUNIT_ASSERT_EQ(test, vflash_fault_set(&e->vdev->faults,
					       VFLASH_FAULT_POWER_CUT, "armed",
					       "0"), 0);
	make_zoned_zrwa(test);
	z = zones(test);
	e->vdev->faults.plp = true;
	KUNIT_ASSERT_EQ(test, zone_send(test, 32, NVME_ZONE_OPEN, ZMS_ZRWAA),
			0);
	write_blocks(test, 32, 35);
	vfn_io_power_cut(e->c, NSEC_PER_SEC);
	e->vdev->faults.plp = false;
	KUNIT_EXPECT_EQ(test, z->zones[2].wp, 35ULL);
	KUNIT_EXPECT_FALSE(test, z->zones[2].zrwa);
	KUNIT_EXPECT_EQ(test, z->nr_zrwa, 0U);
	for (i = 32; i < 35; i++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + i * PG, 0xaa, PG));
	unmake_zoned(test);
}

/*
 * A read-only rule on a zoned namespace turns the zone Read Only, lists
 * it in the Changed Zone List (once, until the log is read) and refuses
 * the write with Zone Is Read Only; an offline zone refuses reads.
 */
static void zoned_read_only_and_offline(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_ctrl *c = e->c;
	u8 *log = e->mem + 5 * PG;

	make_zoned(test, 8, 0, 0);
	arm(test, VFLASH_FAULT_READ_ONLY, "48-48", "0");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 48, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_ZONE_READ_ONLY));
	KUNIT_EXPECT_EQ(test, zones(test)->zones[3].state, VFN_ZS_RDONLY);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 48, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_ZONE_READ_ONLY));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(c->vdev->flash,
						VFLASH_STAT_ZONE_READ_ONLY), 1ULL);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 1,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(log), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(log + 8), 48ULL);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 1,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(log), 0);
	KUNIT_EXPECT_EQ(test, zone_send(test, 48, NVME_ZONE_RESET, false),
			DNR(NVME_SC_ZONE_INVALID_TRANSITION));
	KUNIT_EXPECT_EQ(test, zone_send(test, 48, NVME_ZONE_OFFLINE, false), 0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 50, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_ZONE_OFFLINE));
	/* Reads elsewhere may cross zones and read past the write pointer. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 15, 2, 0, 3 * PG,
				     4 * PG), 0);
	unmake_zoned(test);
}

/*
 * Namespace 1 zoned (16 zones of 16 blocks) with 128-byte descriptor
 * extensions, Finish Recommended after @frl_s s, Reset after @rrl_s s.
 */
static void make_zoned_ext(struct kunit *test, u32 ext, u32 frl_s, u32 rrl_s)
{
	struct vfn_ctrl *c = ((struct admin_env *)test->priv)->c;
	struct vfn_zone_geo zg = {
		.zsze = 16, .zcap = 16, .ext_bytes = ext, .frl_s = frl_s,
		.rrl_s = rrl_s,
	};

	setup_table(test, &zg, true, 0);
	if (!c->zreport)
		c->zreport = kvmalloc(VFN_MAX_XFER_BYTES, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->zreport);
}

/* Set Zone Descriptor Extension of @slba's zone from host page 3. */
static u16 zone_set_ext(struct kunit *test, u64 slba, bool all)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.zms.opcode = nvme_cmd_zone_mgmt_send;
	cmd.zms.nsid = cpu_to_le32(1);
	cmd.zms.slba = cpu_to_le64(slba);
	cmd.zms.zsa = NVME_ZONE_SET_DESC_EXT;
	cmd.zms.select_all = all;
	cmd.common.dptr.prp1 = cpu_to_le64(3 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* Extended Report Zones from @slba into host page 6, @bytes long. */
static u16 zone_report_ext(struct kunit *test, u64 slba, u32 bytes, u8 zrasf)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.zmr.opcode = nvme_cmd_zone_mgmt_recv;
	cmd.zmr.nsid = cpu_to_le32(1);
	cmd.zmr.slba = cpu_to_le64(slba);
	cmd.zmr.numd = cpu_to_le32(bytes / 4 - 1);
	cmd.zmr.zra = VFN_ZRA_EXT_REPORT;
	cmd.zmr.zrasf = zrasf;
	cmd.common.dptr.prp1 = cpu_to_le64(6 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/*
 * Zone descriptor extensions through the command path: Identify's ZDES,
 * Set Zone Descriptor Extension from the host's buffer, Extended Report
 * Zones; ZDES 0, Select All, a zone not Empty and an SLBA that is no zone
 * start are refused with DNR and change nothing.
 */
static void zoned_descriptor_extensions(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *rep = e->mem + 6 * PG, *id = e->mem + 5 * PG;

	make_zoned(test, 16, 0, 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, id[2816 + 8], 0);
	KUNIT_EXPECT_EQ(test, zone_set_ext(test, 0, false),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zones(test)->zones[0].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, zone_report_ext(test, 0, PG, 0),
			DNR(NVME_SC_INVALID_FIELD));
	make_zoned_ext(test, 128, 0, 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, id[2816 + 8], 2);
	memset(e->mem + 3 * PG, 0x5e, 128);
	KUNIT_EXPECT_EQ(test, zone_set_ext(test, 16, true),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zone_set_ext(test, 17, false),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].state, VFN_ZS_EMPTY);
	KUNIT_EXPECT_EQ(test, zone_set_ext(test, 16, false), 0);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].state, VFN_ZS_CLOSED);
	memset(e->mem + 3 * PG, 0x11, 128);
	KUNIT_EXPECT_EQ(test, zone_set_ext(test, 16, false),
			DNR(NVME_SC_ZONE_INVALID_TRANSITION));
	/* Two entries of 64 + 128 bytes after the header. */
	memset(rep, 0xff, PG);
	KUNIT_EXPECT_EQ(test, zone_report_ext(test, 0, 64 + 2 * 192, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(rep), 16ULL);
	KUNIT_EXPECT_EQ(test, rep[64 + 2], 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(rep + 128, 0, 128));
	KUNIT_EXPECT_EQ(test, rep[64 + 192 + 1], VFN_ZS_CLOSED << 4);
	KUNIT_EXPECT_EQ(test, rep[64 + 192 + 2], (u8)VFN_ZA_ZDEV);
	KUNIT_EXPECT_TRUE(test, all_bytes(rep + 128 + 192, 0x5e, 128));
	/* A reset takes it away. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, zone_report_ext(test, 16, 64 + 192, 0), 0);
	KUNIT_EXPECT_EQ(test, rep[64 + 2], 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(rep + 128, 0, 128));
	unmake_zoned(test);
}

/*
 * Finish and Reset Recommended through the dispatcher's tick: Identify's
 * FRL and RRL, the attributes in Report Zones, the zone on the Changed
 * Zone List once and a Zone Descriptor Changed event, masked until the
 * log is read; without limits the tick changes nothing.
 */
static void zoned_recommendations(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_ctrl *c = e->c;
	u8 *log = e->mem + 5 * PG, *rep = e->mem + 6 * PG;
	u32 zone = NVME_AER_NOTICE | VFN_AER_ZONE_CHANGED << 8 |
		   VFN_LOG_CHANGED_ZONES << 16;

	make_zoned(test, 16, 0, 0);
	KUNIT_ASSERT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_ASYNC_EVENT, BIT(27), 0, 0, NULL),
			0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 0, 1, 0, 3 * PG, 0),
			0);
	c->zrec_next_ns = 0;
	vfn_admin_tick(c, 1000ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[0].za, 0);
	KUNIT_EXPECT_EQ(test, aen_head(c), 0U);
	make_zoned_ext(test, 0, 2, 4);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(log + 12), 4U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(log + 16), 2U);
	/* Written at model time 0 (run_io's): open from then on. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 16, 1, 0, 3 * PG, 0),
			0);
	c->zrec_next_ns = 0;
	vfn_admin_tick(c, 2 * NSEC_PER_SEC - 1);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].za, 0);
	c->zrec_next_ns = 0;
	vfn_admin_tick(c, 2 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].za, (u8)VFN_ZA_FZR);
	KUNIT_EXPECT_EQ(test, aen_head(c), zone);
	KUNIT_EXPECT_EQ(test, zone_report(test, 16, 128, 0, false), 0);
	KUNIT_EXPECT_EQ(test, rep[64 + 2], (u8)VFN_ZA_FZR);
	/* Reset Recommended too: the list holds the zone once, no event. */
	c->zrec_next_ns = 0;
	vfn_admin_tick(c, 4 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].za,
			(u8)(VFN_ZA_FZR | VFN_ZA_RZR));
	KUNIT_EXPECT_EQ(test, c->aen_nr, 1U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 1,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(log), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(log + 8), 16ULL);
	/* A Finish clears FZR, a Reset both; nothing more is reported. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].za, (u8)VFN_ZA_RZR);
	KUNIT_EXPECT_EQ(test, zone_send(test, 16, NVME_ZONE_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, zones(test)->zones[1].za, 0);
	c->zrec_next_ns = 0;
	vfn_admin_tick(c, 100 * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 1,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(log), 0);
	unmake_zoned(test);
}

/*
 * A conventional namespace has no zone commands, and a controller
 * without zones answers no zoned Identify or effects log; one with zones
 * marks Zone Append, without which Linux makes the namespace read-only.
 */
static void zoned_discovery(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct nvme_effects_log *log = (void *)(e->mem + 5 * PG);
	u32 effects = NVME_LOG_CMD_EFFECTS | 1023 << 16;

	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_zone_append, 0, 1, 0,
				     3 * PG, 0), DNR(NVME_SC_INVALID_OPCODE));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), DNR(VFN_SC_INVALID_IOCS));
	/* CNS 01h does not read CSI. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 0,
				  NVME_ID_CNS_CTRL, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 0, effects,
				  0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(log->iocs[nvme_cmd_write]),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(log->iocs[nvme_cmd_zone_append]), 0U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(log->acs[nvme_admin_identify]),
			NVME_CMD_EFFECTS_CSUPP);
	/* Get Log Page CSI is CDW14 bits 31:24. */
	make_zoned(test, 16, 4, 2);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1,
				  NVME_ID_CNS_CS_NS, NVME_CSI_ZNS << 24, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(e->mem + 5 * PG + 4), 3U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(e->mem + 5 * PG + 8), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(e->mem + 5 * PG + 2816),
			16ULL);
	unmake_zoned(test);
}

/*
 * Give namespace 1 Flexible Data Placement with @nruh handles: the flash
 * made again with a write stream per handle, as vflash_dev_create() makes
 * it for fdp=1.
 */
static void make_fdp(struct kunit *test, u16 nruh)
{
	struct admin_env *e = test->priv;
	struct vflash_profile *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	struct vfn_ctrl *c = e->c;

	KUNIT_ASSERT_NOT_NULL(test, p);
	*p = prof;
	p->placement_handles = nruh;
	vflash_faults_destroy(&e->vdev->faults);
	vflash_flash_destroy(e->vdev->flash);
	e->vdev->flash = vflash_flash_create(p, BIT_ULL(20));
	KUNIT_ASSERT_FALSE(test, IS_ERR(e->vdev->flash));
	KUNIT_ASSERT_EQ(test, vflash_faults_init(&e->vdev->faults,
						 e->vdev->flash, NS_BLOCKS,
						 "vflash-t"), 0);
	KUNIT_ASSERT_EQ(test, vflash_flash_placement_handles(e->vdev->flash),
			(u32)nruh);
	vfn_fdp_init(&c->fdp, nruh,
		     vflash_flash_placement_ru_bytes(e->vdev->flash));
	/* FDP: no Zoned command set; every conventional namespace placed. */
	setup_table(test, NULL, false, nruh);
}

/* A 4 KiB Write of block @slba from host page 3, DTYPE @dtype, DSPEC @ds. */
static u16 placed_write(struct kunit *test, u64 slba, u32 dtype, u32 ds)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.rw.opcode = nvme_cmd_write;
	cmd.rw.nsid = cpu_to_le32(1);
	cmd.rw.slba = cpu_to_le64(slba);
	cmd.common.cdw12 = cpu_to_le32(dtype << 20);
	cmd.common.cdw13 = cpu_to_le32(ds << 16);
	cmd.common.dptr.prp1 = cpu_to_le64(3 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* I/O Management Receive (@op 12h) or Send (1Dh), buffer in host page 6. */
static u16 io_mgmt(struct kunit *test, u8 op, u32 cdw10, u32 cdw11)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.common.opcode = op;
	cmd.common.nsid = cpu_to_le32(1);
	cmd.common.cdw10 = cpu_to_le32(cdw10);
	cmd.common.cdw11 = cpu_to_le32(cdw11);
	cmd.common.dptr.prp1 = cpu_to_le64(6 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* Get Log Page @lid of endurance group @lsi, LSP @lsp, into host page 5. */
static u16 fdp_log(struct kunit *test, u8 lid, u16 lsi, u8 lsp)
{
	return run(test, nvme_admin_get_log_page, 0,
		   lid | lsp << 8 | 1023 << 16, (u32)lsi << 16, 0, 5 * PG,
		   NULL);
}

/*
 * The common fields of the FDP event descriptor at @d (log 23h): type,
 * flags, PID, NSID and RUHID.
 */
static void expect_fdp_event(struct kunit *test, const u8 *d, u8 type,
			     u8 flags, u16 pid, u32 nsid, u8 ruhid)
{
	KUNIT_EXPECT_EQ(test, d[0], type);
	KUNIT_EXPECT_EQ(test, d[1], flags);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(d + 2), pid);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(d + 12), nsid);
	KUNIT_EXPECT_EQ(test, d[34], ruhid);
}

/* Handle @ph's host pages written (or, @media, pages programmed) */
static u64 ph_pages(struct kunit *test, u32 ph, bool media)
{
	struct admin_env *e = test->priv;
	u64 h, m;

	vflash_flash_placement_stat(e->vdev->flash, ph, &h, &m);
	return media ? m : h;
}

/*
 * FDP's discovery and logs, byte by byte: CTRATT, ENDGIDMAX, ENDGID, the
 * configuration, the usage, the statistics; the wrong endurance group,
 * FDP off.
 */
static void fdp_identify_and_logs(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *b = e->mem + 5 * PG;
	u32 i;

	/* Without FDP: no FDPS, no logs, no placed writes, no 12h/1Dh. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 0,
				  NVME_ID_CNS_CTRL, 0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 96) & BIT(19), 0U);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x20, 1, 0),
			DNR(NVME_SC_INVALID_LOG_PAGE));
	KUNIT_EXPECT_EQ(test, placed_write(test, 0, 2, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 1, 3),
			DNR(NVME_SC_INVALID_OPCODE));

	make_fdp(test, 4);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 0,
				  NVME_ID_CNS_CTRL, 0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 96),
			(u32)(BIT(19) | BIT(4)));
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 340), 1);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_identify, 1, NVME_ID_CNS_NS,
				  0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 102), 1);

	/* 20h: header, one 64-byte descriptor, 4 RUH descriptors. */
	memset(b, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x20, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 16U + 64 + 16);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 16), 64 + 16);
	KUNIT_EXPECT_EQ(test, b[18], 0x90);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 20), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 24), 4);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 26), 3);
	/* NNSS: every namespace the controller can make may use it. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 28), (u32)VFN_MAX_NS);
	/* RUNS: a 16-page block on each of the 2 dies. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 32), 2ULL * 16 * 4096);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 40), 0U);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, b[80 + 4 * i], 1);
	/* Zeros past the log, not what the buffer held. */
	KUNIT_EXPECT_TRUE(test, all_bytes(b + 96, 0, 64));
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x20, 2, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x20, 0, 0),
			DNR(NVME_SC_INVALID_FIELD));

	/* 21h: 4 handles, each host specified. */
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x21, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b), 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, b[8 + 8 * i], 1);
	KUNIT_EXPECT_EQ(test, b[8 + 8 * 4], 0);

	/* 22h: a 4 KiB write is 4096 host bytes; programs and erases. */
	memset(e->mem + 3 * PG, 0x5a, PG);
	KUNIT_EXPECT_EQ(test, placed_write(test, 7, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x22, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b), 4096ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 8), 0ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 16),
			4096 * vflash_flash_stat(e->vdev->flash,
					VFLASH_STAT_NAND_PROGRAM_PAGES));
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 32), 0ULL);

	/* 23h: no events yet, host or controller. */
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
}

/*
 * Features 1Dh (FDP) and 1Eh (FDP Events): FDP is on and stays so, the
 * events can be switched per handle, all or nothing; a reset brings them
 * back.
 */
static void fdp_features(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *b = e->mem + 5 * PG;
	u32 res = 0;

	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1d, 1, 0,
				  0, &res), DNR(NVME_SC_INVALID_FIELD));
	make_fdp(test, 4);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1d, 1, 0,
				  0, &res), 0);
	KUNIT_EXPECT_EQ(test, res, 1U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1d, 2, 0,
				  0, &res), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0, 0x1d, 1, 1,
				  0, NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0, 0x1d, 1, 0,
				  0, NULL), DNR(NVME_SC_CMD_SEQ_ERROR));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0, 0x1d, 1,
				  0x101, 0, NULL), DNR(NVME_SC_INVALID_FIELD));

	/*
	 * 1Eh Get: handle 2, up to 8 types: 00h and 03h (host), 80h and 81h
	 * (controller), all enabled; zeros after them.
	 */
	memset(b, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1e,
				  2 | 8 << 16, 0, 5 * PG, &res), 0);
	KUNIT_EXPECT_EQ(test, res, 4U);
	KUNIT_EXPECT_EQ(test, b[0], 0x00);
	KUNIT_EXPECT_EQ(test, b[1], 1);
	KUNIT_EXPECT_EQ(test, b[2], 0x03);
	KUNIT_EXPECT_EQ(test, b[3], 1);
	KUNIT_EXPECT_EQ(test, b[4], 0x80);
	KUNIT_EXPECT_EQ(test, b[5], 1);
	KUNIT_EXPECT_EQ(test, b[6], 0x81);
	KUNIT_EXPECT_EQ(test, b[7], 1);
	KUNIT_EXPECT_EQ(test, b[8], 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1e,
				  4 | 8 << 16, 0, 5 * PG, &res),
			DNR(NVME_SC_INVALID_FIELD));

	/* 1Eh Set: disable 03h on handle 0; an invalid id logs nothing. */
	b[0] = 0x03;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0, 0x1e,
				  0 | 1 << 16, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, placed_write(test, 0, 2, 9), 0);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
	/* A list with an unsupported type (82h) changes nothing. */
	b[0] = 0x00;
	b[1] = 0x82;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0, 0x1e,
				  0 | 2 << 16, 0, 5 * PG, NULL),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1e,
				  0 | 2 << 16, 0, 5 * PG, &res), 0);
	KUNIT_EXPECT_EQ(test, b[1], 1);
	KUNIT_EXPECT_EQ(test, b[3], 0);
	/* A controller reset enables every event again. */
	e->c->cq[0].gen++;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1e,
				  0 | 2 << 16, 0, 5 * PG, &res), 0);
	KUNIT_EXPECT_EQ(test, b[3], 1);
	/* Capabilities: 1Dh not changeable, 1Eh changeable. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  0x1d | 3 << 8, 1, 0, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res, 0U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  0x1e | 3 << 8, 0, 0, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res, (u32)BIT(2));
}

/*
 * Placed writes go to their handle's stream; an identifier past the
 * handles goes to handle 0 and is an event; other directives are refused.
 */
static void fdp_placed_writes(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *b = e->mem + 5 * PG;

	make_fdp(test, 4);
	memset(e->mem + 3 * PG, 0x77, PG);
	KUNIT_EXPECT_EQ(test, placed_write(test, 1, 2, 2), 0);
	KUNIT_EXPECT_EQ(test, placed_write(test, 2, 2, 2), 0);
	KUNIT_EXPECT_EQ(test, placed_write(test, 3, 2, 3), 0);
	KUNIT_EXPECT_EQ(test, placed_write(test, 4, 0, 3), 0);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 2, false), 2ULL);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 3, false), 1ULL);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 0, false), 1ULL);
	KUNIT_EXPECT_EQ(test, e->store[2 * PG], 0x77);

	/* Placement identifier 4 of 4 handles: handle 0, one event. */
	KUNIT_EXPECT_EQ(test, placed_write(test, 5, 2, 4), 0);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 0, false), 2ULL);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	expect_fdp_event(test, b + 64, 0x03, 0x07, 4, 1, 0);
	/* The controller events: none (no data moved). */
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);

	/* Streams (1h) and reserved types: Invalid Field, nothing written. */
	KUNIT_EXPECT_EQ(test, placed_write(test, 6, 1, 1),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, placed_write(test, 6, 0xf, 1),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, e->store[6 * PG], 0);

	/* 63 events are kept, the newest: 70 invalid identifiers. */
	{
		u32 i;

		for (i = 0; i < 70; i++)
			KUNIT_EXPECT_EQ(test, placed_write(test, 8, 2, 100 + i),
					0);
	}
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 63U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 64 + 2), 100 + 7);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 64 * 63 + 2), 100 + 69);
}

/*
 * Reclaim Unit Handle Status and Update: RUAMW counts what a handle's
 * unit can still take; an update gives it a new one and reports the old
 * one not fully written; one bad identifier changes nothing.
 */
static void fdp_ruh_status_and_update(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *st = e->mem + 6 * PG;
	u64 full;

	make_fdp(test, 4);
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 1, 1024 / 4 - 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(st + 14), 4);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(st + 16 + 32 * 3), 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(st + 16 + 32 * 3 + 2), 3);
	full = get_unaligned_le64(st + 16 + 32 * 1 + 8);
	/* A 16-page block on each of 2 dies. */
	KUNIT_EXPECT_EQ(test, full, 32ULL);
	memset(e->mem + 3 * PG, 0x33, PG);
	KUNIT_EXPECT_EQ(test, placed_write(test, 9, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, placed_write(test, 10, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 1, 1024 / 4 - 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(st + 16 + 32 * 1 + 8),
			full - 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(st + 16 + 32 * 2 + 8), full);
	/* Update handles 1 and 2: 1's unit was partly written, 2's fresh. */
	put_unaligned_le16(1, st);
	put_unaligned_le16(2, st + 2);
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x1d, 1 | 1 << 16, 0), 0);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(e->mem + 5 * PG), 1U);
	KUNIT_EXPECT_EQ(test, e->mem[5 * PG + 64], 0x00);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(e->mem + 5 * PG + 66), 1);
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 1, 1024 / 4 - 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(st + 16 + 32 * 1 + 8), full);
	KUNIT_EXPECT_EQ(test, e->store[9 * PG], 0x33);
	/* One invalid identifier (4): Invalid Field, nothing updated. */
	KUNIT_EXPECT_EQ(test, placed_write(test, 11, 2, 3), 0);
	put_unaligned_le16(3, st);
	put_unaligned_le16(4, st + 2);
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x1d, 1 | 1 << 16, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 1, 1024 / 4 - 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(st + 16 + 32 * 3 + 8),
			full - 1);
	/* More identifiers than handles, another operation: Invalid Field. */
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x1d, 1 | 4 << 16, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x1d, 2, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 0, 3),
			DNR(NVME_SC_INVALID_FIELD));
	/* Past MDTS. */
	KUNIT_EXPECT_EQ(test, io_mgmt(test, 0x12, 1, VFN_MAX_XFER_BYTES / 4),
			DNR(NVME_SC_INVALID_FIELD));
	/* The effects log marks both commands. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 0,
				  NVME_LOG_CMD_EFFECTS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(e->mem + 5 * PG + 1024 +
						 4 * 0x12),
			NVME_CMD_EFFECTS_CSUPP);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(e->mem + 5 * PG + 1024 +
						 4 * 0x1d),
			NVME_CMD_EFFECTS_CSUPP);
}

/*
 * The controller events' bookkeeping, without a backend: their own ring
 * (the host's untouched), oldest first, the newest 63 kept; Media
 * Reallocated's fields (NLBAM saturating at FFFFh, LBAV and NSIDV only
 * with a namespace); enabled per handle and type.
 */
static void fdp_controller_event_ring(struct kunit *test)
{
	struct vfn_fdp *fdp = kunit_kzalloc(test, sizeof(*fdp), GFP_KERNEL);
	u8 *log = kunit_kzalloc(test, VFN_FDP_LOG_BYTES, GFP_KERNEL);
	const u8 *e;
	u8 type;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, fdp);
	KUNIT_ASSERT_NOT_NULL(test, log);
	vfn_fdp_init(fdp, 4, 1 << 20);
	for (i = 0; i < 70; i++)
		KUNIT_EXPECT_TRUE(test, vfn_fdp_media_reallocated(fdp, 1, 1, 1 + i,
								  1, true,
								  100 + i, i));
	KUNIT_EXPECT_EQ(test, vfn_fdp_events_log(fdp, log, false), 64U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(log), 0U);
	KUNIT_EXPECT_EQ(test, vfn_fdp_events_log(fdp, log, true),
			64U + 64 * 63);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(log), 63U);
	for (i = 0; i < 63; i++) {
		e = log + 64 + 64 * i;
		KUNIT_EXPECT_EQ(test, e[0], 0x80);
		/* PIV, NSIDV, LV */
		KUNIT_EXPECT_EQ(test, e[1], 0x07);
		KUNIT_EXPECT_EQ(test, get_unaligned_le16(e + 2), 1);
		KUNIT_EXPECT_EQ(test, get_unaligned_le64(e + 4), 7ULL + i);
		KUNIT_EXPECT_EQ(test, get_unaligned_le32(e + 12), 1U);
		KUNIT_EXPECT_EQ(test, e[16], 1);
		KUNIT_EXPECT_EQ(test, get_unaligned_le16(e + 18), 8 + i);
		KUNIT_EXPECT_EQ(test, get_unaligned_le64(e + 20), 107ULL + i);
		KUNIT_EXPECT_EQ(test, get_unaligned_le16(e + 32), 0);
		KUNIT_EXPECT_EQ(test, e[34], 1);
	}
	/* No namespace: no NSID, no LBA; 70000 blocks reported as FFFFh. */
	KUNIT_EXPECT_TRUE(test, vfn_fdp_media_reallocated(fdp, 3, -1, 70000, 0,
							  false, 5, 99));
	KUNIT_EXPECT_TRUE(test, vfn_fdp_event(fdp, VFN_FDP_EVT_IMPLICIT_RUH,
					      VFN_FDP_EVF_PIV | VFN_FDP_EVF_LV,
					      2, 2, 0, 100));
	vfn_fdp_events_log(fdp, log, true);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(log), 63U);
	e = log + 64 + 64 * 61;
	KUNIT_EXPECT_EQ(test, e[0], 0x80);
	/* No namespace: no placement identifier either (LV only). */
	KUNIT_EXPECT_EQ(test, e[1], 0x04);
	KUNIT_EXPECT_EQ(test, e[16], 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(e + 18), 0xffff);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(e + 20), 0ULL);
	KUNIT_EXPECT_EQ(test, e[34], 3);
	e += 64;
	KUNIT_EXPECT_EQ(test, e[0], 0x81);
	KUNIT_EXPECT_EQ(test, e[34], 2);
	/* The oldest two made room: the first kept is the 10th logged. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(log + 64 + 4), 9ULL);

	/* Disabled on handle 1: not logged there; handle 0 still logs. */
	type = VFN_FDP_EVT_MEDIA_REALLOC;
	KUNIT_EXPECT_EQ(test, vfn_fdp_events_set(fdp, 1 | 1 << 16, 0, &type),
			0);
	KUNIT_EXPECT_FALSE(test, vfn_fdp_media_reallocated(fdp, 1, 1, 1, 1, true,
							   0, 200));
	KUNIT_EXPECT_TRUE(test, vfn_fdp_event(fdp, VFN_FDP_EVT_IMPLICIT_RUH,
					      0, 1, 1, 0, 201));
	KUNIT_EXPECT_TRUE(test, vfn_fdp_media_reallocated(fdp, 0, 0, 1, 1, true,
							  0, 202));
	vfn_fdp_events_log(fdp, log, true);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(log + 64 + 64 * 62 + 4),
			202ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(log + 64 + 64 * 61 + 4),
			201ULL);
	/* The host ring is still empty; a host event does not touch these. */
	KUNIT_EXPECT_TRUE(test, vfn_fdp_event(fdp, VFN_FDP_EVT_INVALID_PID,
					      0, 9, 0, 1, 300));
	KUNIT_EXPECT_EQ(test, vfn_fdp_events_log(fdp, log, false), 128U);
	vfn_fdp_events_log(fdp, log, true);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(log + 64 + 64 * 62 + 4),
			202ULL);
	/* Enabled again, and defaults after a reset. */
	KUNIT_EXPECT_EQ(test, vfn_fdp_events_set(fdp, 1 | 1 << 16, 1, &type),
			0);
	KUNIT_EXPECT_TRUE(test, vfn_fdp_media_reallocated(fdp, 1, 1, 1, 1, true,
							  0, 203));
	vfn_fdp_events_set(fdp, 2 | 1 << 16, 0, &type);
	vfn_fdp_events_default(fdp);
	KUNIT_EXPECT_TRUE(test, vfn_fdp_media_reallocated(fdp, 2, 2, 1, 1, true,
							  0, 204));
}

/*
 * GC moving a handle's data is a Media Reallocated event of that handle
 * in the controller events (log 23h, LSP 0), reported once, counting
 * what moved and naming a block it wrote; disabled, nothing more.
 */
static void fdp_media_reallocated_by_gc(struct kunit *test)
{
	struct admin_env *e = test->priv;
	const struct vflash_policy *inl;
	struct vflash_placement_events ev;
	u8 *b = e->mem + 5 * PG;
	u32 i, n, x = 2026;

	make_fdp(test, 4);
	inl = vflash_policy_find(VFLASH_POLICY_MAINTENANCE, "inline");
	KUNIT_ASSERT_NOT_NULL(test, inl);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_policy(e->vdev->flash, inl), 0);
	memset(e->mem + 3 * PG, 0x42, PG);
	/* Random blocks of 0-127 with handle 2: GC finds some still valid. */
	for (i = 0; i < 40 * 128; i++) {
		x = x * 1103515245 + 12345;
		KUNIT_ASSERT_EQ(test, placed_write(test, (x >> 8) % 128, 2, 2),
				0);
	}
	vflash_flash_placement_events(e->vdev->flash, 2, &ev);
	KUNIT_ASSERT_GT(test, ev.moved_pages, 0ULL);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	expect_fdp_event(test, b + 64, 0x80, 0x07, 2, 1, 2);
	KUNIT_EXPECT_EQ(test, b[80], 1);
	/* 4 KiB blocks: a page is a block. */
	KUNIT_EXPECT_EQ(test, (u64)get_unaligned_le16(b + 82),
			min_t(u64, ev.moved_pages, 0xffff));
	/* The backend's last page moved: namespace 1 starts at page 0. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 84), ev.moved_lpn);
	KUNIT_EXPECT_LT(test, get_unaligned_le64(b + 84), 128ULL);
	/* The host events: none. */
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
	/* Read again, nothing new: the same one event. */
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);

	/* 80h disabled on handle 2 (Set Features 1Eh): no more events. */
	b[0] = 0x80;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0, 0x1e,
				  2 | 1 << 16, 0, 5 * PG, NULL), 0);
	n = ev.moved_pages;
	for (i = 0; i < 20 * 128; i++) {
		x = x * 1103515245 + 12345;
		KUNIT_ASSERT_EQ(test, placed_write(test, (x >> 8) % 128, 2, 2),
				0);
	}
	vflash_flash_placement_events(e->vdev->flash, 2, &ev);
	KUNIT_EXPECT_GT(test, ev.moved_pages, (u64)n);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	/* The dispatcher's periodic look finds nothing either. */
	vfn_admin_tick(e->c, U64_MAX / 2);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
}

/*
 * A failed program retires handle 1's open block: an Implicitly Modified
 * RUH event (81h) for it, then a Media Reallocated one (80h) for the
 * pages moved off it, the host events untouched.
 */
static void fdp_retired_block_events(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_faults *ft = &e->vdev->faults;
	u8 *b = e->mem + 5 * PG;
	u32 i;

	make_fdp(test, 4);
	memset(e->mem + 3 * PG, 0x24, PG);
	for (i = 0; i < 10; i++)
		KUNIT_ASSERT_EQ(test, placed_write(test, i, 2, 1), 0);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_PROGRAM_FAIL,
					       "range", "12-12"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_PROGRAM_FAIL,
					       "times", "1"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_PROGRAM_FAIL,
					       "armed", "1"), 0);
	for (i = 10; i < 14; i++)
		KUNIT_ASSERT_EQ(test, placed_write(test, i, 2, 1), 0);
	KUNIT_ASSERT_EQ(test, vflash_flash_stat(e->vdev->flash,
						VFLASH_STAT_FAULT_PROGRAM_FAILS),
			1ULL);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	/* 81h: PIV, LV; PID and RUHID 1, no NSID. */
	expect_fdp_event(test, b + 64, 0x81, 0x05, 1, 0, 1);
	/* 80h: the pages moved off, one of blocks 0-13 named. */
	KUNIT_EXPECT_EQ(test, b[128], 0x80);
	KUNIT_EXPECT_EQ(test, b[129], 0x07);
	KUNIT_EXPECT_EQ(test, b[162], 1);
	KUNIT_EXPECT_GT(test, get_unaligned_le16(b + 128 + 18), 0);
	KUNIT_EXPECT_LT(test, get_unaligned_le64(b + 128 + 20), 14ULL);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
}

/* Namespace Management create: @nsze blocks (NCAP @ncap), CSI @csi. */
static u16 ns_create(struct kunit *test, u64 nsze, u64 ncap, u8 csi,
		     u32 *nsid)
{
	struct admin_env *e = test->priv;
	struct nvme_id_ns *id = (void *)(e->mem + 7 * PG);

	memset(id, 0, PG);
	id->nsze = cpu_to_le64(nsze);
	id->ncap = cpu_to_le64(ncap);
	return run(test, nvme_admin_ns_mgmt, 0, 0, (u32)csi << 24, 0, 7 * PG,
		   nsid);
}

/* Namespace Attachment of @nsid to (or from) this controller. */
static u16 ns_attach(struct kunit *test, u32 nsid, bool attach)
{
	struct admin_env *e = test->priv;

	memset(e->mem + 7 * PG, 0, PG);
	put_unaligned_le16(1, e->mem + 7 * PG);
	put_unaligned_le16(VFN_CNTLID, e->mem + 7 * PG + 2);
	return run(test, nvme_admin_ns_attach, nsid, attach ? 0 : 1, 0, 0,
		   7 * PG, NULL);
}

static u16 ns_delete(struct kunit *test, u32 nsid)
{
	return run(test, nvme_admin_ns_mgmt, nsid, 1, 0, 0, 0, NULL);
}

/* Identify CNS @cns (CSI @csi) of @nsid into host page 5; its status. */
static u16 ident(struct kunit *test, u8 cns, u8 csi, u32 nsid)
{
	struct admin_env *e = test->priv;

	memset(e->mem + 5 * PG, 0xaa, PG);
	return run(test, nvme_admin_identify, nsid, cns, (u32)csi << 24, 0,
		   5 * PG, NULL);
}

/* Run a one-block NVM command @op on namespace @nsid, buffer page 3. */
static u16 io_ns(struct kunit *test, u32 nsid, u8 op, u64 slba)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.rw.opcode = op;
	cmd.rw.nsid = cpu_to_le32(nsid);
	cmd.rw.slba = cpu_to_le64(slba);
	cmd.common.dptr.prp1 = cpu_to_le64(3 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/*
 * Namespace Management and Attachment through vfn_admin(): Identify
 * Controller's NN, MNAN, OACS, OAES and capacities; a create, its NSID
 * allocated but inactive (zeros for CNS 00h, data for 11h, listed by 10h
 * only); attached (listed by 02h, identified by 00h and 03h with an NGUID
 * of its own, its controller by 12h); the Changed Namespace List and the
 * Namespace Attribute Changed event, masked until the list is read; a
 * delete (no event), delete all; every refusal's status; the effects log.
 */
static void ns_management_commands(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_ctrl *c = e->c;
	u8 *b = e->mem + 5 * PG;
	u8 nguid1[16];
	u32 nsid = 0, res = 0;

	setup_table_ns1(test, &zg16, false, 0, 128);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 256) & BIT(3), 8);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 516), (u32)VFN_MAX_NS);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 540), (u32)VFN_MAX_NS);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 92), (u32)(BIT(8) | BIT(27)));
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 78), VFN_CNTLID);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 280), (u64)NS_BLOCKS * PG);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 296), 128ULL * PG);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS, 0, 1), 0);
	memcpy(nguid1, b + 104, 16);

	/* Create: NSID 2, inactive; UNVMCAP drops by its 64 blocks. */
	KUNIT_EXPECT_EQ(test, ns_create(test, 64, 64, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 2U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 296), 64ULL * PG);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS, 0, 2), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(b, 0, PG));
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_PRESENT, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b), 64ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 48), 64ULL * PG);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_PRESENT, 0, 3), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(b, 0, PG));
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_ACTIVE_LIST, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 0U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_PRESENT_LIST, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 2U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_DESC_LIST, 0, 2),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL_NS_LIST, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b), 0);

	/* Attach, with the event enabled: reported once. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  NVME_FEAT_ASYNC_EVENT, BIT(8), 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, true), 0);
	KUNIT_EXPECT_EQ(test, aen_head(c), 0x040002U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_ACTIVE_LIST, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 2U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_ACTIVE_LIST, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b), 64ULL);
	KUNIT_EXPECT_NE(test, memcmp(b + 104, nguid1, 16), 0);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_DESC_LIST, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, b[4 + 16 + 4], NVME_CSI_NVM);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL_NS_LIST, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b + 2), VFN_CNTLID);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL_LIST, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b), 1);
	/* The event is held for the next request, which takes it. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_async_event, 0, 0, 0, 0, 0,
				  &res), 0);
	KUNIT_EXPECT_EQ(test, res, 0x040002U);
	KUNIT_EXPECT_EQ(test, aen_head(c), 0U);
	/* Masked until the list is read: a detach reports nothing. */
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, false), 0);
	KUNIT_EXPECT_EQ(test, aen_head(c), 0U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CHANGED_NS | BIT(15) | 1023 << 16,
				  0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 0U);
	KUNIT_EXPECT_TRUE(test, c->ns_aen_masked);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CHANGED_NS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	KUNIT_EXPECT_FALSE(test, c->ns_aen_masked);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CHANGED_NS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, true), 0);
	KUNIT_EXPECT_EQ(test, aen_head(c), 0x040002U);

	/* Refusals. */
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, true),
			DNR(NVME_SC_NS_ALREADY_ATTACHED));
	KUNIT_EXPECT_EQ(test, ns_attach(test, 3, false),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, ns_attach(test, VFN_MAX_NS + 1, false),
			DNR(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, ns_create(test, 65, 65, NVME_CSI_NVM, NULL),
			DNR(NVME_SC_NS_INSUFFICIENT_CAP));
	KUNIT_EXPECT_EQ(test, ns_create(test, 8, 4, NVME_CSI_NVM, NULL),
			DNR(NVME_SC_THIN_PROV_NOT_SUPP));
	KUNIT_EXPECT_EQ(test, ns_create(test, 8, 8, 1, NULL),
			DNR(VFN_SC_IOCS_NOT_SUPPORTED));
	KUNIT_EXPECT_EQ(test, ns_delete(test, 5), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, ns_delete(test, 0), DNR(NVME_SC_INVALID_NS));
	/* No buffer: nothing is read from page 0. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_ns_mgmt, 0, 0, 0, 0, 0,
				  NULL), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_ns_attach, 2, 1, 0, 0, 0,
				  NULL), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, vfn_ns_find(&c->nst, 2, true));

	/* Delete the attached namespace: no event for the host that asked. */
	c->aen_nr = 0;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CHANGED_NS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, ns_delete(test, 2), 0);
	KUNIT_EXPECT_EQ(test, aen_head(c), 0U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CHANGED_NS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 296), 128ULL * PG);
	/* Delete all: none left, every page free; none to delete is fine. */
	KUNIT_EXPECT_EQ(test, ns_delete(test, NVME_NSID_ALL), 0);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_PRESENT_LIST, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 0U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 296), (u64)NS_BLOCKS * PG);
	KUNIT_EXPECT_EQ(test, ns_delete(test, NVME_NSID_ALL), 0);
	/* NSID FFFFFFFFh: the capabilities every namespace has. */
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS, 0, NVME_NSID_ALL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b), 0ULL);
	KUNIT_EXPECT_EQ(test, b[128 + 2], 12);

	/* The effects log: both change the namespace inventory. */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 0,
				  NVME_LOG_CMD_EFFECTS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * nvme_admin_ns_mgmt),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_NIC);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * nvme_admin_ns_attach),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_NIC);
}

/*
 * Two namespaces on one device: each writes to its own pages only, its
 * blocks end where it does; I/O to a detached or deleted namespace is
 * Invalid Field, to an invalid NSID Invalid Namespace; a deleted
 * namespace's data is gone, so one made in its place reads zeros.
 */
static void ns_io_isolation(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u32 nsid = 0;

	setup_table_ns1(test, &zg16, false, 0, 128);
	KUNIT_EXPECT_EQ(test, ns_create(test, 64, 64, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, true), 0);
	/* Namespace 2's block 0 is the device's page 128. */
	memset(e->mem + 3 * PG, 0x5a, PG);
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_write, 0), 0);
	KUNIT_EXPECT_EQ(test, e->store[128 * PG], 0x5a);
	KUNIT_EXPECT_EQ(test, e->store[0], 0);
	memset(e->mem + 3 * PG, 0x11, PG);
	KUNIT_EXPECT_EQ(test, io_ns(test, 1, nvme_cmd_write, 127), 0);
	KUNIT_EXPECT_EQ(test, e->store[127 * PG], 0x11);
	KUNIT_EXPECT_EQ(test, e->store[128 * PG], 0x5a);
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_read, 0), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0x5a, PG));
	/* Each namespace ends at its own size. */
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_read, 63), 0);
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_read, 64),
			DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_EQ(test, io_ns(test, 1, nvme_cmd_write, 128),
			DNR(NVME_SC_LBA_RANGE));
	/* Detached: inactive, Invalid Field; nothing moves. */
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, false), 0);
	memset(e->mem + 3 * PG, 0x77, PG);
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_write, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_read, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_flush, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io_ns(test, VFN_MAX_NS + 1, nvme_cmd_read, 0),
			DNR(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, e->store[128 * PG], 0x5a);
	KUNIT_EXPECT_EQ(test, io_ns(test, NVME_NSID_ALL, nvme_cmd_flush, 0), 0);
	/* Deleted: its pages are zeros, a new namespace there reads them. */
	KUNIT_EXPECT_EQ(test, ns_delete(test, 2), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 128 * PG, 0, 64 * PG));
	KUNIT_EXPECT_EQ(test, e->store[127 * PG], 0x11);
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_read, 0),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, ns_create(test, 128, 128, NVME_CSI_NVM, &nsid),
			0);
	KUNIT_EXPECT_EQ(test, ns_attach(test, nsid, true), 0);
	memset(e->mem + 3 * PG, 0x77, PG);
	KUNIT_EXPECT_EQ(test, io_ns(test, nsid, nvme_cmd_read, 0), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0, PG));
}

/*
 * Regression (issue 38): NVMe 2.x identities a host reads: VS and
 * Identify Controller VER say 2.1 (ZNS, CSI and CNS 1Ch need 2.0, FDP
 * 2.1; they said 1.4); CNS 08h (I/O Command Set Independent Identify
 * Namespace) and log 00h (Supported Log Pages) exist; the Commands
 * Supported and Effects log marks the commands that change blocks
 * (LBCC); Feature 19h (I/O Command Set Profile) reads 0 and takes index
 * 0 only.
 */
static void nvme2_identities(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *b = e->mem + 5 * PG;
	u32 res = 1;

	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CTRL, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 80), 0x00020100U);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_CS_INDEP, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, b[14] & NVME_NSTAT_NRDY, NVME_NSTAT_NRDY);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_CS_INDEP, 0, 0),
			DNR(NVME_SC_INVALID_NS));
	/* An inactive NSID: zeros. */
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_CS_INDEP, 0, 7), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(b, 0, PG));

	memset(b, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  VFN_LOG_SUPPORTED | 255 << 16, 0, 0, 5 * PG,
				  NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * NVME_LOG_SMART), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * NVME_LOG_CMD_EFFECTS),
			1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * 0x06), 0U);
	/* The zoned command set's log as the controller has it; no FDP. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * VFN_LOG_CHANGED_ZONES),
			vfn_nstab_zoned(&e->c->nst) ? 1U : 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4 * VFN_LOG_FDP_CONFIGS),
			0U);

	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CMD_EFFECTS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 1024 + 4 * nvme_cmd_write),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 1024 + 4 * nvme_cmd_dsm),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 1024 + 4 * nvme_cmd_read),
			NVME_CMD_EFFECTS_CSUPP);

	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0,
				  VFN_FEAT_IOCS_PROFILE, 0, 0, 0, &res), 0);
	KUNIT_EXPECT_EQ(test, res, 0U);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  VFN_FEAT_IOCS_PROFILE, 0, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 0,
				  VFN_FEAT_IOCS_PROFILE, 1, 0, 0, NULL),
			DNR(VFN_SC_IOCS_COMBINATION_REJECTED));
}

/*
 * A zoned namespace made by Namespace Management beside a conventional
 * one: its own zones from its block 0, Zone Append and the zoned
 * Identify on it, not on the conventional one.
 */
static void ns_zoned_beside_conventional(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_ctrl *c = e->c;
	u8 *b = e->mem + 5 * PG;
	struct nvme_command cmd = { };
	u32 nsid = 0;

	setup_table_ns1(test, &zg16, false, 0, 128);
	KUNIT_EXPECT_EQ(test, ns_create(test, 40, 40, NVME_CSI_ZNS, NULL),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, ns_create(test, 64, 64, NVME_CSI_ZNS, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 2U);
	KUNIT_EXPECT_NOT_NULL(test, c->zreport);
	/* Not yet attached: its zoned Identify is zeros. */
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CS_NS, NVME_CSI_ZNS, 2),
			0);
	KUNIT_EXPECT_TRUE(test, all_bytes(b, 0, PG));
	KUNIT_EXPECT_EQ(test, ident(test, VFN_ID_CNS_CS_NS_ALLOC, NVME_CSI_ZNS,
				    2), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 2816), 16ULL);
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, true), 0);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CS_NS, NVME_CSI_ZNS, 2),
			0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 2816), 16ULL);
	/* Namespace 1 is not a zoned one: Invalid I/O Command Set. */
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CS_NS, NVME_CSI_ZNS, 1),
			DNR(VFN_SC_INVALID_IOCS));
	KUNIT_EXPECT_EQ(test, ident(test, VFN_ID_CNS_CS_NS_ALLOC, NVME_CSI_ZNS,
				    1), DNR(VFN_SC_INVALID_IOCS));
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_CS_NS, NVME_CSI_ZNS,
				    NVME_NSID_ALL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 2816), 16ULL);
	KUNIT_EXPECT_EQ(test, ident(test, NVME_ID_CNS_NS_DESC_LIST, 0, 2), 0);
	KUNIT_EXPECT_EQ(test, b[4 + 16 + 4], NVME_CSI_ZNS);
	KUNIT_EXPECT_EQ(test, ident(test, VFN_ID_CNS_CS_NS_ACTIVE_LIST,
				    NVME_CSI_ZNS, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 4), 0U);
	KUNIT_EXPECT_EQ(test, ident(test, VFN_ID_CNS_CS_NS_ACTIVE_LIST,
				    NVME_CSI_NVM, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);

	/* Zone Append to its zone 1: block 16, the device's page 144. */
	memset(e->mem + 3 * PG, 0x3c, PG);
	cmd.rw.opcode = nvme_cmd_zone_append;
	cmd.rw.nsid = cpu_to_le32(2);
	cmd.rw.slba = cpu_to_le64(16);
	cmd.common.dptr.prp1 = cpu_to_le64(3 * PG);
	vfn_io(c, &cmd, &e->last, 0);
	KUNIT_EXPECT_EQ(test, e->last.sc, 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(e->last.cqe.result.u64), 16ULL);
	KUNIT_EXPECT_EQ(test, e->store[144 * PG], 0x3c);
	KUNIT_EXPECT_EQ(test, c->nst.nsd[1].zns.zones[1].wp, 17ULL);
	/* Zone commands on the conventional namespace: Invalid Opcode. */
	cmd.rw.nsid = cpu_to_le32(1);
	cmd.rw.slba = 0;
	vfn_io(c, &cmd, &e->last, 0);
	KUNIT_EXPECT_EQ(test, e->last.sc, DNR(NVME_SC_INVALID_OPCODE));
	/* Its Changed Zone List, not namespace 1's (conventional). */
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 2,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 1,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), DNR(NVME_SC_INVALID_LOG_PAGE));
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_log_page, 3,
				  VFN_LOG_CHANGED_ZONES | 1023 << 16, 0, 0,
				  5 * PG, NULL), DNR(NVME_SC_INVALID_FIELD));
	/* Delete: its written zone's data goes too. */
	KUNIT_EXPECT_EQ(test, ns_delete(test, 2), 0);
	KUNIT_EXPECT_EQ(test, e->store[144 * PG], 0);
}

/* The flash backend takes its default policies from the registry. */
/*
 * Namespace Management create with FDP's Placement Handle List (NPHNDLS
 * at byte 392, the list from byte 512 of the create data structure):
 * @nph entries of @ruh into host page 7.
 */
static u16 ns_create_ph(struct kunit *test, u64 nsze, u16 nph,
			const u16 *ruh, u32 *nsid)
{
	struct admin_env *e = test->priv;
	u8 *id = e->mem + 7 * PG;
	u32 i;

	memset(id, 0, PG);
	put_unaligned_le64(nsze, id);
	put_unaligned_le64(nsze, id + 8);
	put_unaligned_le16(nph, id + 392);
	for (i = 0; i < nph; i++)
		put_unaligned_le16(ruh[i], id + 512 + 2 * i);
	return run(test, nvme_admin_ns_mgmt, 0, 0, NVME_CSI_NVM << 24, 0,
		   7 * PG, nsid);
}

/* A 4 KiB Write of block @slba of @nsid, DTYPE 2h when @placed, DSPEC @pid. */
static u16 write_ns_pid(struct kunit *test, u32 nsid, u64 slba, bool placed,
			u16 pid)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.rw.opcode = nvme_cmd_write;
	cmd.rw.nsid = cpu_to_le32(nsid);
	cmd.rw.slba = cpu_to_le64(slba);
	cmd.common.cdw12 = cpu_to_le32(placed ? 2 << 20 : 0);
	cmd.common.cdw13 = cpu_to_le32((u32)pid << 16);
	cmd.common.dptr.prp1 = cpu_to_le64(3 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* I/O Management Receive or Send (@op) of @nsid, buffer in host page 6. */
static u16 io_mgmt_ns(struct kunit *test, u32 nsid, u8 op, u32 cdw10,
		      u32 cdw11)
{
	struct admin_env *e = test->priv;
	struct nvme_command cmd = { };

	cmd.common.opcode = op;
	cmd.common.nsid = cpu_to_le32(nsid);
	cmd.common.cdw10 = cpu_to_le32(cdw10);
	cmd.common.cdw11 = cpu_to_le32(cdw11);
	cmd.common.dptr.prp1 = cpu_to_le64(6 * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/*
 * FDP, create: NPHNDLS and the Placement Handle List are the namespace's
 * placement handles; a list naming a handle past NRUH, one twice, or more
 * entries than handles is Invalid Placement Handle List and allocates
 * nothing; without a list the controller gives handle 0 alone. RUH Status
 * of each namespace shows its own handles; log 21h says who chose each
 * handle; log 20h's NNSS is every namespace the controller can make.
 */
static void fdp_create_placement_handle_lists(struct kunit *test)
{
	struct admin_env *e = test->priv;
	static const u16 l31[] = { 3, 1 }, l4[] = { 4 }, l22[] = { 2, 2 },
			 l5[] = { 0, 1, 2, 3, 0 };
	u8 *b = e->mem + 5 * PG, *s = e->mem + 6 * PG;
	u32 nsid = 0;

	make_fdp(test, 4);
	setup_table_ns1(test, NULL, false, 4, 64);
	KUNIT_EXPECT_EQ(test, ns_create_ph(test, 64, 2, l31, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 2U);
	KUNIT_EXPECT_EQ(test, ns_create_ph(test, 16, 1, l4, &nsid),
			DNR(VFN_SC_INVALID_PHNDL_LIST));
	KUNIT_EXPECT_EQ(test, ns_create_ph(test, 16, 2, l22, &nsid),
			DNR(VFN_SC_INVALID_PHNDL_LIST));
	KUNIT_EXPECT_EQ(test, ns_create_ph(test, 16, 5, l5, &nsid),
			DNR(VFN_SC_INVALID_PHNDL_LIST));
	/* The refusals allocated nothing: the next NSID is 3. */
	KUNIT_EXPECT_EQ(test, ns_create_ph(test, 64, 0, NULL, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 3U);
	KUNIT_EXPECT_EQ(test, ns_attach(test, 2, true), 0);
	KUNIT_EXPECT_EQ(test, ns_attach(test, 3, true), 0);

	/* RUH Status of namespace 2: PID 0 is RUH 3, PID 1 is RUH 1. */
	memset(s, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, io_mgmt_ns(test, 2, 0x12, 1, 1023), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 14), 2);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 16), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 18), 3);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 48), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 50), 1);
	KUNIT_EXPECT_TRUE(test, all_bytes(s + 80, 0, 32));
	/* Namespace 3, no list: one handle, RUH 0. */
	KUNIT_EXPECT_EQ(test, io_mgmt_ns(test, 3, 0x12, 1, 1023), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 14), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 18), 0);
	/* Namespace 1 of the load: all four, in order. */
	KUNIT_EXPECT_EQ(test, io_mgmt_ns(test, 1, 0x12, 1, 1023), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 14), 4);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(s + 16 + 3 * 32 + 2), 3);

	/* 20h: NNSS, the namespaces the configuration may have. */
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x20, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b + 28), (u32)VFN_MAX_NS);
	/* 21h without namespace 1: 0 controller's, 1 and 3 host's, 2 unused. */
	KUNIT_EXPECT_EQ(test, ns_delete(test, 1), 0);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x21, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(b), 4);
	KUNIT_EXPECT_EQ(test, b[8], 2);
	KUNIT_EXPECT_EQ(test, b[16], 1);
	KUNIT_EXPECT_EQ(test, b[24], 0);
	KUNIT_EXPECT_EQ(test, b[32], 1);
}

/*
 * Two namespaces, one placement identifier: namespace 2's list is {3},
 * namespace 3's {2}; their writes with PID 0 fill reclaim unit handles 3
 * and 2, each its own blocks (host and media pages), none of handle 0.
 * A write without a directive takes the namespace's placement handle 0;
 * an identifier past its list too, with an event naming where it went.
 * RUH Update and the FDP Events feature name the namespace's handles.
 */
static void fdp_namespaces_isolated(struct kunit *test)
{
	struct admin_env *e = test->priv;
	static const u16 l3[] = { 3 }, l2[] = { 2 };
	u8 *b = e->mem + 5 * PG, *s = e->mem + 6 * PG;
	u64 room3, room2;
	u32 nsid = 0, i;

	make_fdp(test, 4);
	setup_table_ns1(test, NULL, false, 4, 64);
	KUNIT_ASSERT_EQ(test, ns_create_ph(test, 64, 1, l3, &nsid), 0);
	KUNIT_ASSERT_EQ(test, ns_create_ph(test, 64, 1, l2, &nsid), 0);
	KUNIT_ASSERT_EQ(test, ns_attach(test, 2, true), 0);
	KUNIT_ASSERT_EQ(test, ns_attach(test, 3, true), 0);
	room3 = vflash_flash_placement_room(e->vdev->flash, 3);
	room2 = vflash_flash_placement_room(e->vdev->flash, 2);
	memset(e->mem + 3 * PG, 0x3c, PG);
	for (i = 0; i < 8; i++) {
		KUNIT_EXPECT_EQ(test, write_ns_pid(test, 2, i, true, 0), 0);
		KUNIT_EXPECT_EQ(test, write_ns_pid(test, 3, i, true, 0), 0);
	}
	KUNIT_EXPECT_EQ(test, io_ns(test, 2, nvme_cmd_flush, 0), 0);
	KUNIT_EXPECT_EQ(test, io_ns(test, 3, nvme_cmd_flush, 0), 0);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 3, false), 8ULL);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 2, false), 8ULL);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 0, false), 0ULL);
	KUNIT_EXPECT_GE(test, ph_pages(test, 3, true), 8ULL);
	KUNIT_EXPECT_GE(test, ph_pages(test, 2, true), 8ULL);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 0, true), 0ULL);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 1, true), 0ULL);
	KUNIT_EXPECT_LT(test, vflash_flash_placement_room(e->vdev->flash, 3),
			room3);
	KUNIT_EXPECT_LT(test, vflash_flash_placement_room(e->vdev->flash, 2),
			room2);

	/* No directive: namespace 3's placement handle 0, RUH 2. */
	KUNIT_EXPECT_EQ(test, write_ns_pid(test, 3, 9, false, 0), 0);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 2, false), 9ULL);
	/* PID 1 past namespace 2's one handle: RUH 3, and an event. */
	KUNIT_EXPECT_EQ(test, write_ns_pid(test, 2, 9, true, 1), 0);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 3, false), 9ULL);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	expect_fdp_event(test, b + 64, 0x03, 0x07, 1, 2, 3);
	KUNIT_EXPECT_EQ(test, ph_pages(test, 0, false), 0ULL);

	/* RUH Update of namespace 2's PID 0: RUH 3 gets a new unit. */
	put_unaligned_le16(0, s);
	KUNIT_EXPECT_EQ(test, io_mgmt_ns(test, 2, 0x1d, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, vflash_flash_placement_room(e->vdev->flash, 3),
			room3);
	KUNIT_EXPECT_LT(test, vflash_flash_placement_room(e->vdev->flash, 2),
			room2);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 2U);
	expect_fdp_event(test, b + 128, 0x00, 0x03, 0, 2, 3);
	/* Its PID 1 does not exist: Invalid Field. */
	put_unaligned_le16(1, s);
	KUNIT_EXPECT_EQ(test, io_mgmt_ns(test, 2, 0x1d, 1, 0),
			DNR(NVME_SC_INVALID_FIELD));

	/* Features 1Eh of namespace 3's PH 0 are RUH 2's; PH 1 is none. */
	b[0] = 0x80;
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_set_features, 3, 0x1e,
				  0 | 1 << 16, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1e,
				  2 | 4 << 16, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, b[4], 0x80);
	KUNIT_EXPECT_EQ(test, b[5], 0);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 0, 0x1e,
				  3 | 4 << 16, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, b[5], 1);
	KUNIT_EXPECT_EQ(test, run(test, nvme_admin_get_features, 3, 0x1e,
				  1 | 4 << 16, 0, 5 * PG, NULL),
			DNR(NVME_SC_INVALID_FIELD));
}

/*
 * GC of a namespace's reclaim units is Media Reallocated (80h, TP4146:
 * the host's data of an initially isolated handle moved to another unit),
 * its placement identifier the namespace's (PID 0 of the list {3}), its
 * RUHID the handle's, its NSID and LBA the namespace's.
 */
static void fdp_gc_event_names_namespace_pid(struct kunit *test)
{
	struct admin_env *e = test->priv;
	const struct vflash_policy *inl;
	struct vflash_placement_events ev;
	static const u16 l3[] = { 3 };
	u8 *b = e->mem + 5 * PG;
	u32 i, nsid = 0, x = 2026;

	make_fdp(test, 4);
	setup_table_ns1(test, NULL, false, 4, 64);
	KUNIT_ASSERT_EQ(test, ns_create_ph(test, 128, 1, l3, &nsid), 0);
	KUNIT_ASSERT_EQ(test, ns_attach(test, 2, true), 0);
	inl = vflash_policy_find(VFLASH_POLICY_MAINTENANCE, "inline");
	KUNIT_ASSERT_NOT_NULL(test, inl);
	KUNIT_ASSERT_EQ(test, vflash_flash_set_policy(e->vdev->flash, inl), 0);
	memset(e->mem + 3 * PG, 0x42, PG);
	for (i = 0; i < 40 * 128; i++) {
		x = x * 1103515245 + 12345;
		KUNIT_ASSERT_EQ(test, write_ns_pid(test, 2, (x >> 8) % 128, true,
						   0), 0);
	}
	vflash_flash_placement_events(e->vdev->flash, 3, &ev);
	KUNIT_ASSERT_GT(test, ev.moved_pages, 0ULL);
	KUNIT_EXPECT_EQ(test, fdp_log(test, 0x23, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(b), 1U);
	expect_fdp_event(test, b + 64, 0x80, 0x07, 0, 2, 3);
	KUNIT_EXPECT_EQ(test, b[80], 1);
	/* Namespace 2 starts at the device's page 64. */
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(b + 84), ev.moved_lpn - 64);
	KUNIT_EXPECT_LT(test, get_unaligned_le64(b + 84), 128ULL);
}

/* Descriptor list page and the pages a test reads into. */
#define DESC_PAGE	10

/*
 * Copy on namespace 1 to @sdlba of @nr ranges @rng ({slba, nlb}), with
 * CDW12's other bits @cdw12 (FUA: bit 30); its status.
 */
static u16 run_copy(struct kunit *test, u64 sdlba, const u32 (*rng)[2],
		    u32 nr, u32 cdw12)
{
	struct admin_env *e = test->priv;
	struct vfn_copy_desc *d = (void *)(e->mem + DESC_PAGE * PG);
	struct nvme_command cmd = { };
	u32 i;

	memset(d, 0, PG);
	for (i = 0; i < nr; i++) {
		d[i].slba = cpu_to_le64(rng[i][0]);
		d[i].nlb = cpu_to_le16(rng[i][1] - 1);
	}
	cmd.common.opcode = VFN_CMD_COPY;
	cmd.common.nsid = cpu_to_le32(1);
	cmd.common.cdw10 = cpu_to_le32(lower_32_bits(sdlba));
	cmd.common.cdw11 = cpu_to_le32(upper_32_bits(sdlba));
	cmd.common.cdw12 = cpu_to_le32((nr - 1) | cdw12);
	cmd.common.dptr.prp1 = cpu_to_le64(DESC_PAGE * PG);
	memset(&e->last, 0, sizeof(e->last));
	vfn_io(e->c, &cmd, &e->last, 0);
	return e->last.sc;
}

/* Fill blocks [@from, @to) with their own number through Writes. */
static void write_numbered(struct kunit *test, u64 from, u64 to)
{
	struct admin_env *e = test->priv;
	u64 b;

	for (b = from; b < to; b++) {
		memset(e->mem + 3 * PG, (u8)b, PG);
		KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_write, b, 1, 0,
					     3 * PG, 0), 0);
	}
}

/*
 * Write Uncorrectable marks blocks: a Read, a Compare, a Verify of any of
 * them fails with Unrecovered Read Error (DNR), the read's buffer
 * untouched; blocks beside them read; a Write, a Write Zeroes or a
 * Deallocate of a block clears its mark (and only its). Verify reads on
 * the flash (NAND read pages counted, no host-link transfer). Before,
 * Write Uncorrectable and Verify were Invalid Command Opcode.
 */
static void write_uncor_and_verify(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vflash_flash *f = e->vdev->flash;
	struct nvme_dsm_range *dr = (void *)(e->mem + 5 * PG);
	u64 xfer, nand;

	write_numbered(test, 0, 16);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 0, 16, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 4, 4, 0, 0, 0),
			0);
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 4ULL);
	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 4, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0xaa, PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 3, 2, 0, 3 * PG,
				     4 * PG), DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_compare, 7, 1, 0, 3 * PG,
				     0), DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 3, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 8, 1, 0, 3 * PG, 0),
			0);
	xfer = vflash_flash_stat(f, VFLASH_STAT_HOST_XFER_PAGES);
	nand = vflash_flash_stat(f, VFLASH_STAT_NAND_READ_PAGES);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 0, 16, 0, 0, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 8, 8, 0, 0, 0), 0);
	KUNIT_EXPECT_GT(test, e->last.due_ns, 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_HOST_XFER_PAGES),
			xfer);
	KUNIT_EXPECT_GE(test, vflash_flash_stat(f, VFLASH_STAT_NAND_READ_PAGES),
			nand + 8);

	/* A Write clears block 4, Write Zeroes block 5, Deallocate block 6. */
	memset(e->mem + 3 * PG, 0x44, PG);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write, 4, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 4, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 0x44, PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_zeroes, 5, 1, 0, 0,
				     0), 0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 5, 1, 0, 0, 0), 0);
	memset(dr, 0, PG);
	dr[0].slba = cpu_to_le64(6);
	dr[0].nlb = cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_dsm, 0, 1, NVME_DSMGMT_AD,
				     5 * PG, 0), 0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 6, 1, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 7, 1, 0, 0, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 1ULL);

	/* A read error rule fails a Verify too. */
	arm(test, VFLASH_FAULT_READ_ERROR, "12-12", "1");
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 10, 4, 0, 0, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 10, 4, 0, 0, 0), 0);
	/* Out of the namespace: LBA Out of Range, nothing marked. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, NS_BLOCKS - 1,
				     2, 0, 0, 0), DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 1ULL);
}

/*
 * Copy on a conventional namespace: the destination reads the sources'
 * data, in the ranges' order; the payload crosses no host link (the
 * backend's host_xfer_pages does not move) while NAND reads the sources
 * and, with FUA, programs the destination before the completion; SMART's
 * data units do not count it; a copied block's uncorrectable mark goes.
 * Before, Copy was Invalid Command Opcode.
 */
static void copy_conventional(struct kunit *test)
{
	static const u32 two[][2] = { { 10, 3 }, { 2, 2 } };
	static const u32 over[][2] = { { 30, 4 } };
	struct admin_env *e = test->priv;
	struct vflash_flash *f = e->vdev->flash;
	u64 xfer, nand_r, nand_p, units = e->c->host_read_units;
	u32 b;

	write_numbered(test, 0, 40);
	units = e->c->host_read_units;
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 101, 1, 0, 0,
				     0), 0);
	xfer = vflash_flash_stat(f, VFLASH_STAT_HOST_XFER_PAGES);
	nand_r = vflash_flash_stat(f, VFLASH_STAT_NAND_READ_PAGES);
	nand_p = vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES);
	KUNIT_EXPECT_EQ(test, run_copy(test, 100, two, 2, BIT(30)), 0);
	KUNIT_EXPECT_EQ(test, e->last.lpn, 100ULL);
	KUNIT_EXPECT_EQ(test, e->last.count, 5U);
	for (b = 0; b < 3; b++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + (100 + b) * PG,
						  10 + b, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 103 * PG, 2, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 104 * PG, 3, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 105 * PG, 0, PG));
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(f, VFLASH_STAT_HOST_XFER_PAGES),
			xfer);
	KUNIT_EXPECT_GE(test, vflash_flash_stat(f, VFLASH_STAT_NAND_READ_PAGES),
			nand_r + 5);
	KUNIT_EXPECT_GE(test,
			vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES),
			nand_p + 5);
	KUNIT_EXPECT_EQ(test, e->c->host_read_units, units);
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 0ULL);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 101, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->mem + 3 * PG, 11, PG));

	/* Overlapping source and destination: the source as it was. */
	KUNIT_EXPECT_EQ(test, run_copy(test, 32, over, 1, 0), 0);
	for (b = 0; b < 4; b++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + (32 + b) * PG,
						  30 + b, PG));
}

/*
 * Copy's refusals change nothing: a source range past the end or a
 * destination that does not hold the copy (LBA Out of Range), a format
 * other than 0 (Invalid Field), a write-protected destination. A source
 * range with a marked block ends the copy before it: the ranges before
 * it are copied, dword 0 names it, the status is Unrecovered Read Error;
 * with the first range unreadable nothing is written.
 */
static void copy_refusals_and_partial(struct kunit *test)
{
	static const u32 past[][2] = { { 0, 1 }, { NS_BLOCKS - 1, 2 } };
	static const u32 three[][2] = { { 0, 2 }, { 4, 2 }, { 8, 2 } };
	struct admin_env *e = test->priv;

	write_numbered(test, 0, 12);
	KUNIT_EXPECT_EQ(test, run_copy(test, 100, past, 2, 0),
			DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 100 * PG, 0, 2 * PG));
	KUNIT_EXPECT_EQ(test, run_copy(test, NS_BLOCKS - 5, three, 3, 0),
			DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_EQ(test, run_copy(test, 100, three, 3, 1 << 8),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 100 * PG, 0, 6 * PG));

	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 9, 1, 0, 0, 0),
			0);
	KUNIT_EXPECT_EQ(test, run_copy(test, 100, three, 3, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e->last.cqe.result.u32), 2U);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 100 * PG, 0, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 102 * PG, 4, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 104 * PG, 0, 2 * PG));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 0, 1, 0, 0, 0),
			0);
	KUNIT_EXPECT_EQ(test, run_copy(test, 120, three, 3, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e->last.cqe.result.u32), 0U);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 120 * PG, 0, 6 * PG));

	arm(test, VFLASH_FAULT_READ_ONLY, "200-255", "0");
	KUNIT_EXPECT_EQ(test, run_copy(test, 200, three + 1, 1, 0),
			DNR(NVME_SC_NS_WRITE_PROTECTED));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 200 * PG, 0, 2 * PG));
}

/*
 * A Copy's ranges run in order, and a range reads what the ones before it
 * wrote: a marked block that an earlier range's destination overwrote
 * reads as that range's data, not as Unrecovered Read Error (the device
 * once checked every range's marks before writing any). A marked block
 * the earlier ranges did not write still ends the copy at its range.
 */
static void copy_ranges_read_earlier_writes(struct kunit *test)
{
	static const u32 reread[][2] = { { 10, 2 }, { 101, 1 } };
	static const u32 beyond[][2] = { { 20, 2 }, { 201, 2 } };
	struct admin_env *e = test->priv;

	write_numbered(test, 0, 40);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 101, 1, 0, 0,
				     0), 0);
	KUNIT_EXPECT_EQ(test, run_copy(test, 100, reread, 2, 0), 0);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e->last.cqe.result.u32), 0U);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 100 * PG, 10, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 101 * PG, 11, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 102 * PG, 11, PG));
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 0ULL);

	/* Block 202 is past what range 0 writes (200-201): range 1 fails. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 201, 2, 0, 0,
				     0), 0);
	KUNIT_EXPECT_EQ(test, run_copy(test, 200, beyond, 2, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e->last.cqe.result.u32), 1U);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 200 * PG, 20, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 201 * PG, 21, PG));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 202 * PG, 0, PG));
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 1ULL);
}

/*
 * A copied block follows a write's power-loss rules: a Copy without FUA
 * (write cache on) that a cut comes before its programs is taken back,
 * the destination holds what it held; with FUA, cut once acknowledged,
 * the destination keeps the copy.
 */
static void copy_power_loss(struct kunit *test)
{
	static const u32 one[][2] = { { 40, 1 } };
	struct admin_env *e = test->priv;
	struct vflash_faults *ft = &e->vdev->faults;

	e->c->wce = true;
	memset(e->store + 40 * PG, 0x77, PG);
	memset(e->store + 30 * PG, 0x5a, PG);
	log_writes(test);
	KUNIT_EXPECT_EQ(test, run_copy(test, 30, one, 1, 0), 0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 30 * PG, 0x77, PG));
	vflash_pl_cut(&ft->pl, 1, NULL, NULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 30 * PG, 0x5a, PG));

	log_writes(test);
	KUNIT_EXPECT_EQ(test, run_copy(test, 30, one, 1, BIT(30)), 0);
	vflash_pl_cut(&ft->pl, e->last.due_ns, NULL, NULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 30 * PG, 0x77, PG));
}

/*
 * Regression (issue 38): Write Uncorrectable's marks are durable at their
 * completion, and so is a durable write's clearing of them. A write (or a
 * Copy's destination) that cleared a mark and that a cut takes back must
 * leave the block marked again, under its old data; the cut gave the old
 * data back without the mark, a value the durable Write Uncorrectable had
 * replaced. A write durable at the cut (FUA) clears the mark for good; a
 * cut never takes a mark back, nor brings back data from before it.
 */
static void uncor_power_loss(struct kunit *test)
{
	static const u32 one[][2] = { { 40, 1 } };
	struct admin_env *e = test->priv;

	e->c->wce = true;
	memset(e->store + 40 * PG, 0x77, PG);
	log_writes(test);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 50, 2, 0, 0,
				     0), 0);
	unflushed_write(test, 50);
	KUNIT_EXPECT_EQ(test, run_copy(test, 51, one, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 0ULL);
	vfn_io_power_cut(e->c, 1);
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 2ULL);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 50, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_verify, 51, 1, 0, 0, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 50 * PG, 0x5a, PG));

	/* With FUA, cut once acknowledged: the write, no mark. */
	log_writes(test);
	memset(e->mem + 3 * PG, 0xaa, PG);
	KUNIT_EXPECT_EQ(test, run_io_ctl(test, nvme_cmd_write, 50, 1, 0,
					 NVME_RW_FUA, 3 * PG, 0), 0);
	vfn_io_power_cut(e->c, e->last.due_ns);
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 1ULL);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 50, 1, 0, 3 * PG, 0),
			0);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 50 * PG, 0xaa, PG));

	/*
	 * A write not durable, then a mark over it (which settles the
	 * page), then a write taken back by the cut: the block is marked
	 * again, as the mark left it.
	 */
	log_writes(test);
	unflushed_write(test, 60);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 60, 1, 0, 0,
				     0), 0);
	unflushed_write(test, 60);
	vfn_io_power_cut(e->c, 1);
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_read, 60, 1, 0, 3 * PG, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 60 * PG, 0x5a, PG));
}

/*
 * Copy on a zoned namespace (ZNS 1.1, 3.4.1): the destination follows the
 * zone's write rules. SDLBA off the write pointer is Zone Invalid Write,
 * across the zone's end Zone Boundary Error, into a full zone the status
 * Zone Is Full, each changing nothing; a copy at the write pointer moves it past
 * the copied blocks (a partial copy only past what it copied); sources
 * may be in any zone.
 */
static void copy_zoned(struct kunit *test)
{
	static const u32 a[][2] = { { 0, 3 } };
	static const u32 b[][2] = { { 0, 2 }, { 8, 2 } };
	static const u32 big[][2] = { { 0, 14 } };
	struct admin_env *e = test->priv;
	struct vfn_zoned *z;
	u32 i;

	make_zoned(test, 16, 0, 0);
	z = zones(test);
	/* Zone 0: blocks 0..9 hold their numbers. */
	write_numbered(test, 0, 10);
	KUNIT_EXPECT_EQ(test, run_copy(test, 17, a, 1, 0),
			DNR(NVME_SC_ZONE_INVALID_WRITE));
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 16ULL);
	KUNIT_EXPECT_EQ(test, run_copy(test, 16, a, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 19ULL);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, all_bytes(e->store + (16 + i) * PG, i,
						  PG));
	/* 19 + 14 > 32: across zone 1's end. */
	KUNIT_EXPECT_EQ(test, run_copy(test, 19, big, 1, 0),
			DNR(NVME_SC_ZONE_BOUNDARY_ERROR));
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 19ULL);
	/* Zone 0 itself: at its write pointer, from its own blocks. */
	KUNIT_EXPECT_EQ(test, run_copy(test, 10, b, 2, BIT(30)), 0);
	KUNIT_EXPECT_EQ(test, z->zones[0].wp, 14ULL);
	KUNIT_EXPECT_TRUE(test, all_bytes(e->store + 12 * PG, 8, PG));
	/* Partial: the second range unreadable, the pointer past the first. */
	KUNIT_EXPECT_EQ(test, run_io(test, nvme_cmd_write_uncor, 9, 1, 0, 0, 0),
			0);
	KUNIT_EXPECT_EQ(test, run_copy(test, 19, b, 2, 0),
			DNR(NVME_SC_READ_ERROR));
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e->last.cqe.result.u32), 1U);
	KUNIT_EXPECT_EQ(test, z->zones[1].wp, 21ULL);
	/* Full: Zone Is Full. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 32, NVME_ZONE_FINISH, false), 0);
	KUNIT_EXPECT_EQ(test, run_copy(test, 32, a, 1, 0),
			DNR(NVME_SC_ZONE_FULL));
	/* A reset clears the zone's marks with its data. */
	KUNIT_EXPECT_EQ(test, zone_send(test, 0, NVME_ZONE_RESET, false), 0);
	KUNIT_EXPECT_EQ(test, e->c->nst.uncor.nr, 0ULL);
	unmake_zoned(test);
}

/*
 * What a host reads of the three commands: ONCS bits 1 (Write
 * Uncorrectable), 7 (Verify), 8 (Copy), OCFS format 0, MSSRL/MCL/MSRC in
 * Identify Namespace, and the Commands Supported and Effects log marks
 * them supported, Copy and Write Uncorrectable as changing contents.
 */
static void copy_identify_and_effects(struct kunit *test)
{
	struct admin_env *e = test->priv;
	u8 *buf = e->mem + 5 * PG;
	const __le32 *iocs;

	KUNIT_ASSERT_EQ(test, run(test, nvme_admin_identify, 0,
				  NVME_ID_CNS_CTRL, 0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(buf + 520) &
			(BIT(1) | BIT(7) | BIT(8)), BIT(1) | BIT(7) | BIT(8));
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(buf + 534), 1);
	KUNIT_ASSERT_EQ(test, run(test, nvme_admin_identify, 1, NVME_ID_CNS_NS,
				  0, 0, 5 * PG, NULL), 0);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(buf + 74), 256);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(buf + 76), 1024U);
	KUNIT_EXPECT_EQ(test, buf[80], VFN_COPY_MSRC);
	KUNIT_ASSERT_EQ(test, run(test, nvme_admin_get_log_page, NVME_NSID_ALL,
				  NVME_LOG_CMD_EFFECTS | 1023 << 16, 0, 0,
				  5 * PG, NULL), 0);
	iocs = (const __le32 *)(buf + 1024);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(iocs[nvme_cmd_verify]),
			NVME_CMD_EFFECTS_CSUPP);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(iocs[nvme_cmd_write_uncor]),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(iocs[VFN_CMD_COPY]),
			NVME_CMD_EFFECTS_CSUPP | NVME_CMD_EFFECTS_LBCC);
}

static int admin_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void admin_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_case nvme_admin_cases[] = {
	KUNIT_CASE(identify_without_buffer),
	KUNIT_CASE(get_log_lengths),
	KUNIT_CASE(features_and_reset),
	KUNIT_CASE(create_queue_memory),
	KUNIT_CASE(ns_management_commands),
	{}
};

static struct kunit_suite nvme_admin_suite = {
	.name = "vflash-nvme-admin",
	.suite_init = admin_suite_init,
	.suite_exit = admin_suite_exit,
	.init = admin_init,
	.exit = admin_exit,
	.test_cases = nvme_admin_cases,
};

/* A controller of @src's configuration, as a restore builds one. */
static struct vfn_ctrl *img_twin(struct kunit *test, const struct vfn_ctrl *src,
				 u8 lba_shift)
{
	struct vfn_ctrl *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->vdev = src->vdev;
	vfn_nstab_init(&c->nst, src->nst.cap_pages, lba_shift, src->nst.nruh,
		       &src->nst.zgeo);
	c->nr_zph = src->nr_zph;
	c->fdp.nruh = src->fdp.nruh;
	c->fdp.runs_bytes = src->fdp.runs_bytes;
	return c;
}

/* @c's part is refused with -EINVAL (@why), on a twin of @lba_shift. */
static void img_refused(struct kunit *test, struct vfn_ctrl *c, u8 lba_shift,
			size_t cut, bool extra, const char *why)
{
	struct vfn_ctrl *t = img_twin(test, c, lba_shift);
	ssize_t n;
	u8 *p;

	n = vfn_img_save(c, 0, (void **)&p);
	KUNIT_ASSERT_GT(test, n, 0);
	if (extra) {
		u8 *q = kvmalloc(n + 1, GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, q);
		memcpy(q, p, n);
		q[n++] = 0;
		kvfree(p);
		p = q;
	}
	KUNIT_EXPECT_EQ_MSG(test, vfn_img_load(t, p, n - cut, 0), -EINVAL,
			    "%s", why);
	vfn_nstab_exit(&t->nst);
	kvfree(p);
}

/*
 * What a held controller keeps (namespaces, zones in several states with
 * their write pointers, Write Uncorrectable marks, SMART's counters)
 * goes through an image part exactly: the restored controller saves the
 * same bytes. A part that does not hold together is refused: cut short,
 * a byte too many, another block size, overlapping namespaces, a zone in
 * no state, a zone holding a handle the controller does not have.
 */
static void image_part_round_trip(struct kunit *test)
{
	struct admin_env *e = test->priv;
	struct vfn_ns_spec s = { .nsze = 64, .ncap = 64, .csi = NVME_CSI_NVM };
	u8 list[4] = { 1, 0, VFN_CNTLID, 0 };
	struct vfn_ctrl *c = e->c, *t;
	u64 now = 100 * NSEC_PER_SEC;
	struct vfn_zoned *z;
	ssize_t na, nb;
	u32 nsid = 0;
	void *a, *b;

	setup_table_ns1(test, &zg16, true, 0, NS_BLOCKS / 2);
	z = &c->nst.nsd[0].zns;
	KUNIT_ASSERT_EQ(test, zone_send(test, 0, VFN_ZSA_OPEN, 0), 0);
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_write, 16, 1, 0, 3 * PG, 0),
			0);
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_write, 32, 1, 0, 3 * PG, 0),
			0);
	KUNIT_ASSERT_EQ(test, zone_send(test, 32, VFN_ZSA_FINISH, 0), 0);
	KUNIT_ASSERT_EQ(test, run_io(test, nvme_cmd_write, 48, 1, 0, 3 * PG, 0),
			0);
	KUNIT_ASSERT_EQ(test, zone_send(test, 48, VFN_ZSA_CLOSE, 0), 0);
	KUNIT_ASSERT_EQ(test, vfn_ns_create(&c->nst, &s, &nsid), 0);
	KUNIT_ASSERT_EQ(test, nsid, 2U);
	KUNIT_ASSERT_EQ(test, vfn_ns_attach(&c->nst, nsid, true, list, true), 0);
	KUNIT_ASSERT_EQ(test, vfn_uncor_mark(&c->nst.uncor, 200, 3), 0);
	c->host_write_cmds = 7;
	c->power_cycles = 2;
	c->powered_ns = 5 * NSEC_PER_SEC;

	na = vfn_img_save(c, now, &a);
	KUNIT_ASSERT_GT(test, na, 0);
	t = img_twin(test, c, c->nst.lba_shift);
	KUNIT_EXPECT_EQ(test, vfn_img_load(t, a, na, now + 7), 0);
	nb = vfn_img_save(t, now + 7, &b);
	KUNIT_EXPECT_EQ(test, nb, na);
	if (nb == na)
		KUNIT_EXPECT_EQ(test, memcmp(a, b, na), 0);
	KUNIT_EXPECT_EQ(test, t->nst.nsd[0].zns.zones[1].wp, 17ULL);
	KUNIT_EXPECT_EQ(test, t->nst.nsd[0].zns.zones[2].state, VFN_ZS_FULL);
	KUNIT_EXPECT_EQ(test, t->nst.nsd[0].zns.nr_eopen, 1U);
	KUNIT_EXPECT_EQ(test, t->nst.nsd[0].zns.nr_iopen, 1U);
	KUNIT_EXPECT_EQ(test, t->nst.nsd[0].zns.nr_closed, 1U);
	KUNIT_EXPECT_TRUE(test, t->nst.nsd[1].attached);
	KUNIT_EXPECT_EQ(test, t->nst.nsd[1].ns.base, c->nst.nsd[1].ns.base);
	KUNIT_EXPECT_EQ(test, t->nst.uncor.nr, 3ULL);
	KUNIT_EXPECT_TRUE(test, vfn_uncor_test(&t->nst.uncor, 202, 1));
	KUNIT_EXPECT_FALSE(test, vfn_uncor_test(&t->nst.uncor, 203, 1));
	KUNIT_EXPECT_EQ(test, t->host_write_cmds, 7ULL);
	KUNIT_EXPECT_EQ(test, t->power_cycles, 2ULL);
	vfn_nstab_exit(&t->nst);
	kvfree(b);

	img_refused(test, c, c->nst.lba_shift, 1, false, "cut short");
	img_refused(test, c, c->nst.lba_shift, 0, true, "a byte too many");
	img_refused(test, c, 9, 0, false, "another block size");
	z->zones[5].state = 0x7;
	img_refused(test, c, c->nst.lba_shift, 0, false, "a zone in no state");
	z->zones[5].state = VFN_ZS_EMPTY;
	z->zones[6].ph = 1;
	img_refused(test, c, c->nst.lba_shift, 0, false, "a handle not lent");
	z->zones[6].ph = 0;
	c->nst.nsd[1].ns.base = c->nst.nsd[0].ns.base;
	img_refused(test, c, c->nst.lba_shift, 0, false, "overlapping");
	kvfree(a);
}

static struct kunit_case nvme_io_cases[] = {
	KUNIT_CASE(read_without_buffer),
	KUNIT_CASE(reserved_pages_by_direction),
	KUNIT_CASE(read_past_the_end),
	KUNIT_CASE(write_cache_off_writes_through),
	KUNIT_CASE(injected_faults),
	KUNIT_CASE(write_zeroes_honours_fua_and_write_cache),
	KUNIT_CASE(cut_keeps_discards_and_durable_zeroes),
	KUNIT_CASE(write_without_room_fails),
	KUNIT_CASE(aen_events_queue),
	KUNIT_CASE(zoned_writes_and_append),
	KUNIT_CASE(zoned_reset_discards),
	KUNIT_CASE(zoned_handles_lent_and_erased),
	KUNIT_CASE(zoned_cut_rewinds_write_pointer),
	KUNIT_CASE(zoned_zrwa_window),
	KUNIT_CASE(zoned_zrwa_cut),
	KUNIT_CASE(zoned_zrwa_refused_write),
	KUNIT_CASE(zoned_failed_write_keeps_pointer),
	KUNIT_CASE(zoned_read_only_and_offline),
	KUNIT_CASE(zoned_descriptor_extensions),
	KUNIT_CASE(zoned_recommendations),
	KUNIT_CASE(zoned_discovery),
	KUNIT_CASE(fdp_identify_and_logs),
	KUNIT_CASE(fdp_features),
	KUNIT_CASE(fdp_placed_writes),
	KUNIT_CASE(fdp_ruh_status_and_update),
	KUNIT_CASE(fdp_controller_event_ring),
	KUNIT_CASE(fdp_media_reallocated_by_gc),
	KUNIT_CASE(fdp_retired_block_events),
	KUNIT_CASE(fdp_create_placement_handle_lists),
	KUNIT_CASE(fdp_namespaces_isolated),
	KUNIT_CASE(fdp_gc_event_names_namespace_pid),
	KUNIT_CASE(ns_io_isolation),
	KUNIT_CASE(ns_zoned_beside_conventional),
	KUNIT_CASE(nvme2_identities),
	KUNIT_CASE(write_uncor_and_verify),
	KUNIT_CASE(copy_conventional),
	KUNIT_CASE(copy_refusals_and_partial),
	KUNIT_CASE(copy_ranges_read_earlier_writes),
	KUNIT_CASE(copy_zoned),
	KUNIT_CASE(copy_power_loss),
	KUNIT_CASE(uncor_power_loss),
	KUNIT_CASE(copy_identify_and_effects),
	KUNIT_CASE(image_part_round_trip),
	{}
};

static struct kunit_suite nvme_io_suite = {
	.name = "vflash-nvme-io",
	.init = admin_init,
	.exit = admin_exit,
	.suite_init = admin_suite_init,
	.suite_exit = admin_suite_exit,
	.test_cases = nvme_io_cases,
};

kunit_test_suites(&nvme_admin_suite, &nvme_io_suite);
