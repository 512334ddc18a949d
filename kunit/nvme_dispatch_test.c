// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the NVMe controller's lifecycle (frontend_nvme/
 * dispatch.c, io.c, the Delete I/O SQ path of admin.c): a controller
 * driven one dispatcher pass at a time, without its threads, over host
 * memory the test owns. The host side is played by the test: it writes
 * commands and doorbells, flips CC.EN and Bus Master, and looks at what
 * the device wrote and when.
 */
#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ioport.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"
#include "policy/policy.h"

#define HOST_ORDER	4			/* 16 pages of host memory */
#define HOST_BYTES	(PAGE_SIZE << HOST_ORDER)
#define DEV_BYTES	(4UL << 20)		/* 1024 blocks of 4 KiB */
#define QSIZE		64

/* Host pages. */
enum { P_ASQ, P_ACQ, P_IOSQ, P_IOCQ, P_DSM, P_BUF, P_BUF2 };

/**
 * struct rig - a controller and the host around it
 * @vdev: the device: its backing store and flash model
 * @c: the controller under test
 * @res: a stand-in resource, so the backing store is one mapping (kaddr)
 * @host: host memory, HOST_BYTES
 * @hva: its kernel address
 * @hpa: its "bus" address, as the device sees it
 * @asq_tail: next admin SQ slot the host fills
 * @iosq_tail: next I/O SQ 1 slot the host fills
 * @disable_at: host page whose first mapping by the device makes the
 *	host disable the controller (CC.EN = 0), as a driver whose wait for
 *	a stuck controller expired does; 0 for none
 * @vectors: interrupts raised, per vector
 * @cut_ns: the instant cut_clock() gives a power cut
 */
struct rig {
	struct vflash_dev *vdev;
	struct vfn_ctrl *c;
	struct resource res;
	struct page *host;
	u8 *hva;
	u64 hpa;
	u32 asq_tail;
	u32 iosq_tail;
	u64 disable_at;
	u32 vectors[VFN_NR_VEC];
	u64 cut_ns;
};

/* The rig of the running test: KUnit runs one test at a time. */
static struct rig *cur;

/* pci.c is not built under UML: count what would have been raised. */
static void fake_raise_irq(struct vfn_ctrl *c, u16 vector)
{
	if (cur && vector < VFN_NR_VEC)
		cur->vectors[vector]++;
}

/* The controller's pieces as main.c wires them, but the interrupt. */
static const struct vfn_ctrl_ops rig_ops = {
	.admin = vfn_admin,
	.admin_reset = vfn_admin_reset,
	.io = vfn_io,
	.power_cut = vfn_io_power_cut,
	.raise_irq = fake_raise_irq,
	.discard = vfn_io_discard,
	.program = vfn_io_program,
};

/* Host memory: our pages are plain RAM, nothing else exists. */
static void fake_probe(const struct vfn_hostmem *hm, u64 pfn,
		       struct vfn_page_info *pi)
{
	struct rig *r = cur;
	u64 addr = pfn << PAGE_SHIFT;

	if (addr < r->hpa || addr >= r->hpa + HOST_BYTES)
		return;
	if (r->disable_at && addr == r->disable_at) {
		r->disable_at = 0;
		vfn_set_reg32(r->c, NVME_REG_CC, 0);
	}
	pi->kva = r->hva + (addr - r->hpa);
	pi->ram = true;
}

static u64 hpage(struct rig *r, int i)
{
	return r->hpa + (u64)i * PAGE_SIZE;
}

static void *hkva(struct rig *r, int i)
{
	return r->hva + i * PAGE_SIZE;
}

static struct nvme_completion *cqe(struct rig *r, int page, u32 i)
{
	return (struct nvme_completion *)hkva(r, page) + i;
}

/* Entries the device has posted to a fresh CQ (phase 1). */
static u32 posted(struct rig *r, int page)
{
	u32 i;

	for (i = 0; i < QSIZE; i++)
		if (!(le16_to_cpu(READ_ONCE(cqe(r, page, i)->status)) & 1))
			break;
	return i;
}

static u16 status_of(struct rig *r, int page, u32 i)
{
	return le16_to_cpu(cqe(r, page, i)->status) >> 1;
}

static void set_bus_master(struct rig *r, bool on)
{
	u8 *cmd = &r->c->cfg[PCI_COMMAND];

	WRITE_ONCE(*cmd, on ? *cmd | PCI_COMMAND_MASTER :
			      *cmd & ~PCI_COMMAND_MASTER);
}

/* One dispatcher pass; returns whether it fetched anything. */
static bool pass(struct rig *r)
{
	u64 next;

	return vfn_dispatch_once(r->c, &next);
}

/* The completion worker of heap 1 posts everything due within 1 s. */
static u64 worker(struct rig *r, u64 now)
{
	DECLARE_BITMAP(raise, VFN_MAX_IOQ + 1);
	u64 next;

	bitmap_zero(raise, VFN_MAX_IOQ + 1);
	next = vfn_drain(r->c, &r->c->heap[1], now, false, raise);
	vfn_raise_irqs(r->c, raise);
	return next;
}

static void admin(struct rig *r, struct nvme_command cmd)
{
	struct nvme_command *sq = hkva(r, P_ASQ);

	cmd.common.command_id = r->asq_tail;
	sq[r->asq_tail] = cmd;
	r->asq_tail = (r->asq_tail + 1) % QSIZE;
	vfn_set_reg32(r->c, VFN_DB_OFF, r->asq_tail);
}

/* Submit an admin command and run it; expect success. */
static void admin_ok(struct kunit *test, struct rig *r,
		     struct nvme_command cmd)
{
	u32 slot = r->asq_tail;

	admin(r, cmd);
	pass(r);
	KUNIT_ASSERT_EQ(test, posted(r, P_ACQ), slot + 1);
	KUNIT_ASSERT_EQ(test, status_of(r, P_ACQ, slot), 0);
}

static void io(struct rig *r, u8 op, u64 slba, u32 nlb, u64 prp1)
{
	struct nvme_command *sq = hkva(r, P_IOSQ);
	struct nvme_command cmd = { };

	cmd.rw.opcode = op;
	cmd.rw.command_id = 0x100 + r->iosq_tail;
	cmd.rw.nsid = cpu_to_le32(1);
	cmd.rw.slba = cpu_to_le64(slba);
	cmd.rw.length = cpu_to_le16(nlb - 1);
	cmd.rw.dptr.prp1 = cpu_to_le64(prp1);
	sq[r->iosq_tail] = cmd;
	r->iosq_tail = (r->iosq_tail + 1) % QSIZE;
}

static void ring_iosq(struct rig *r)
{
	vfn_set_reg32(r->c, VFN_DB_OFF + 2 * 1 * 4, r->iosq_tail);
}

/* Dataset Management, Deallocate, of @n ranges already in P_DSM. */
static void dsm(struct rig *r, u32 n)
{
	struct nvme_command *sq = hkva(r, P_IOSQ);
	struct nvme_command cmd = { };

	cmd.dsm.opcode = nvme_cmd_dsm;
	cmd.dsm.command_id = 0x100 + r->iosq_tail;
	cmd.dsm.nsid = cpu_to_le32(1);
	cmd.dsm.nr = cpu_to_le32(n - 1);
	cmd.dsm.attributes = cpu_to_le32(NVME_DSMGMT_AD);
	cmd.dsm.dptr.prp1 = cpu_to_le64(hpage(r, P_DSM));
	sq[r->iosq_tail] = cmd;
	r->iosq_tail = (r->iosq_tail + 1) % QSIZE;
}

static void set_range(struct rig *r, u32 i, u64 slba, u32 nlb)
{
	struct nvme_dsm_range *range = hkva(r, P_DSM);

	range[i] = (struct nvme_dsm_range) {
		.nlb = cpu_to_le32(nlb), .slba = cpu_to_le64(slba),
	};
}

static u8 *dev_block(struct rig *r, u64 lba)
{
	return r->vdev->backing.kaddr + lba * 4096;
}

static void rig_exit(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vfn_ctrl *c;
	u32 k;

	if (!r)
		return;
	c = r->c;
	if (c) {
		for (k = 0; k <= VFN_MAX_WORKERS; k++)
			kvfree(c->heap[k].cmd);
		free_page((unsigned long)c->ident);
		vfn_nstab_exit(&c->nst);
		if (c->bar_page)
			__free_pages(c->bar_page, VFN_BAR_ORDER);
		kfree(c);
	}
	if (r->vdev) {
		vflash_faults_destroy(&r->vdev->faults);
		if (!IS_ERR_OR_NULL(r->vdev->flash))
			vflash_flash_destroy(r->vdev->flash);
		vfree(r->vdev->backing.kaddr);
		kfree(r->vdev);
	}
	if (r->host)
		__free_pages(r->host, HOST_ORDER);
	cur = NULL;
	kfree(r);
}

static int rig_init(struct kunit *test)
{
	struct vflash_dev *vdev;
	struct vfn_ctrl *c;
	struct rig *r;
	u32 k;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	test->priv = r;
	cur = r;
	r->host = alloc_pages(GFP_KERNEL | __GFP_ZERO, HOST_ORDER);
	vdev = kzalloc(sizeof(*vdev), GFP_KERNEL);
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	r->vdev = vdev;
	r->c = c;
	if (!r->host || !vdev || !c)
		return -ENOMEM;
	r->hva = page_address(r->host);
	r->hpa = page_to_phys(r->host);

	vdev->cfg.size_bytes = DEV_BYTES;
	vdev->cfg.profile = vflash_profile_find("tlc");
	if (!vdev->cfg.profile)
		return -ENOENT;
	vdev->backing.size_bytes = DEV_BYTES;
	vdev->backing.res = &r->res;
	vdev->backing.kaddr = vzalloc(DEV_BYTES);
	if (!vdev->backing.kaddr)
		return -ENOMEM;
	vdev->flash = vflash_flash_create(vdev->cfg.profile, DEV_BYTES);
	if (IS_ERR(vdev->flash))
		return PTR_ERR(vdev->flash);
	if (vflash_faults_init(&vdev->faults, vdev->flash, DEV_BYTES >> 12,
			       "vflash-t"))
		return -ENOMEM;
	vdev->faults.pl.backing = &vdev->backing;

	c->vdev = vdev;
	c->ops = &rig_ops;
	/* Namespace 1 over the device, attached, as a load makes it. */
	vfn_nstab_init(&c->nst, DEV_BYTES >> 12, 12, 0, NULL);
	{
		struct vfn_ns_spec s = { .nsze = DEV_BYTES >> 12,
					 .ncap = DEV_BYTES >> 12 };
		u8 list[4] = { 1, 0, VFN_CNTLID, 0 };
		u32 nsid;

		if (vfn_ns_create(&c->nst, &s, &nsid) ||
		    vfn_ns_attach(&c->nst, nsid, true, list, true))
			return -EINVAL;
	}
	c->nr_workers = 1;
	c->ident = (void *)get_zeroed_page(GFP_KERNEL);
	c->bar_page = alloc_pages(GFP_KERNEL | __GFP_ZERO, VFN_BAR_ORDER);
	if (!c->ident || !c->bar_page)
		return -ENOMEM;
	c->bar = page_address(c->bar_page);
	raw_spin_lock_init(&c->cfg_lock);
	c->cfg[PCI_COMMAND] = PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	for (k = 0; k <= c->nr_workers; k++) {
		c->heap[k].cmd = kvcalloc(VFN_INFLIGHT, sizeof(struct vfn_cmd),
					  GFP_KERNEL);
		if (!c->heap[k].cmd)
			return -ENOMEM;
		spin_lock_init(&c->heap[k].lock);
		c->heap[k].ctrl = c;
	}
	for (k = 0; k <= VFN_MAX_IOQ; k++)
		spin_lock_init(&c->cq_lock[k]);
	init_waitqueue_head(&c->power_wq);
	vfn_hostmem_init(c);
	c->hm.probe = fake_probe;
	vfn_dispatch_init(c);
	return 0;
}

/*
 * Enable the controller with a 64-entry admin queue pair and create I/O
 * queue pair 1 (CQ of @cq_size entries, vector 1) through admin commands.
 */
static void bring_up(struct kunit *test, struct rig *r, u32 cq_size)
{
	struct vfn_ctrl *c = r->c;
	struct nvme_command cmd = { };

	vfn_set_reg32(c, NVME_REG_AQA, (QSIZE - 1) << 16 | (QSIZE - 1));
	vfn_set_reg32(c, NVME_REG_ASQ, lower_32_bits(hpage(r, P_ASQ)));
	vfn_set_reg32(c, NVME_REG_ASQ + 4, upper_32_bits(hpage(r, P_ASQ)));
	vfn_set_reg32(c, NVME_REG_ACQ, lower_32_bits(hpage(r, P_ACQ)));
	vfn_set_reg32(c, NVME_REG_ACQ + 4, upper_32_bits(hpage(r, P_ACQ)));
	vfn_set_reg32(c, NVME_REG_CC, NVME_CC_ENABLE);
	pass(r);
	KUNIT_ASSERT_EQ(test, vfn_reg32(c, NVME_REG_CSTS), NVME_CSTS_RDY);

	cmd.features.opcode = nvme_admin_set_features;
	cmd.features.fid = cpu_to_le32(NVME_FEAT_NUM_QUEUES);
	admin_ok(test, r, cmd);

	memset(&cmd, 0, sizeof(cmd));
	cmd.create_cq.opcode = nvme_admin_create_cq;
	cmd.create_cq.prp1 = cpu_to_le64(hpage(r, P_IOCQ));
	cmd.create_cq.cqid = cpu_to_le16(1);
	cmd.create_cq.qsize = cpu_to_le16(cq_size - 1);
	cmd.create_cq.cq_flags = cpu_to_le16(NVME_QUEUE_PHYS_CONTIG |
					     NVME_CQ_IRQ_ENABLED);
	cmd.create_cq.irq_vector = cpu_to_le16(1);
	admin_ok(test, r, cmd);

	memset(&cmd, 0, sizeof(cmd));
	cmd.create_sq.opcode = nvme_admin_create_sq;
	cmd.create_sq.prp1 = cpu_to_le64(hpage(r, P_IOSQ));
	cmd.create_sq.sqid = cpu_to_le16(1);
	cmd.create_sq.qsize = cpu_to_le16(QSIZE - 1);
	cmd.create_sq.sq_flags = cpu_to_le16(NVME_QUEUE_PHYS_CONTIG);
	cmd.create_sq.cqid = cpu_to_le16(1);
	admin_ok(test, r, cmd);
}

/*
 * The dispatcher polls only the SQ ids created since the last reset
 * (sq_scan): an SQ created with the highest id is polled at once, and a
 * reset forgets them all.
 */
static void highest_sq_is_polled(struct kunit *test)
{
	struct rig *r = test->priv;
	struct nvme_command *sq = hkva(r, P_BUF2);
	struct nvme_command cmd = { };

	bring_up(test, r, QSIZE);
	KUNIT_EXPECT_EQ(test, r->c->sq_scan, 2U);
	cmd.create_sq.opcode = nvme_admin_create_sq;
	cmd.create_sq.prp1 = cpu_to_le64(hpage(r, P_BUF2));
	cmd.create_sq.sqid = cpu_to_le16(VFN_MAX_IOQ);
	cmd.create_sq.qsize = cpu_to_le16(QSIZE - 1);
	cmd.create_sq.sq_flags = cpu_to_le16(NVME_QUEUE_PHYS_CONTIG);
	cmd.create_sq.cqid = cpu_to_le16(1);
	admin_ok(test, r, cmd);
	KUNIT_EXPECT_EQ(test, r->c->sq_scan, VFN_MAX_IOQ + 1);

	memset(&cmd, 0, sizeof(cmd));
	cmd.rw.opcode = nvme_cmd_read;
	cmd.rw.command_id = 0x200;
	cmd.rw.nsid = cpu_to_le32(1);
	cmd.rw.dptr.prp1 = cpu_to_le64(hpage(r, P_BUF));
	sq[0] = cmd;
	vfn_set_reg32(r->c, VFN_DB_OFF + 2 * VFN_MAX_IOQ * 4, 1);
	KUNIT_ASSERT_TRUE(test, pass(r));
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 1U);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(cqe(r, P_IOCQ, 0)->sq_id),
			VFN_MAX_IOQ);
	KUNIT_EXPECT_EQ(test, status_of(r, P_IOCQ, 0), 0);

	vfn_set_reg32(r->c, NVME_REG_CC, 0);
	pass(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS), 0U);
	KUNIT_EXPECT_EQ(test, r->c->sq_scan, 0U);
}

/*
 * The regression of issue 13: a 256-range whole-namespace Deallocate and
 * a Read behind it; the host disables the controller while the Deallocate
 * runs (here: the moment the device maps its range list). The device
 * stops within a step, the Read is never executed, nothing more lands in
 * host memory, and the next pass acknowledges the disable (CSTS.RDY 0).
 */
static void disable_during_dsm(struct kunit *test)
{
	struct rig *r = test->priv;
	u8 *buf = hkva(r, P_BUF);
	u32 i;

	bring_up(test, r, QSIZE);
	memset(dev_block(r, 0), 0x55, 4096);
	memset(dev_block(r, (DEV_BYTES >> 12) - 1), 0x55, 4096);
	for (i = 0; i < 256; i++)
		set_range(r, i, 0, DEV_BYTES >> 12);
	dsm(r, 256);
	io(r, nvme_cmd_read, 0, 1, hpage(r, P_BUF));
	memset(buf, 0xaa, PAGE_SIZE);
	r->disable_at = hpage(r, P_DSM);
	ring_iosq(r);

	pass(r);
	KUNIT_EXPECT_EQ(test, r->disable_at, 0ULL);	/* it did map them */
	/* Stopped within a step: the end of the namespace is untouched. */
	KUNIT_EXPECT_EQ(test, dev_block(r, (DEV_BYTES >> 12) - 1)[0], 0x55);
	/* The Read behind it never ran. */
	KUNIT_EXPECT_EQ(test, buf[0], 0xaa);
	KUNIT_EXPECT_EQ(test, buf[PAGE_SIZE - 1], 0xaa);
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 0U);
	KUNIT_EXPECT_EQ(test, r->vectors[1], 0U);

	/* The disable is acknowledged; late completions are dropped. */
	pass(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS), 0U);
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 0U);
	KUNIT_EXPECT_EQ(test, buf[0], 0xaa);
}

/*
 * A command executed before the disable has its completion pending; the
 * host disables the controller before it is due. The worker never posts
 * it, before or after the dispatcher noticed.
 */
static void disable_drops_pending(struct kunit *test)
{
	struct rig *r = test->priv;

	bring_up(test, r, QSIZE);
	io(r, nvme_cmd_read, 0, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	KUNIT_ASSERT_EQ(test, READ_ONCE(r->c->heap[1].nr), 1U);
	vfn_set_reg32(r->c, NVME_REG_CC, 0);
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 0U);
	pass(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS), 0U);
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 0U);
	KUNIT_EXPECT_EQ(test, r->vectors[1], 0U);
}

/*
 * Regression (make bench-crash 2026-12-06, cell ns): an enable refused
 * with CSTS.CFS (here the admin queue registers a power-up cleared, under
 * the CC.EN a driver wrote before the cut) stayed refused through the
 * next driver's disable and enable: its CC.EN 1 -> 0 -> 1 fell between
 * two of the dispatcher's looks at BAR0, its wait for RDY = 0 having
 * ended at once, and the driver gave up ("Device not ready", CSTS 0x2).
 * New registers under CC.EN are a new enable; the same ones stay refused.
 */
static void refused_enable_new_registers(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vfn_ctrl *c = r->c;

	vfn_set_reg32(c, NVME_REG_CC, NVME_CC_ENABLE);
	pass(r);
	KUNIT_ASSERT_EQ(test, vfn_reg32(c, NVME_REG_CSTS), NVME_CSTS_CFS);
	pass(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(c, NVME_REG_CSTS), NVME_CSTS_CFS);
	/* Admin queues, CC.EN still 1 as far as the dispatcher saw: RDY. */
	bring_up(test, r, QSIZE);
	io(r, nvme_cmd_read, 0, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_EXPECT_TRUE(test, pass(r));
}

/*
 * Bus Master Enable off: no command is fetched and no completion or
 * interrupt is posted; on again, the controller goes on where it stopped.
 */
static void bus_master_off(struct kunit *test)
{
	struct rig *r = test->priv;
	u8 *buf = hkva(r, P_BUF), *buf2 = hkva(r, P_BUF2);
	u64 t;

	bring_up(test, r, QSIZE);
	memset(dev_block(r, 3), 0x33, 4096);
	memset(dev_block(r, 4), 0x44, 4096);
	/* One read executed, its completion pending, then BME off. */
	io(r, nvme_cmd_read, 3, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	t = ktime_get_ns() + NSEC_PER_SEC;	/* all due by then */
	KUNIT_EXPECT_EQ(test, buf[0], 0x33);
	set_bus_master(r, false);
	worker(r, t);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 0U);
	/* A new read is not even fetched. */
	io(r, nvme_cmd_read, 4, 1, hpage(r, P_BUF2));
	ring_iosq(r);
	KUNIT_EXPECT_FALSE(test, pass(r));
	KUNIT_EXPECT_EQ(test, buf2[0], 0);
	KUNIT_EXPECT_EQ(test, r->vectors[1], 0U);

	set_bus_master(r, true);
	KUNIT_EXPECT_TRUE(test, pass(r));
	KUNIT_EXPECT_EQ(test, buf2[0], 0x44);
	/* The retry is due within the backoff's bound. */
	worker(r, t + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 2U);
	KUNIT_EXPECT_EQ(test, status_of(r, P_IOCQ, 0), 0);
	KUNIT_EXPECT_EQ(test, status_of(r, P_IOCQ, 1), 0);
	KUNIT_EXPECT_GT(test, r->vectors[1], 0U);
}

/*
 * Delete I/O SQ with commands in flight: the ones submitted but not
 * fetched are posted at once with Command Aborted due to SQ Deletion; the
 * executed ones with their own status at their own due time; the
 * Delete's own completion only once all five are in the CQ.
 */
static void delete_sq_completes_queued(struct kunit *test)
{
	struct rig *r = test->priv;
	struct nvme_command del = { };
	u32 i, ok = 0, aborted = 0, acq;
	u16 cids = 0;

	bring_up(test, r, QSIZE);
	for (i = 0; i < 3; i++)
		io(r, nvme_cmd_read, i, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 0U);	/* not due yet */
	/* Two more submitted, then the Delete, which the dispatcher runs first. */
	io(r, nvme_cmd_read, 3, 1, hpage(r, P_BUF));
	io(r, nvme_cmd_read, 4, 1, hpage(r, P_BUF));
	ring_iosq(r);
	acq = r->asq_tail;
	del.delete_queue.opcode = nvme_admin_delete_sq;
	del.delete_queue.qid = cpu_to_le16(1);
	admin(r, del);
	pass(r);
	/* The two aborted are there; the Delete waits for the three reads. */
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 2U);
	for (i = 0; i < 20 && posted(r, P_ACQ) == acq; i++) {
		usleep_range(1000, 2000);
		pass(r);
	}
	KUNIT_EXPECT_EQ(test, posted(r, P_ACQ), acq);
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 5U);
	for (i = 0; i < 200 && posted(r, P_ACQ) == acq; i++) {
		usleep_range(1000, 2000);
		pass(r);
	}
	KUNIT_ASSERT_EQ(test, posted(r, P_ACQ), acq + 1);
	KUNIT_EXPECT_EQ(test, status_of(r, P_ACQ, acq), 0);
	for (i = 0; i < 5; i++) {
		struct nvme_completion *e = cqe(r, P_IOCQ, i);

		KUNIT_EXPECT_EQ(test, le16_to_cpu(e->sq_id), 1);
		cids |= BIT(le16_to_cpu(e->command_id) - 0x100);
		if (!status_of(r, P_IOCQ, i))
			ok++;
		else if (status_of(r, P_IOCQ, i) == NVME_SC_ABORT_QUEUE)
			aborted++;
	}
	KUNIT_EXPECT_EQ(test, cids, 0x1f);
	KUNIT_EXPECT_EQ(test, ok, 3U);
	KUNIT_EXPECT_EQ(test, aborted, 2U);
	KUNIT_EXPECT_EQ(test, vflash_flash_stat(r->vdev->flash,
						VFLASH_STAT_EARLY_COMPLETIONS), 0ULL);
	KUNIT_EXPECT_GT(test, r->vectors[1], 0U);
	/* Nothing is left to post later. */
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 5U);
}

/*
 * Regression (issue 37, 2): a controller reset deletes the I/O SQs while
 * a Flush is in flight; the Delete posted it at once, and the host took
 * it as a success (fsync returned) while the programs it waits for were
 * still running: a cut then took back data the host was told are
 * durable. The Flush must reach the CQ only at its due time.
 */
static void delete_sq_keeps_flush_due_time(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vflash_flash *f = r->vdev->flash;
	struct nvme_command del = { };
	u64 flush_due, now;
	u32 acq;

	bring_up(test, r, QSIZE);
	/* Programs of 10 s: the Flush is due long after the Delete. */
	KUNIT_ASSERT_EQ(test, vflash_flash_set_knob(f, VFLASH_KNOB_MAIN_PROG_NS,
						    10ULL * NSEC_PER_SEC), 0);
	io(r, nvme_cmd_write, 5, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	worker(r, r->c->heap[1].cmd[0].due_ns);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 1U);	/* the Write's ack */
	io(r, nvme_cmd_flush, 0, 1, 0);
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	KUNIT_ASSERT_EQ(test, READ_ONCE(r->c->heap[1].nr), 1U);
	flush_due = r->c->heap[1].cmd[0].due_ns;
	now = ktime_get_ns();
	KUNIT_ASSERT_GT(test, flush_due, now + NSEC_PER_SEC);

	acq = r->asq_tail;
	del.delete_queue.opcode = nvme_admin_delete_sq;
	del.delete_queue.qid = cpu_to_le16(1);
	admin(r, del);
	pass(r);
	worker(r, ktime_get_ns());
	KUNIT_EXPECT_EQ_MSG(test, posted(r, P_IOCQ), 1U,
			    "the Flush, due at %llu, posted at %llu",
			    flush_due, ktime_get_ns());
	KUNIT_EXPECT_EQ(test, posted(r, P_ACQ), acq);
	/* At its time the Flush goes, then the Delete. */
	worker(r, flush_due);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 2U);
	KUNIT_EXPECT_EQ(test, status_of(r, P_IOCQ, 1), 0);
	KUNIT_EXPECT_EQ(test, r->c->heap[0].nr, 1U);
	KUNIT_EXPECT_EQ(test, r->c->heap[0].cmd[0].wait_sq, 1);
	KUNIT_EXPECT_GE(test, r->c->heap[0].cmd[0].due_ns, flush_due);
}

/*
 * An I/O completion counts its lateness against the model's due time,
 * at the drain's time; admin commands, which the model does not time, do
 * not count. Posting it is activity: the dispatcher polls on (a host at
 * queue depth 1 submits again at once).
 */
static void io_completion_counts_lateness(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vflash_flash *f = r->vdev->flash;
	u64 t;

	bring_up(test, r, QSIZE);
	KUNIT_EXPECT_EQ(test, vflash_flash_lateness_max(f), 0ULL);
	io(r, nvme_cmd_read, 0, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	WRITE_ONCE(r->c->last_busy_ns, 0);
	t = ktime_get_ns() + NSEC_PER_SEC;
	worker(r, t);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 1U);
	/* A posted completion keeps the dispatcher polling from then on. */
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->c->last_busy_ns), t);
	KUNIT_EXPECT_GT(test, vflash_flash_lateness_max(f), NSEC_PER_SEC / 2);
	KUNIT_EXPECT_GT(test, vflash_flash_lateness_pct(f, 500),
			NSEC_PER_SEC / 2);
	KUNIT_EXPECT_EQ(test,
			vflash_flash_stat(f, VFLASH_STAT_EARLY_COMPLETIONS), 0ULL);
}

/* Dispatcher passes until the shutdown reports complete, 1 s at most. */
static void shutdown_wait(struct rig *r)
{
	u32 i;

	for (i = 0; i < 500 && !(vfn_reg32(r->c, NVME_REG_CSTS) &
				 NVME_CSTS_SHST_CMPLT); i++) {
		usleep_range(1000, 2000);
		pass(r);
	}
}

/*
 * A shutdown (CC.SHN) lets what is in flight complete at its time and
 * reports SHST complete only then (shutdown processing, SHST 01b, until
 * then); a completion posted by the shutdown's final drain is no
 * lateness (regression: the drain at U64_MAX counted U64_MAX - due), and
 * no early completion either.
 */
static void shutdown_completion_is_not_late(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vflash_flash *f = r->vdev->flash;
	struct vflash_faults *ft = &r->vdev->faults;

	bring_up(test, r, QSIZE);
	/* Due 20 ms from now: still in flight at the shutdown. */
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_DELAY,
					       "delay_ns", "20000000"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_DELAY,
					       "range", "all"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_DELAY,
					       "armed", "1"), 0);
	io(r, nvme_cmd_read, 0, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 0U);
	vfn_set_reg32(r->c, NVME_REG_CC, NVME_CC_ENABLE | NVME_CC_SHN_NORMAL);
	pass(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS) &
			NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_OCCUR);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 0U);
	shutdown_wait(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS) &
			NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_CMPLT);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 1U);
	KUNIT_EXPECT_LT(test, vflash_flash_lateness_max(f), NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test,
			vflash_flash_stat(f, VFLASH_STAT_EARLY_COMPLETIONS), 0ULL);
	KUNIT_EXPECT_EQ(test, vflash_fault_set(ft, VFLASH_FAULT_DELAY,
					       "armed", "0"), 0);
}

/*
 * Regression (issue 37, 3): a clean shutdown left partly filled program
 * units unprogrammed, so a cut after it took back a write the host had
 * no reason to flush (Linux sends none at unbind), and SMART counted the
 * cut as unsafe. CC.SHN commits the write cache and reports complete
 * once those programs end; a cut then takes nothing back and is no
 * unsafe shutdown; a cut after the next enable is one.
 */
static void shutdown_commits_write_cache(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vflash_faults *ft = &r->vdev->faults;
	enum vflash_fault pc = VFLASH_FAULT_POWER_CUT;

	bring_up(test, r, QSIZE);
	memset(dev_block(r, 9), 0x11, 4096);	/* before arming: durable */
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, pc, "probability", "0"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, pc, "armed", "1"), 0);
	memset(hkva(r, P_BUF), 0xcd, PAGE_SIZE);
	io(r, nvme_cmd_write, 9, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	worker(r, r->c->heap[1].cmd[0].due_ns);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 1U);	/* in the buffer */

	vfn_set_reg32(r->c, NVME_REG_CC, NVME_CC_ENABLE | NVME_CC_SHN_NORMAL);
	pass(r);
	KUNIT_EXPECT_TRUE(test, r->c->shn_done_ns > 0);
	shutdown_wait(r);
	KUNIT_ASSERT_TRUE(test, vfn_reg32(r->c, NVME_REG_CSTS) &
			  NVME_CSTS_SHST_CMPLT);
	r->c->cut_clock = NULL;
	vfn_power_off(r->c);
	KUNIT_EXPECT_EQ(test,
			vflash_flash_stat(r->vdev->flash,
					  VFLASH_STAT_POWER_CUT_LOST_WRITES),
			0ULL);
	KUNIT_EXPECT_EQ(test, dev_block(r, 9)[0], 0xcd);
	KUNIT_EXPECT_EQ(test, r->c->unsafe_shutdowns, 0ULL);
	/* Powered up and enabled again: the next cut is an unsafe one. */
	WRITE_ONCE(r->c->unpowered, false);
	vfn_set_reg32(r->c, NVME_REG_CC, 0);
	pass(r);
	vfn_set_reg32(r->c, NVME_REG_CC, NVME_CC_ENABLE);
	pass(r);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS), NVME_CSTS_RDY);
	vfn_power_off(r->c);
	KUNIT_EXPECT_EQ(test, r->c->unsafe_shutdowns, 1ULL);
	/* And one right after another cut too. */
	WRITE_ONCE(r->c->unpowered, false);
	vfn_power_off(r->c);
	KUNIT_EXPECT_EQ(test, r->c->unsafe_shutdowns, 2ULL);
}

/*
 * Which thread posts to a CQ is fixed when the controller is set up:
 * admin on the dispatcher's heap, I/O CQ q on worker 1 + (q - 1) %
 * workers, every CQ on the dispatcher's without workers.
 */
static void cq_heaps_round_robin(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vfn_ctrl *c = r->c;
	u32 q;

	/* Heaps 2 and 3 only need their locks: a reset empties them. */
	spin_lock_init(&c->heap[2].lock);
	spin_lock_init(&c->heap[3].lock);
	c->nr_workers = 3;
	vfn_dispatch_init(c);
	KUNIT_EXPECT_EQ(test, c->cq_heap[0], 0);
	for (q = 1; q <= VFN_MAX_IOQ; q++)
		KUNIT_EXPECT_EQ(test, c->cq_heap[q], 1 + (q - 1) % 3);
	c->nr_workers = 0;
	vfn_dispatch_init(c);
	for (q = 0; q <= VFN_MAX_IOQ; q++)
		KUNIT_EXPECT_EQ(test, c->cq_heap[q], 0);
	c->nr_workers = 1;
	vfn_dispatch_init(c);
	KUNIT_EXPECT_EQ(test, c->cq_heap[VFN_MAX_IOQ], 1);
}

/*
 * A full CQ whose head does not move: each failed try waits twice as
 * long as the last, up to VFN_CQ_BACKOFF_MAX_NS, so the worker sleeps
 * instead of spinning; once the host moves the head, the rest is posted.
 */
static void full_cq_backs_off(struct kunit *test)
{
	struct rig *r = test->priv;
	u64 now = ktime_get_ns() + NSEC_PER_SEC, next, wait, last = 0;
	u32 i;

	bring_up(test, r, 2);	/* room for one entry */
	for (i = 0; i < 2; i++)
		io(r, nvme_cmd_read, i, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	next = worker(r, now);
	KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 1U);
	KUNIT_ASSERT_NE(test, next, U64_MAX);
	for (i = 0; i < 16; i++) {
		wait = next - now;
		KUNIT_EXPECT_GE(test, wait, (u64)VFN_CQ_BACKOFF_MIN_NS);
		KUNIT_EXPECT_LE(test, wait, (u64)VFN_CQ_BACKOFF_MAX_NS);
		KUNIT_EXPECT_GE(test, wait, min_t(u64, 2 * last,
						  VFN_CQ_BACKOFF_MAX_NS));
		last = wait;
		now = next;
		next = worker(r, now);
		KUNIT_EXPECT_EQ(test, posted(r, P_IOCQ), 1U);
	}
	KUNIT_EXPECT_EQ(test, last, (u64)VFN_CQ_BACKOFF_MAX_NS);
	/* The host consumes the entry: the next one goes in. */
	vfn_set_reg32(r->c, VFN_DB_OFF + (2 * 1 + 1) * 4, 1);
	worker(r, next);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(cqe(r, P_IOCQ, 1)->status) & 1, 1);
}

/*
 * Overlapping and repeated Deallocate ranges are merged: each block is
 * zeroed once and blocks between ranges keep their data.
 */
static void dsm_ranges_merge(struct kunit *test)
{
	struct rig *r = test->priv;
	u64 lba;

	bring_up(test, r, QSIZE);
	for (lba = 0; lba < 16; lba++)
		memset(dev_block(r, lba), 0x77, 4096);
	set_range(r, 0, 10, 2);
	set_range(r, 1, 2, 4);
	set_range(r, 2, 0, 4);
	set_range(r, 3, 0, 0);	/* empty: ignored */
	set_range(r, 4, 3, 1);
	dsm(r, 5);
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	worker(r, ktime_get_ns() + NSEC_PER_SEC);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 1U);
	KUNIT_EXPECT_EQ(test, status_of(r, P_IOCQ, 0), 0);
	for (lba = 0; lba < 16; lba++) {
		bool zero = lba < 6 || lba == 10 || lba == 11;

		KUNIT_EXPECT_EQ_MSG(test, dev_block(r, lba)[4095],
				    zero ? 0 : 0x77, "block %llu", lba);
	}
}

/*
 * A power cut's clock (c->cut_clock): the instant the test chose; and
 * right after that read, before vfn_power_off() goes on, the completion
 * worker on another CPU posts what is due by a second later, as a real
 * one may while the dispatcher cuts.
 */
static u64 cut_clock_then_worker(struct vfn_ctrl *c)
{
	struct rig *r = cur;

	worker(r, r->cut_ns + NSEC_PER_SEC);
	return r->cut_ns;
}

/*
 * The regression of issue 23 (A): a Write acknowledged, then a Flush
 * whose completion is due after the instant of a power cut. No completion
 * the host sees may be due after the instant the power-loss log cuts at:
 * else the host holds a Flush's completion for data the cut took back.
 * The worker posts in the cut's clock read (cut_clock_then_worker()):
 * the cut must have stopped it before it reads its clock.
 */
static void power_cut_after_posters_stop(struct kunit *test)
{
	struct rig *r = test->priv;
	struct vflash_faults *ft = &r->vdev->faults;
	enum vflash_fault pc = VFLASH_FAULT_POWER_CUT;
	u64 write_due, flush_due;

	bring_up(test, r, QSIZE);
	memset(dev_block(r, 7), 0x11, 4096);	/* before arming: durable */
	/* The log on, and no command cuts the power (probability 0). */
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, pc, "probability", "0"), 0);
	KUNIT_ASSERT_EQ(test, vflash_fault_set(ft, pc, "armed", "1"), 0);

	memset(hkva(r, P_BUF), 0xab, PAGE_SIZE);
	io(r, nvme_cmd_write, 7, 1, hpage(r, P_BUF));
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	KUNIT_ASSERT_EQ(test, READ_ONCE(r->c->heap[1].nr), 1U);
	write_due = r->c->heap[1].cmd[0].due_ns;
	worker(r, write_due);
	KUNIT_ASSERT_EQ(test, posted(r, P_IOCQ), 1U);	/* acknowledged */

	io(r, nvme_cmd_flush, 0, 1, 0);
	ring_iosq(r);
	KUNIT_ASSERT_TRUE(test, pass(r));
	KUNIT_ASSERT_EQ(test, READ_ONCE(r->c->heap[1].nr), 1U);
	flush_due = r->c->heap[1].cmd[0].due_ns;
	/* The Flush programs the page: durable after the Write's ack. */
	KUNIT_ASSERT_GT(test, flush_due, write_due);

	/* The power goes after the Write's ack, before the Flush is due. */
	r->cut_ns = write_due;
	r->c->cut_clock = cut_clock_then_worker;
	vfn_power_off(r->c);
	KUNIT_EXPECT_TRUE(test, r->c->unpowered);
	KUNIT_EXPECT_EQ_MSG(test, posted(r, P_IOCQ), 1U,
			    "a completion due at %llu posted, the cut at %llu",
			    flush_due, r->cut_ns);
	/* The page was not durable at the cut: taken back... */
	KUNIT_EXPECT_EQ(test,
			vflash_flash_stat(r->vdev->flash,
					  VFLASH_STAT_POWER_CUT_LOST_WRITES),
			1ULL);
	KUNIT_EXPECT_EQ(test, dev_block(r, 7)[0], 0x11);
	/* ...so the host must never have seen the Flush complete. */
	if (posted(r, P_IOCQ) > 1)
		KUNIT_EXPECT_EQ_MSG(test, dev_block(r, 7)[0], 0xab,
				    "flushed data taken back by the cut");
}

/*
 * The regression of issue 23 (B): a cut request the dispatcher did not
 * take in time (here: it never runs; the hook's wake-up goes to the test
 * itself) is withdrawn: the hook says -ETIMEDOUT and nothing happens
 * later; the next pass of the dispatcher leaves the power on.
 */
static void cut_request_withdrawn(struct kunit *test)
{
	struct rig *r = test->priv;

	bring_up(test, r, QSIZE);
	r->c->heap[0].task = current;
	KUNIT_EXPECT_EQ(test, vfn_request_cut(r->c, HZ / 20), -ETIMEDOUT);
	r->c->heap[0].task = NULL;
	pass(r);
	KUNIT_EXPECT_FALSE(test, r->c->unpowered);
	KUNIT_EXPECT_EQ(test, vfn_reg32(r->c, NVME_REG_CSTS), NVME_CSTS_RDY);
	KUNIT_EXPECT_EQ(test, r->c->unsafe_shutdowns, 0ULL);
}

/* The cut hook, run by a thread of its own for cut_request_taken(). */
struct cut_caller {
	struct vfn_ctrl *c;
	int ret;
	struct completion done;
};

static int cut_caller_fn(void *data)
{
	struct cut_caller *cc = data;

	cc->ret = vfn_request_cut(cc->c, HZ / 20);
	complete(&cc->done);
	return 0;
}

/* A cut that takes longer than the hook's wait (its clock is slow). */
static u64 slow_cut_clock(struct vfn_ctrl *c)
{
	msleep(200);
	return ktime_get_ns();
}

/*
 * Issue 23 (B): a cut request the dispatcher took is waited for, however
 * long the cut takes: the hook returns 0 if and only if the power was
 * cut. (The cut here outlasts the hook's 50 ms wait, so the hook's
 * withdrawal finds the request taken; should this test thread, the
 * dispatcher, be woken too late to take it, the request is withdrawn
 * and the invariant holds the other way round.)
 */
static void cut_request_taken(struct kunit *test)
{
	struct rig *r = test->priv;
	struct cut_caller cc = { .c = r->c, .ret = 1 };
	struct task_struct *t;

	bring_up(test, r, QSIZE);
	init_completion(&cc.done);
	r->c->cut_clock = slow_cut_clock;
	r->c->heap[0].task = current;	/* the hook wakes the test */
	t = kthread_run(cut_caller_fn, &cc, "vflash-t-cut");
	if (IS_ERR(t)) {
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	/* Until the request is made (or withdrawn: the hook is done). */
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(r->c->cut_state) == VFN_CUT_REQUESTED ||
		    completion_done(&cc.done))
			break;
		schedule_timeout(HZ / 100);
	}
	__set_current_state(TASK_RUNNING);
	pass(r);
	wait_for_completion(&cc.done);
	r->c->heap[0].task = NULL;
	KUNIT_EXPECT_EQ(test, cc.ret, r->c->unpowered ? 0 : -ETIMEDOUT);
	KUNIT_EXPECT_EQ(test, READ_ONCE(r->c->cut_state), VFN_CUT_NONE);
}

/*
 * The regression of issue 23 (B): a cut requested while the dispatcher
 * was running (its wake-up then finds it running and is lost) is seen
 * when it goes to sleep: it does not sleep.
 */
static void sleep_sees_cut_request(struct kunit *test)
{
	struct rig *r = test->priv;

	WRITE_ONCE(r->c->cut_state, VFN_CUT_REQUESTED);
	KUNIT_EXPECT_FALSE(test, vfn_dispatch_sleep(r->c, ktime_get_ns() +
						    50 * NSEC_PER_MSEC, 0));
}

static int dispatch_suite_init(struct kunit_suite *suite)
{
	return vflash_policies_init();
}

static void dispatch_suite_exit(struct kunit_suite *suite)
{
	vflash_policies_exit();
}

static struct kunit_case nvme_dispatch_cases[] = {
	KUNIT_CASE(highest_sq_is_polled),
	KUNIT_CASE(disable_during_dsm),
	KUNIT_CASE(disable_drops_pending),
	KUNIT_CASE(bus_master_off),
	KUNIT_CASE(delete_sq_completes_queued),
	KUNIT_CASE(delete_sq_keeps_flush_due_time),
	KUNIT_CASE(io_completion_counts_lateness),
	KUNIT_CASE(shutdown_completion_is_not_late),
	KUNIT_CASE(shutdown_commits_write_cache),
	KUNIT_CASE(refused_enable_new_registers),
	KUNIT_CASE(cq_heaps_round_robin),
	KUNIT_CASE(full_cq_backs_off),
	KUNIT_CASE(dsm_ranges_merge),
	KUNIT_CASE(power_cut_after_posters_stop),
	KUNIT_CASE(cut_request_withdrawn),
	KUNIT_CASE(cut_request_taken),
	KUNIT_CASE(sleep_sees_cut_request),
	{}
};

static struct kunit_suite nvme_dispatch_suite = {
	.name = "vflash-nvme-dispatch",
	.suite_init = dispatch_suite_init,
	.suite_exit = dispatch_suite_exit,
	.init = rig_init,
	.exit = rig_exit,
	.test_cases = nvme_dispatch_cases,
};

kunit_test_suite(nvme_dispatch_suite);
