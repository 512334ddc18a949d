// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the namespace table of Namespace Management
 * (frontend_nvme/ns.c): create, delete, attach and detach, the capacity
 * each namespace holds and where (first fit, no overlap, freed pages used
 * again), every status a refusal gets (and that a refusal changes
 * nothing), the namespace and controller lists, the Changed Namespace
 * List.
 */
#include <kunit/test.h>
#include <linux/nvme.h>
#include <linux/slab.h>

#include "core/compat.h"
#include "frontend_nvme/ns.h"

#define SC(x)		((u16)VFN_SC(x))
#define CAP_PAGES	1024

static const struct vfn_zone_geo zg = { .zsze = 16, .zcap = 12,
					.max_active = 4, .max_open = 2 };

static struct vfn_nstab *table(struct kunit *test, u8 lba_shift,
			       const struct vfn_zone_geo *g)
{
	struct vfn_nstab *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	vfn_nstab_init(t, CAP_PAGES, lba_shift, 0, g);
	test->priv = t;
	return t;
}

static void ns_exit(struct kunit *test)
{
	if (test->priv)
		vfn_nstab_exit(test->priv);
}

/* Create a namespace of @nsze blocks of command set @csi; its status. */
static u16 create(struct vfn_nstab *t, u64 nsze, u8 csi, u32 *nsid)
{
	struct vfn_ns_spec s = { .nsze = nsze, .ncap = nsze, .csi = csi };
	u32 dummy;

	return vfn_ns_create(t, &s, nsid ? nsid : &dummy);
}

/* A Controller List of @n entries, the first @id. */
static const u8 *ctrl_list(struct kunit *test, u16 n, u16 id)
{
	u8 *l = kunit_kzalloc(test, 4096, GFP_KERNEL);

	put_unaligned_le16(n, l);
	put_unaligned_le16(id, l + 2);
	put_unaligned_le16(id, l + 4);
	return l;
}

static u16 attach(struct kunit *test, struct vfn_nstab *t, u32 nsid,
		  bool on)
{
	return vfn_ns_attach(t, nsid, on, ctrl_list(test, 1, VFN_CNTLID),
			     true);
}

static u64 base_of(struct vfn_nstab *t, u32 nsid)
{
	return vfn_ns_find(t, nsid, false)->ns.base;
}

/*
 * The life of a namespace: created (allocated, inactive), attached
 * (active), detached, deleted (its NSID and pages free again).
 */
static void create_attach_detach_delete(struct kunit *test)
{
	struct vfn_nstab *t = table(test, 12, NULL);
	struct vfn_nsd *nd;
	u32 nsid = 0;

	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), (u64)CAP_PAGES);
	KUNIT_EXPECT_EQ(test, create(t, 100, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 1U);
	KUNIT_EXPECT_EQ(test, create(t, 200, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 2U);
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), (u64)CAP_PAGES - 300);
	nd = vfn_ns_find(t, 2, false);
	KUNIT_ASSERT_NOT_NULL(test, nd);
	KUNIT_EXPECT_EQ(test, nd->ns.id, 2U);
	KUNIT_EXPECT_EQ(test, nd->ns.nsze, 200ULL);
	KUNIT_EXPECT_EQ(test, nd->ns.base, 100ULL);
	KUNIT_EXPECT_EQ(test, nd->pages, 200ULL);
	KUNIT_EXPECT_FALSE(test, nd->ns.zoned);
	/* Created, not attached: inactive. */
	KUNIT_EXPECT_NULL(test, vfn_ns_find(t, 2, true));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(t->changed, VFN_MAX_NS + 1));
	KUNIT_EXPECT_EQ(test, attach(test, t, 2, true), 0);
	KUNIT_EXPECT_PTR_EQ(test, vfn_ns_find(t, 2, true), nd);
	KUNIT_EXPECT_TRUE(test, test_bit(2, t->changed));
	KUNIT_EXPECT_EQ(test, attach(test, t, 2, false), 0);
	KUNIT_EXPECT_NULL(test, vfn_ns_find(t, 2, true));
	KUNIT_EXPECT_NOT_NULL(test, vfn_ns_find(t, 2, false));
	/* Deleted: the NSID is free and so are the pages. */
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, 2), 0);
	vfn_ns_delete(t, 2);
	KUNIT_EXPECT_NULL(test, vfn_ns_find(t, 2, false));
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), (u64)CAP_PAGES - 100);
	KUNIT_EXPECT_EQ(test, create(t, 300, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 2U);
	KUNIT_EXPECT_EQ(test, base_of(t, 2), 100ULL);
	/* A new namespace, not the old one: its creation number moved. */
	KUNIT_EXPECT_EQ(test, vfn_ns_find(t, 2, false)->serial, 2U);
	/* The first one made is the load's: serial 0. */
	KUNIT_EXPECT_EQ(test, vfn_ns_find(t, 1, false)->serial, 0U);
	/* Deleting an attached namespace detaches it: a change. */
	KUNIT_EXPECT_EQ(test, attach(test, t, 1, true), 0);
	bitmap_zero(t->changed, VFN_MAX_NS + 1);
	vfn_ns_delete(t, 1);
	KUNIT_EXPECT_TRUE(test, test_bit(1, t->changed));
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), (u64)CAP_PAGES - 300);
}

/*
 * Pages: a namespace's blocks rounded up to whole pages, first fit from
 * the device's start, never overlapping; a freed run is used again; room
 * must be one run.
 */
static void capacity_accounting(struct kunit *test)
{
	struct vfn_nstab *t = table(test, 9, NULL);
	u32 nsid = 0, i, j;

	/* 512-byte blocks: 9 blocks hold 2 pages, 8 blocks one. */
	KUNIT_EXPECT_EQ(test, vfn_ns_pages(t, 9), 2ULL);
	KUNIT_EXPECT_EQ(test, vfn_ns_pages(t, 8), 1ULL);
	KUNIT_EXPECT_EQ(test, create(t, 9, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, create(t, 8 * 100, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, create(t, 8 * 100, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, create(t, 8 * 100, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, base_of(t, 2), 2ULL);
	KUNIT_EXPECT_EQ(test, base_of(t, 3), 102ULL);
	KUNIT_EXPECT_EQ(test, base_of(t, 4), 202ULL);
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), CAP_PAGES - 302ULL);
	/* A hole of 100 pages at 102: 50 fit there, at the lowest NSID. */
	vfn_ns_delete(t, 3);
	KUNIT_EXPECT_EQ(test, create(t, 8 * 50, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 3U);
	KUNIT_EXPECT_EQ(test, base_of(t, 3), 102ULL);
	/* 60 do not fit in the 50 left: after the last namespace. */
	KUNIT_EXPECT_EQ(test, create(t, 8 * 60, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, base_of(t, nsid), 302ULL);
	/* 50 do. */
	KUNIT_EXPECT_EQ(test, create(t, 8 * 50, NVME_CSI_NVM, &nsid), 0);
	KUNIT_EXPECT_EQ(test, base_of(t, nsid), 152ULL);
	/* No two namespaces share a page. */
	for (i = 1; i <= VFN_MAX_NS; i++)
		for (j = i + 1; j <= VFN_MAX_NS; j++) {
			struct vfn_nsd *a = vfn_ns_find(t, i, false);
			struct vfn_nsd *b = vfn_ns_find(t, j, false);

			if (!a || !b)
				continue;
			KUNIT_EXPECT_TRUE(test,
					  a->ns.base + a->pages <= b->ns.base ||
					  b->ns.base + b->pages <= a->ns.base);
		}
	/*
	 * Fragmented: 662 pages free in one run at the end; deleting
	 * namespaces 2 and 3 frees a run of 150 more. 700 pages are fewer
	 * than the 812 free but more than either run: insufficient
	 * capacity. 662 fit at the end.
	 */
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), CAP_PAGES - 362ULL);
	vfn_ns_delete(t, 2);
	vfn_ns_delete(t, 3);
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), CAP_PAGES - 212ULL);
	KUNIT_EXPECT_EQ(test, create(t, 8 * 700, NVME_CSI_NVM, NULL),
			SC(NVME_SC_NS_INSUFFICIENT_CAP));
	KUNIT_EXPECT_EQ(test, create(t, 8 * 662, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), 150ULL);
	/* Every page: the device full, then one block more is too much. */
	KUNIT_EXPECT_EQ(test, create(t, 8 * 100, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, create(t, 8 * 50, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), 0ULL);
	KUNIT_EXPECT_EQ(test, create(t, 1, NVME_CSI_NVM, NULL),
			SC(NVME_SC_NS_INSUFFICIENT_CAP));
}

/* Every refusal: its status, and nothing changed. */
static void every_status(struct kunit *test)
{
	struct vfn_nstab *t = table(test, 12, &zg);
	struct vfn_ns_spec s = { .nsze = 16, .ncap = 16 };
	u32 nsid = 0, i;
	u64 free;

	KUNIT_EXPECT_EQ(test, create(t, 64, NVME_CSI_NVM, NULL), 0);
	free = vfn_nstab_free_pages(t);
	/* Create: the command set, the format, sharing, the size. */
	KUNIT_EXPECT_EQ(test, create(t, 16, 1, NULL),
			SC(VFN_SC_IOCS_NOT_SUPPORTED));
	KUNIT_EXPECT_EQ(test, create(t, 16, 3, NULL),
			SC(VFN_SC_IOCS_NOT_SUPPORTED));
	s.flbas = 1;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_INVALID_FORMAT));
	s.flbas = 0x20;	/* format 16: the high bits of the index */
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_INVALID_FORMAT));
	s.flbas = 0;
	s.dps = 1;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_INVALID_FORMAT));
	s.dps = 0;
	s.nmic = 1;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_INVALID_FIELD));
	s.nmic = 0;
	s.nsze = 0;
	s.ncap = 0;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_INVALID_FIELD));
	s.nsze = 16;
	s.ncap = 17;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_INVALID_FIELD));
	s.ncap = 15;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid),
			SC(NVME_SC_THIN_PROV_NOT_SUPP));
	/* A zoned namespace holds whole zones (16 blocks). */
	KUNIT_EXPECT_EQ(test, create(t, 24, NVME_CSI_ZNS, NULL),
			SC(NVME_SC_INVALID_FIELD));
	/* Past the device, or the size of 2^64 blocks (no wrap). */
	KUNIT_EXPECT_EQ(test, create(t, CAP_PAGES, NVME_CSI_NVM, NULL),
			SC(NVME_SC_NS_INSUFFICIENT_CAP));
	KUNIT_EXPECT_EQ(test, create(t, U64_MAX, NVME_CSI_NVM, NULL),
			SC(NVME_SC_NS_INSUFFICIENT_CAP));
	KUNIT_EXPECT_EQ(test, vfn_nstab_free_pages(t), free);
	KUNIT_EXPECT_NULL(test, vfn_ns_find(t, 2, false));
	/* The format's extended-LBA bit means nothing without metadata. */
	s.ncap = 16;
	s.flbas = 0x10;
	KUNIT_EXPECT_EQ(test, vfn_ns_create(t, &s, &nsid), 0);
	KUNIT_EXPECT_EQ(test, nsid, 2U);
	/* MNAN namespaces, then no NSID is left. */
	for (i = 3; i <= VFN_MAX_NS; i++)
		KUNIT_EXPECT_EQ(test, create(t, 1, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, create(t, 1, NVME_CSI_NVM, NULL),
			SC(NVME_SC_NS_ID_UNAVAILABLE));

	/* Delete: invalid NSIDs, an unallocated one, all. */
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, 0),
			SC(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, VFN_MAX_NS + 1),
			SC(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, 0xfffffffe),
			SC(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, NVME_NSID_ALL), 0);
	vfn_ns_delete(t, 5);
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, 5),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_ns_check_delete(t, 6), 0);

	/* Attach: invalid and unallocated NSIDs, the list, the state. */
	KUNIT_EXPECT_EQ(test, attach(test, t, 0, true), SC(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, attach(test, t, VFN_MAX_NS + 1, true),
			SC(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, attach(test, t, NVME_NSID_ALL, false),
			SC(NVME_SC_INVALID_NS));
	KUNIT_EXPECT_EQ(test, attach(test, t, 5, true),
			SC(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_ns_attach(t, 1, true, ctrl_list(test, 0, 1),
					    true),
			SC(NVME_SC_CTRL_LIST_INVALID));
	KUNIT_EXPECT_EQ(test, vfn_ns_attach(t, 1, true, ctrl_list(test, 1, 2),
					    true),
			SC(NVME_SC_CTRL_LIST_INVALID));
	KUNIT_EXPECT_EQ(test, vfn_ns_attach(t, 1, true, ctrl_list(test, 1, 0),
					    true),
			SC(NVME_SC_CTRL_LIST_INVALID));
	KUNIT_EXPECT_EQ(test, vfn_ns_attach(t, 1, true, ctrl_list(test, 2, 1),
					    true),
			SC(NVME_SC_CTRL_LIST_INVALID));
	KUNIT_EXPECT_EQ(test, attach(test, t, 1, false),
			SC(NVME_SC_NS_NOT_ATTACHED));
	KUNIT_EXPECT_TRUE(test, bitmap_empty(t->changed, VFN_MAX_NS + 1));
	KUNIT_EXPECT_EQ(test, attach(test, t, 1, true), 0);
	KUNIT_EXPECT_EQ(test, attach(test, t, 1, true),
			SC(NVME_SC_NS_ALREADY_ATTACHED));
	/* A zoned namespace while the host enabled the NVM set only. */
	KUNIT_EXPECT_EQ(test, create(t, 16, NVME_CSI_ZNS, &nsid), 0);
	KUNIT_EXPECT_EQ(test, vfn_ns_attach(t, nsid, true,
					    ctrl_list(test, 1, 1), false),
			SC(VFN_SC_IOCS_NOT_ENABLED));
	KUNIT_EXPECT_NULL(test, vfn_ns_find(t, nsid, true));
	KUNIT_EXPECT_EQ(test, vfn_ns_attach(t, nsid, true,
					    ctrl_list(test, 1, 1), true), 0);
}

/* Without the Zoned command set (FDP) a zoned create is not supported. */
static void zoned_namespaces(struct kunit *test)
{
	struct vfn_nstab *t = table(test, 12, &zg);
	struct vfn_nsd *nd;
	u32 nsid = 0;

	KUNIT_EXPECT_TRUE(test, vfn_nstab_zoned(t));
	KUNIT_EXPECT_EQ(test, create(t, 10, NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, create(t, 64, NVME_CSI_ZNS, &nsid), 0);
	nd = vfn_ns_find(t, nsid, false);
	KUNIT_ASSERT_NOT_NULL(test, nd);
	KUNIT_EXPECT_TRUE(test, nd->ns.zoned);
	KUNIT_EXPECT_EQ(test, nd->ns.base, 10ULL);
	KUNIT_EXPECT_EQ(test, nd->zns.nr_zones, 4U);
	KUNIT_EXPECT_EQ(test, nd->zns.zsze, 16ULL);
	KUNIT_EXPECT_EQ(test, nd->zns.zcap, 12ULL);
	KUNIT_EXPECT_EQ(test, nd->zns.max_active, 4U);
	KUNIT_EXPECT_EQ(test, nd->zns.max_open, 2U);
	KUNIT_EXPECT_NOT_NULL(test, nd->zones_changed);
	/* Zones are the namespace's own: block 0 is zone 0's start. */
	KUNIT_EXPECT_EQ(test, nd->zns.zones[1].wp, 16ULL);
	vfn_ns_delete(t, nsid);
	KUNIT_EXPECT_NULL(test, vfn_ns_find(t, nsid, false));

	vfn_nstab_exit(t);
	vfn_nstab_init(t, CAP_PAGES, 12, 4, NULL);
	KUNIT_EXPECT_FALSE(test, vfn_nstab_zoned(t));
	KUNIT_EXPECT_EQ(test, create(t, 64, NVME_CSI_ZNS, NULL),
			SC(VFN_SC_IOCS_NOT_SUPPORTED));
	/*
	 * FDP: a conventional namespace made without a Placement Handle List
	 * gets one placement handle, reclaim unit handle 0, the controller's
	 * choice.
	 */
	KUNIT_EXPECT_EQ(test, create(t, 64, NVME_CSI_NVM, &nsid), 0);
	nd = vfn_ns_find(t, nsid, false);
	KUNIT_EXPECT_EQ(test, nd->ns.nr_ph, 1);
	KUNIT_EXPECT_EQ(test, nd->ns.ruh[0], 0);
	KUNIT_EXPECT_TRUE(test, nd->ns.ruh_ctrl);
}

/*
 * Identify's lists: active or allocated NSIDs above a start, by command
 * set; the controllers a namespace is attached to; the Changed Namespace
 * List, kept or cleared by its read.
 */
static void lists(struct kunit *test)
{
	struct vfn_nstab *t = table(test, 12, &zg);
	__le32 *l = kunit_kzalloc(test, 4096, GFP_KERNEL);
	u8 *cl = kunit_kzalloc(test, 4096, GFP_KERNEL);
	u32 i;

	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, create(t, 16, i == 3 ? NVME_CSI_ZNS :
					     NVME_CSI_NVM, NULL), 0);
	KUNIT_EXPECT_EQ(test, attach(test, t, 2, true), 0);
	KUNIT_EXPECT_EQ(test, attach(test, t, 4, true), 0);
	KUNIT_EXPECT_EQ(test, attach(test, t, 5, true), 0);
	KUNIT_EXPECT_EQ(test, vfn_ns_list(t, 0, true, -1, l), 3U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[0]), 2U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[1]), 4U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[2]), 5U);
	memset(l, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_list(t, 2, true, -1, l), 2U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[0]), 4U);
	memset(l, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_list(t, 0, false, -1, l), 5U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[4]), 5U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[5]), 0U);
	memset(l, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_list(t, 0, false, NVME_CSI_ZNS, l), 1U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[0]), 4U);
	memset(l, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_list(t, 0, true, NVME_CSI_NVM, l), 2U);
	KUNIT_EXPECT_EQ(test, vfn_ns_list(t, VFN_MAX_NS, false, -1, l), 0U);

	/* Controller lists: this controller, from CNTID 0 or 1 on. */
	KUNIT_EXPECT_EQ(test, vfn_ns_ctrl_list(t, 0, 0, cl), 1U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(cl), 1);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(cl + 2), VFN_CNTLID);
	memset(cl, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_ctrl_list(t, 0, 2, cl), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(cl), 0);
	KUNIT_EXPECT_EQ(test, vfn_ns_ctrl_list(t, 2, 1, cl), 1U);
	memset(cl, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_ctrl_list(t, 3, 0, cl), 0U);
	KUNIT_EXPECT_EQ(test, vfn_ns_ctrl_list(t, 9, 0, cl), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le16(cl), 0);

	/* The Changed Namespace List: 2, 4, 5; RAE keeps it. */
	memset(l, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_changed_log(t, l, false), 3U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[0]), 2U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[2]), 5U);
	KUNIT_EXPECT_EQ(test, vfn_ns_changed_log(t, l, true), 3U);
	memset(l, 0, 4096);
	KUNIT_EXPECT_EQ(test, vfn_ns_changed_log(t, l, true), 0U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[0]), 0U);
	KUNIT_EXPECT_EQ(test, attach(test, t, 4, false), 0);
	KUNIT_EXPECT_EQ(test, vfn_ns_changed_log(t, l, true), 1U);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(l[0]), 4U);
}

static struct kunit_case nvme_ns_cases[] = {
	KUNIT_CASE(create_attach_detach_delete),
	KUNIT_CASE(capacity_accounting),
	KUNIT_CASE(every_status),
	KUNIT_CASE(zoned_namespaces),
	KUNIT_CASE(lists),
	{}
};

static struct kunit_suite nvme_ns_suite = {
	.name = "vflash-nvme-ns",
	.exit = ns_exit,
	.test_cases = nvme_ns_cases,
};

kunit_test_suite(nvme_ns_suite);
