// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the NVMe frontend's protocol logic (frontend_nvme/
 * the decoding in admin.c and io.c, prp.c, ring.c): every status a command can fail decoding
 * with, PRP walking on crafted lists over fake host memory, and the queue
 * rings' arithmetic and phase tags.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "frontend_nvme/nvme.h"
#include "frontend_nvme/proto.h"
#include "frontend_nvme/zns.h"
#include "frontend_nvme/uncor.h"

#define DNR(x)		((x) | NVME_STATUS_DNR)

/* ---- command decoding ---- */

static const struct vfn_ns ns4k = { .nsze = 1000, .id = 1, .lba_shift = 12 };
static const struct vfn_ns ns512 = { .nsze = 8000, .id = 1, .lba_shift = 9 };

static struct nvme_command rw_cmd(u8 op, u64 slba, u32 nlb)
{
	struct nvme_command c = { };

	c.rw.opcode = op;
	c.rw.nsid = cpu_to_le32(1);
	c.rw.slba = cpu_to_le64(slba);
	c.rw.length = cpu_to_le16(nlb - 1);
	return c;
}

static u16 io(const struct nvme_command *c, const struct vfn_ns *ns)
{
	struct vfn_io_req r;

	return vfn_io_decode(c, ns, &r);
}

static void io_decode_fields(struct kunit *test)
{
	struct nvme_command c = rw_cmd(nvme_cmd_read, 10, 4);
	struct vfn_io_req r;

	KUNIT_ASSERT_EQ(test, vfn_io_decode(&c, &ns4k, &r), 0);
	KUNIT_EXPECT_EQ(test, r.opcode, nvme_cmd_read);
	KUNIT_EXPECT_EQ(test, r.slba, 10ULL);
	KUNIT_EXPECT_EQ(test, r.nlb, 4ULL);
	KUNIT_EXPECT_EQ(test, r.pos_bytes, 10ULL << 12);
	KUNIT_EXPECT_EQ(test, r.len_bytes, 4ULL << 12);
	KUNIT_EXPECT_EQ(test, r.lpn, 10ULL);
	KUNIT_EXPECT_EQ(test, r.nr_lpages, 4ULL);
	KUNIT_EXPECT_FALSE(test, r.fua);

	/* 512-byte blocks 9..16: bytes 4608..8703, pages 1 and 2, none whole. */
	c = rw_cmd(nvme_cmd_write, 9, 8);
	c.rw.control = cpu_to_le16(NVME_RW_FUA);
	KUNIT_ASSERT_EQ(test, vfn_io_decode(&c, &ns512, &r), 0);
	KUNIT_EXPECT_TRUE(test, r.fua);
	KUNIT_EXPECT_EQ(test, r.pos_bytes, 4608ULL);
	KUNIT_EXPECT_EQ(test, r.len_bytes, 4096ULL);
	KUNIT_EXPECT_EQ(test, r.lpn, 1ULL);
	KUNIT_EXPECT_EQ(test, r.nr_lpages, 2ULL);
	KUNIT_EXPECT_EQ(test, r.nr_full, 0ULL);

	c = rw_cmd(nvme_cmd_write_zeroes, 0, 100);
	c.write_zeroes.control = cpu_to_le16(BIT(9));
	KUNIT_ASSERT_EQ(test, vfn_io_decode(&c, &ns4k, &r), 0);
	KUNIT_EXPECT_TRUE(test, r.deallocate);

	memset(&c, 0, sizeof(c));
	c.dsm.opcode = nvme_cmd_dsm;
	c.dsm.nsid = cpu_to_le32(1);
	c.dsm.nr = cpu_to_le32(2);
	c.dsm.attributes = cpu_to_le32(NVME_DSMGMT_AD);
	KUNIT_ASSERT_EQ(test, vfn_io_decode(&c, &ns4k, &r), 0);
	KUNIT_EXPECT_EQ(test, r.nr_ranges, 3U);
	KUNIT_EXPECT_TRUE(test, r.deallocate);
}

static void io_decode_statuses(struct kunit *test)
{
	struct nvme_command c = rw_cmd(nvme_cmd_read, 0, 1);

	c.common.flags = NVME_CMD_FUSE_FIRST;
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_FIELD));
	c.common.flags = NVME_CMD_SGL_METABUF;
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_FIELD));
	c.common.flags = 0;

	c.common.opcode = 0x7f;
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_OPCODE));

	/*
	 * An invalid NSID is Invalid Namespace; a valid one without an
	 * active namespace (none passed) Invalid Field, its zone commands
	 * too.
	 */
	c = rw_cmd(nvme_cmd_read, 0, 1);
	c.rw.nsid = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_FIELD));
	c.common.opcode = nvme_cmd_zone_append;
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_OPCODE));
	c = rw_cmd(nvme_cmd_read, 0, 1);
	c.rw.nsid = cpu_to_le32(VFN_MAX_NS);
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_FIELD));
	c.rw.nsid = cpu_to_le32(VFN_MAX_NS + 1);
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_NS));
	c.rw.nsid = 0;
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_NS));
	c.rw.nsid = cpu_to_le32(NVME_NSID_ALL);
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_NS));
	c.common.opcode = nvme_cmd_flush;
	KUNIT_EXPECT_EQ(test, io(&c, NULL), 0);
	c.rw.nsid = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, io(&c, NULL), DNR(NVME_SC_INVALID_FIELD));

	/* The last block is in range; one past it, or straddling, is not. */
	c = rw_cmd(nvme_cmd_read, 999, 1);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), 0);
	c = rw_cmd(nvme_cmd_read, 1000, 1);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));
	c = rw_cmd(nvme_cmd_write, 998, 3);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));
	c = rw_cmd(nvme_cmd_compare, U64_MAX, 2);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));
	c = rw_cmd(nvme_cmd_write_zeroes, 990, 11);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));

	/* MDTS: 512 KiB, whatever the block size. */
	c = rw_cmd(nvme_cmd_read, 0, 128);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), 0);
	c = rw_cmd(nvme_cmd_read, 0, 129);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_FIELD));
	c = rw_cmd(nvme_cmd_write, 0, 1024);
	KUNIT_EXPECT_EQ(test, io(&c, &ns512), 0);
	c = rw_cmd(nvme_cmd_write, 0, 1025);
	KUNIT_EXPECT_EQ(test, io(&c, &ns512), DNR(NVME_SC_INVALID_FIELD));
	/* Write Zeroes moves no data: no MDTS limit. */
	c = rw_cmd(nvme_cmd_write_zeroes, 0, 1000);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), 0);
}

/*
 * Zone Management Send's ZRWA decoding: Open with ZRWAA (CDW13 bit 9) and
 * Flush Explicit ZRWA Range (11h) pass to the zones, each for one zone:
 * with Select All, Invalid Field; an action past 11h is Invalid Field;
 * ZRWAA with another action is ignored.
 */
static void zone_send_zrwa_decode(struct kunit *test)
{
	static const struct vfn_ns zns = {
		.nsze = 1024, .id = 1, .lba_shift = 12, .zoned = true,
	};
	struct nvme_command c = { };
	struct vfn_io_req r;

	c.zms.opcode = nvme_cmd_zone_mgmt_send;
	c.zms.nsid = cpu_to_le32(1);
	c.zms.slba = cpu_to_le64(5);
	c.zms.zsa = NVME_ZONE_OPEN;
	c.zms.select_all = BIT(1);
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r), 0);
	KUNIT_EXPECT_TRUE(test, r.zrwaa);
	c.zms.select_all = BIT(1) | BIT(0);
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r),
			DNR(NVME_SC_INVALID_FIELD));
	c.zms.zsa = NVME_ZONE_CLOSE;
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r), 0);
	KUNIT_EXPECT_FALSE(test, r.zrwaa);
	c.zms.zsa = VFN_ZSA_ZRWA_FLUSH;
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r),
			DNR(NVME_SC_INVALID_FIELD));
	c.zms.select_all = 0;
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r), 0);
	KUNIT_EXPECT_EQ(test, r.zsa, VFN_ZSA_ZRWA_FLUSH);
	KUNIT_EXPECT_EQ(test, r.slba, 5ULL);
	c.zms.slba = cpu_to_le64(1024);
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r),
			DNR(NVME_SC_LBA_RANGE));
	c.zms.slba = 0;
	c.zms.zsa = VFN_ZSA_ZRWA_FLUSH + 1;
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r),
			DNR(NVME_SC_INVALID_FIELD));
	/* 10h, Set Zone Descriptor Extension: io.c refuses it without ZDES. */
	c.zms.zsa = VFN_ZSA_SET_EXT;
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &zns, &r), 0);
}

static void lba_range_pages(struct kunit *test)
{
	static const struct {
		u64 slba, nlb, lpn, nr, full_lpn, nr_full;
	} cases[] = {
		{ 0, 8, 0, 1, 0, 1 },		/* one whole page */
		{ 0, 1, 0, 1, 0, 0 },		/* its first block */
		{ 7, 1, 0, 1, 1, 0 },		/* its last block */
		{ 7, 2, 0, 2, 1, 0 },		/* across a boundary */
		{ 7, 10, 0, 3, 1, 1 },		/* partial, whole, partial */
		{ 8, 12, 1, 2, 1, 1 },		/* whole, then partial */
		{ 4, 12, 0, 2, 1, 1 },		/* partial, then whole */
	};
	struct vfn_io_req r;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		KUNIT_ASSERT_EQ(test, vfn_lba_range(&ns512, cases[i].slba,
						    cases[i].nlb, &r), 0);
		KUNIT_EXPECT_EQ_MSG(test, r.lpn, cases[i].lpn, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.nr_lpages, cases[i].nr, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.full_lpn, cases[i].full_lpn,
				    "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, r.nr_full, cases[i].nr_full,
				    "case %u", i);
	}
	KUNIT_EXPECT_EQ(test, vfn_lba_range(&ns512, 0, 0, &r),
			DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_EQ(test, vfn_lba_range(&ns512, 7999, 1, &r), 0);
	KUNIT_EXPECT_EQ(test, vfn_lba_range(&ns512, 7999, 2, &r),
			DNR(NVME_SC_LBA_RANGE));
}

static struct nvme_command admin_cmd(u8 op, u32 nsid, u32 cdw10, u32 cdw11)
{
	struct nvme_command c = { };

	c.common.opcode = op;
	c.common.nsid = cpu_to_le32(nsid);
	c.common.cdw10 = cpu_to_le32(cdw10);
	c.common.cdw11 = cpu_to_le32(cdw11);
	return c;
}

static void admin_decode_statuses(struct kunit *test)
{
	struct nvme_command c = admin_cmd(0x7f, 0, 0, 0);
	u32 want = 0;

	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_OPCODE));
	c = admin_cmd(nvme_admin_identify, 0, NVME_ID_CNS_CTRL, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c.common.flags = NVME_CMD_FUSE_SECOND;
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));

	/* Identify: CNS, NSID and CSI. */
	c = admin_cmd(nvme_admin_identify, 1, 0x04, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	c = admin_cmd(nvme_admin_identify, 1, NVME_ID_CNS_NS, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_identify, NVME_NSID_ALL, NVME_ID_CNS_NS, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_identify, VFN_MAX_NS + 1, NVME_ID_CNS_NS, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
	c = admin_cmd(nvme_admin_identify, 0xfffffffe,
		      NVME_ID_CNS_NS_ACTIVE_LIST, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
	c = admin_cmd(nvme_admin_identify, 0, NVME_ID_CNS_NS_ACTIVE_LIST, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_identify, 0, NVME_ID_CNS_NS_DESC_LIST, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
	/* The zoned set is admin.c's to accept (zoned=); others never. */
	c = admin_cmd(nvme_admin_identify, 1, NVME_ID_CNS_CS_NS, 0);
	c.identify.csi = NVME_CSI_ZNS;
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c.identify.csi = 1;
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	c.identify.csi = NVME_CSI_NVM;
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);

	/* Features: the id, and Save. */
	c = admin_cmd(nvme_admin_set_features, 0, NVME_FEAT_VOLATILE_WC, 1);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_set_features, 0,
		      NVME_FEAT_VOLATILE_WC | BIT(31), 1);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c),
			DNR(NVME_SC_FEATURE_NOT_SAVEABLE));
	c = admin_cmd(nvme_admin_get_features, 0, 0x7f, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_decode_nr_queues(0x0007 | 3 << 16, &want), 0);
	KUNIT_EXPECT_EQ(test, want, 8U);
	KUNIT_EXPECT_EQ(test, vfn_decode_nr_queues(0xffff, &want),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_decode_nr_queues(0xffffU << 16, &want),
			DNR(NVME_SC_INVALID_FIELD));

	/* Get Log Page: a page we do not have. */
	c = admin_cmd(nvme_admin_get_log_page, 0, 0x7f, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c),
			DNR(NVME_SC_INVALID_LOG_PAGE));
	/* The Changed Namespace List: 1024 NSIDs. */
	KUNIT_EXPECT_EQ(test, vfn_log_bytes(NVME_LOG_CHANGED_NS), 4096U);

	/*
	 * Namespace Management: create (SEL 0, NSID reserved) and delete
	 * (SEL 1: a valid NSID or all); other operations are Invalid Field.
	 */
	c = admin_cmd(nvme_admin_ns_mgmt, 0, 0, NVME_CSI_ZNS << 24);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_mgmt, 7, 0, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_mgmt, 1, 2, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	c = admin_cmd(nvme_admin_ns_mgmt, 1, 0xf, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	/* CDW10 bits 31:4 are reserved: a delete still. */
	c = admin_cmd(nvme_admin_ns_mgmt, 1, 0x11, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_mgmt, 3, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_mgmt, NVME_NSID_ALL, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_mgmt, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
	c = admin_cmd(nvme_admin_ns_mgmt, VFN_MAX_NS + 1, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
	/* Namespace Attachment: a valid NSID, attach (0) or detach (1). */
	c = admin_cmd(nvme_admin_ns_attach, 2, 0, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_attach, 2, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c = admin_cmd(nvme_admin_ns_attach, 2, 3, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	c = admin_cmd(nvme_admin_ns_attach, NVME_NSID_ALL, 0, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
	c = admin_cmd(nvme_admin_ns_attach, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_NS));
}

/* Regression: every log page was 4096 bytes, offsets checked against that. */
static void log_page_sizes_and_offsets(struct kunit *test)
{
	struct nvme_command c;
	u32 off = 0, len = 0;

	KUNIT_EXPECT_EQ(test, vfn_log_bytes(NVME_LOG_ERROR), 64U);
	KUNIT_EXPECT_EQ(test, vfn_log_bytes(NVME_LOG_SMART), 512U);
	KUNIT_EXPECT_EQ(test, vfn_log_bytes(NVME_LOG_FW_SLOT), 512U);
	KUNIT_EXPECT_EQ(test, vfn_log_bytes(0x7f), 0U);

	/* SMART: 512 bytes from offset 0; the offset may reach the end. */
	c = admin_cmd(nvme_admin_get_log_page, NVME_NSID_ALL,
		      NVME_LOG_SMART | 127 << 16, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_log(&c, &off, &len), 0);
	KUNIT_EXPECT_EQ(test, off, 0U);
	KUNIT_EXPECT_EQ(test, len, 512U);
	c.common.cdw12 = cpu_to_le32(508);
	KUNIT_EXPECT_EQ(test, vfn_check_log(&c, &off, &len), 0);
	KUNIT_EXPECT_EQ(test, off, 508U);
	KUNIT_EXPECT_EQ(test, len, 512U);	/* the rest reads as zeros */
	c.common.cdw12 = cpu_to_le32(512);
	KUNIT_EXPECT_EQ(test, vfn_check_log(&c, &off, &len), 0);
	c.common.cdw12 = cpu_to_le32(516);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	c.common.cdw12 = cpu_to_le32(3584);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	c.common.cdw12 = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	/* LPOU counts: 2^32 + 0 is past the end. */
	c.common.cdw12 = 0;
	c.common.cdw13 = cpu_to_le32(1);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	/* Index offsets are not supported for any log. */
	c.common.cdw13 = 0;
	c.common.cdw14 = cpu_to_le32(BIT(23));
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));

	/* Error log: one 64-byte entry; offset 64 is the end, 68 beyond. */
	c = admin_cmd(nvme_admin_get_log_page, 0, NVME_LOG_ERROR | 15 << 16, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_log(&c, &off, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 64U);
	c.common.cdw12 = cpu_to_le32(68);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
	/* Firmware slot: 512 bytes; 1024 asked for is 512 and zeros. */
	c = admin_cmd(nvme_admin_get_log_page, 0,
		      NVME_LOG_FW_SLOT | 255 << 16, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_log(&c, &off, &len), 0);
	KUNIT_EXPECT_EQ(test, len, 1024U);
	c.common.cdw12 = cpu_to_le32(1024);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));

	/* NUMDU: 2^16 + 1 dwords is fine, more than MDTS is not. */
	c = admin_cmd(nvme_admin_get_log_page, 0, NVME_LOG_ERROR, 1);
	KUNIT_EXPECT_EQ(test, vfn_check_log(&c, &off, &len), 0);
	KUNIT_EXPECT_EQ(test, len, (0x10000U + 1) * 4);
	c = admin_cmd(nvme_admin_get_log_page, 0, NVME_LOG_ERROR, 2);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
}

/*
 * Regression: CNS 05h and 00h took any NSID. With Namespace Management
 * NSIDs 1 to NN are valid (admin.c answers for the inactive ones), the
 * broadcast NSID names the common capabilities for CNS 00h and 05h and
 * nothing elsewhere, FFFFFFFEh is no list's start.
 */
static void identify_nsid_rules(struct kunit *test)
{
	static const struct {
		u8 cns, csi;
		u32 nsid;
		u16 sc;
	} cases[] = {
		{ NVME_ID_CNS_NS, 0, 1, 0 },
		{ NVME_ID_CNS_NS, 0, 0, DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS, 0, 2, 0 },
		{ NVME_ID_CNS_NS, 0, VFN_MAX_NS, 0 },
		{ NVME_ID_CNS_NS, 0, VFN_MAX_NS + 1, DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS, 0, NVME_NSID_ALL, 0 },
		{ NVME_ID_CNS_CTRL, 0, 0, 0 },
		{ NVME_ID_CNS_CTRL, 0, NVME_NSID_ALL, 0 },
		{ NVME_ID_CNS_NS_ACTIVE_LIST, 0, 0, 0 },
		{ NVME_ID_CNS_NS_ACTIVE_LIST, 0, 1, 0 },
		{ NVME_ID_CNS_NS_ACTIVE_LIST, 0, 0xfffffffe,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS_ACTIVE_LIST, 0, NVME_NSID_ALL,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS_DESC_LIST, 0, 1, 0 },
		{ NVME_ID_CNS_NS_DESC_LIST, 0, 2, 0 },
		{ NVME_ID_CNS_NS_DESC_LIST, 0, 0, DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS_DESC_LIST, 0, NVME_NSID_ALL,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_CS_NS, NVME_CSI_NVM, 1, 0 },
		{ NVME_ID_CNS_CS_NS, NVME_CSI_NVM, 2, 0 },
		{ NVME_ID_CNS_CS_NS, NVME_CSI_NVM, 0, DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_CS_NS, NVME_CSI_NVM, NVME_NSID_ALL, 0 },
		{ NVME_ID_CNS_CS_NS, NVME_CSI_ZNS, 1, 0 },
		{ NVME_ID_CNS_CS_NS, NVME_CSI_ZNS, VFN_MAX_NS + 1,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_CS_NS, 1, 1, DNR(NVME_SC_INVALID_FIELD) },
		{ NVME_ID_CNS_CS_CTRL, NVME_CSI_NVM, 0, 0 },
		{ NVME_ID_CNS_CS_CTRL, NVME_CSI_ZNS, 0, 0 },
		{ NVME_ID_CNS_CS_CTRL, 1, 0, DNR(NVME_SC_INVALID_FIELD) },
		{ VFN_ID_CNS_IOCS, 0, 0, 0 },
		{ VFN_ID_CNS_CS_NS_ACTIVE_LIST, NVME_CSI_ZNS, 0, 0 },
		{ VFN_ID_CNS_CS_NS_ACTIVE_LIST, 1, 0,
		  DNR(NVME_SC_INVALID_FIELD) },
		{ VFN_ID_CNS_CS_NS_ACTIVE_LIST, 0, 0xfffffffe,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS_PRESENT_LIST, 0, 1, 0 },
		{ NVME_ID_CNS_NS_PRESENT_LIST, 0, NVME_NSID_ALL,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_NS_PRESENT, 0, 3, 0 },
		{ NVME_ID_CNS_NS_PRESENT, 0, NVME_NSID_ALL,
		  DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_CTRL_NS_LIST, 0, 1, 0 },
		{ NVME_ID_CNS_CTRL_NS_LIST, 0, 0, DNR(NVME_SC_INVALID_NS) },
		{ NVME_ID_CNS_CTRL_NS_LIST, 0, NVME_NSID_ALL,
		  DNR(NVME_SC_INVALID_FIELD) },
		{ NVME_ID_CNS_CTRL_LIST, 0, NVME_NSID_ALL, 0 },
		{ VFN_ID_CNS_CS_NS_ALLOC_LIST, NVME_CSI_NVM, 0, 0 },
		{ VFN_ID_CNS_CS_NS_ALLOC, NVME_CSI_ZNS, 5, 0 },
		{ VFN_ID_CNS_CS_NS_ALLOC, NVME_CSI_ZNS, NVME_NSID_ALL,
		  DNR(NVME_SC_INVALID_NS) },
		{ VFN_ID_CNS_CS_NS_ALLOC, 3, 5, DNR(NVME_SC_INVALID_FIELD) },
		{ 0x08, 0, 1, 0 },
		{ 0x14, 0, 1, DNR(NVME_SC_INVALID_FIELD) },
	};
	struct nvme_command c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		c = admin_cmd(nvme_admin_identify, cases[i].nsid,
			      cases[i].cns, 0);
		c.identify.csi = cases[i].csi;
		KUNIT_EXPECT_EQ_MSG(test, vfn_admin_decode(&c), cases[i].sc,
				    "case %u", i);
	}
}

/* Regression: only the volatile write cache was stored; the rest read 0. */
static void features_store_and_return(struct kunit *test)
{
	struct vfn_features *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct nvme_command c;
	u32 r = 0;

	KUNIT_ASSERT_NOT_NULL(test, f);
	vfn_features_default(f);
	/* Defaults: write cache on (Identify VWC), over threshold WCTEMP. */
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_VOLATILE_WC, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 1U);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_TEMP_THRESH, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, (u32)VFN_WCTEMP_K);

	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_ARBITRATION,
					      0x01020303), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_ARBITRATION, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0x01020303U);

	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_POWER_MGMT, 0x40), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_POWER_MGMT, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0x40U);
	/* NPSS = 0: power state 1 does not exist; nothing changes. */
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_POWER_MGMT, 1),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_POWER_MGMT, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0x40U);

	/* Over and under thresholds of the composite temperature. */
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_TEMP_THRESH, 300),
			0);
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_TEMP_THRESH,
					      273 | 1 << 20), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_TEMP_THRESH, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 300U);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_TEMP_THRESH,
					      1 << 20, &r), 0);
	KUNIT_EXPECT_EQ(test, r, 273U | 1 << 20);
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_TEMP_THRESH,
					      300 | 1 << 16),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_TEMP_THRESH,
					      300 | 2 << 20),
			DNR(NVME_SC_INVALID_FIELD));

	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_IRQ_COALESCE,
					      0x0a05), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_IRQ_COALESCE, 0,
					      &r), 0);
	KUNIT_EXPECT_EQ(test, r, 0x0a05U);

	/* Interrupt configuration: per vector. */
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_IRQ_CONFIG,
					      3 | BIT(16)), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_IRQ_CONFIG, 3, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 3U | BIT(16));
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_IRQ_CONFIG, 4, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 4U);
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_IRQ_CONFIG,
					      VFN_NR_VEC),
			DNR(NVME_SC_INVALID_FIELD));

	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_VOLATILE_WC, 0), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_VOLATILE_WC, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0U);
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_ERR_RECOVERY, 77), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_ERR_RECOVERY, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 77U);
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_ERR_RECOVERY,
					      BIT(16)),
			DNR(NVME_SC_INVALID_FIELD));
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_WRITE_ATOMIC, 1), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_WRITE_ATOMIC, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 1U);
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_ASYNC_EVENT, 0x1f),
			0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_ASYNC_EVENT, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0x1fU);
	/* Namespace Attribute Notices are kept, unsupported bits not. */
	KUNIT_EXPECT_EQ(test, vfn_feature_set(f, NVME_FEAT_ASYNC_EVENT,
					      0x301), 0);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_ASYNC_EVENT, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0x101U);

	/* A reset brings the defaults back. */
	vfn_features_default(f);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_VOLATILE_WC, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 1U);
	KUNIT_EXPECT_EQ(test, vfn_feature_get(f, NVME_FEAT_ARBITRATION, 0, &r),
			0);
	KUNIT_EXPECT_EQ(test, r, 0U);

	/* Get's select field: 4..7 are reserved. */
	c = admin_cmd(nvme_admin_get_features, 0,
		      NVME_FEAT_ARBITRATION | 3 << 8, 0);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), 0);
	c.common.cdw10 = cpu_to_le32(NVME_FEAT_ARBITRATION | 4 << 8);
	KUNIT_EXPECT_EQ(test, vfn_admin_decode(&c), DNR(NVME_SC_INVALID_FIELD));
}

static void queue_checks(struct kunit *test)
{
	struct vfn_queue *sqs, *cqs;
	struct nvme_command c;

	sqs = kunit_kzalloc(test, sizeof(*sqs) * (VFN_MAX_IOQ + 1), GFP_KERNEL);
	cqs = kunit_kzalloc(test, sizeof(*cqs) * (VFN_MAX_IOQ + 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sqs);
	KUNIT_ASSERT_NOT_NULL(test, cqs);
	cqs[0].live = true;
	cqs[1].live = true;

	/* Create I/O CQ 2, 64 entries, contiguous, vector 2. */
	c = admin_cmd(nvme_admin_create_cq, 0, 2 | 63 << 16,
		      NVME_QUEUE_PHYS_CONTIG | NVME_CQ_IRQ_ENABLED | 2 << 16);
	c.common.dptr.prp1 = cpu_to_le64(0x10000);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs), 0);
	KUNIT_EXPECT_EQ(test, vfn_check_new_cq(&c, VFN_NR_VEC), 0);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 1, cqs),
			DNR(NVME_SC_QID_INVALID));
	c.common.cdw10 = cpu_to_le32(1 | 63 << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_QID_INVALID));
	c.common.cdw10 = cpu_to_le32(63 << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_QID_INVALID));
	c.common.cdw10 = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_QUEUE_SIZE));
	c.common.cdw10 = cpu_to_le32(2 | (VFN_MQES + 1) << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_QUEUE_SIZE));
	c.common.cdw10 = cpu_to_le32(2 | VFN_MQES << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs), 0);
	/* Regression: an unaligned base was Invalid Field. */
	c.common.dptr.prp1 = cpu_to_le64(0x10200);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	c.common.dptr.prp1 = cpu_to_le64(0x10004);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	c.common.dptr.prp1 = cpu_to_le64(0x10000);
	c.common.cdw11 = cpu_to_le32(NVME_CQ_IRQ_ENABLED);
	KUNIT_EXPECT_EQ(test, vfn_check_new_queue(&c, 4, cqs),
			DNR(NVME_SC_INVALID_FIELD));
	c.common.cdw11 = cpu_to_le32(NVME_QUEUE_PHYS_CONTIG |
				     NVME_CQ_IRQ_ENABLED | VFN_NR_VEC << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_cq(&c, VFN_NR_VEC),
			DNR(NVME_SC_INVALID_VECTOR));
	/* A vector is only checked when interrupts are on. */
	c.common.cdw11 = cpu_to_le32(NVME_QUEUE_PHYS_CONTIG | VFN_NR_VEC << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_cq(&c, VFN_NR_VEC), 0);

	/* Create I/O SQ: its CQ must exist. */
	c = admin_cmd(nvme_admin_create_sq, 0, 1 | 63 << 16,
		      NVME_QUEUE_PHYS_CONTIG | 1 << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_sq(&c, cqs), 0);
	c.common.cdw11 = cpu_to_le32(NVME_QUEUE_PHYS_CONTIG | 3 << 16);
	KUNIT_EXPECT_EQ(test, vfn_check_new_sq(&c, cqs),
			DNR(NVME_SC_CQ_INVALID));
	c.common.cdw11 = cpu_to_le32(NVME_QUEUE_PHYS_CONTIG);
	KUNIT_EXPECT_EQ(test, vfn_check_new_sq(&c, cqs),
			DNR(NVME_SC_CQ_INVALID));

	/* Delete: id 0, missing queues, a CQ still in use. */
	sqs[1].live = true;
	sqs[1].cqid = 1;
	c = admin_cmd(nvme_admin_delete_cq, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_delete(&c, sqs, cqs),
			DNR(NVME_SC_INVALID_QUEUE));
	c = admin_cmd(nvme_admin_delete_sq, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_delete(&c, sqs, cqs), 0);
	sqs[1].live = false;
	KUNIT_EXPECT_EQ(test, vfn_check_delete(&c, sqs, cqs),
			DNR(NVME_SC_QID_INVALID));
	c = admin_cmd(nvme_admin_delete_cq, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_delete(&c, sqs, cqs), 0);
	c = admin_cmd(nvme_admin_delete_cq, 0, 0, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_delete(&c, sqs, cqs),
			DNR(NVME_SC_QID_INVALID));
	c = admin_cmd(nvme_admin_delete_cq, 0, VFN_MAX_IOQ + 1, 0);
	KUNIT_EXPECT_EQ(test, vfn_check_delete(&c, sqs, cqs),
			DNR(NVME_SC_QID_INVALID));
}

/* ---- PRP walking over fake host memory ---- */

#define HOST_BASE	0ULL
#define HOST_PAGES	80
#define PG		VFN_HOST_PAGE
/* More probes than any walk may make: then the fake reports holes. */
#define PROBE_BUDGET	4096

/*
 * Host page frames 0..HOST_PAGES-1 exist, each plain RAM unless the test
 * marks it otherwise; nothing else exists. The fake only reports page
 * properties: whether the device may touch a page is decided by the
 * same vfn_host_page_ok() as in the kernel.
 */
struct fake_host {
	struct vfn_hostmem hm;
	u8 *mem;
	int hole;
	bool reserved[HOST_PAGES];
	bool not_ram[HOST_PAGES];
	u32 probes;
};

static void fake_probe(const struct vfn_hostmem *hm, u64 pfn,
		       struct vfn_page_info *pi)
{
	struct fake_host *h = container_of(hm, struct fake_host, hm);

	if (++h->probes > PROBE_BUDGET || pfn >= HOST_PAGES ||
	    (int)pfn == h->hole)
		return;
	pi->kva = h->mem + pfn * PG;
	pi->reserved = h->reserved[pfn];
	pi->ram = !h->not_ram[pfn];
}

static struct fake_host *fake_host(struct kunit *test)
{
	struct fake_host *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	h->mem = kunit_kzalloc(test, HOST_PAGES * PG, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, h->mem);
	h->hm.probe = fake_probe;
	h->hole = -1;
	return h;
}

static u64 page_addr(int i)
{
	return HOST_BASE + (u64)i * PG;
}

/* Write a PRP entry at host address @at. */
static void put_entry(struct fake_host *h, u64 at, u64 val)
{
	__le64 *e = (__le64 *)(h->mem + (at - HOST_BASE));

	*e = cpu_to_le64(val);
}

static struct vfn_buf *new_buf(struct kunit *test)
{
	struct vfn_buf *b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, b);
	return b;
}

static void expect_seg(struct kunit *test, struct fake_host *h,
		       const struct vfn_buf *b, u32 i, u64 addr, u32 len)
{
	KUNIT_ASSERT_LT(test, i, b->nr);
	KUNIT_EXPECT_PTR_EQ(test, b->seg[i].kva,
			    (void *)(h->mem + (addr - HOST_BASE)));
	KUNIT_EXPECT_EQ(test, b->seg[i].len, len);
}

static void prp_one_and_two_pages(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);

	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), 0, PG, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 1U);
	expect_seg(test, h, b, 0, page_addr(1), PG);

	/* An offset into PRP1 spills into PRP2's page. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1) + 0x200,
					   page_addr(7), PG, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 2U);
	expect_seg(test, h, b, 0, page_addr(1) + 0x200, PG - 0x200);
	expect_seg(test, h, b, 1, page_addr(7), 0x200);

	/* Short transfers stay in PRP1. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1) + 0x100,
					   0xdead, 512, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 1U);
	expect_seg(test, h, b, 0, page_addr(1) + 0x100, 512);

	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, 0, 0, 0, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 0U);
}

static void prp_list(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	u64 list = page_addr(2);

	/* Three pages: PRP2 is a list of two entries. */
	put_entry(h, list, page_addr(10));
	put_entry(h, list + 8, page_addr(11));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1) + 0x800, list,
					   2 * PG + 0x800, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 3U);
	expect_seg(test, h, b, 0, page_addr(1) + 0x800, 0x800);
	expect_seg(test, h, b, 1, page_addr(10), PG);
	expect_seg(test, h, b, 2, page_addr(11), PG);

	/* The last data page may be partial. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   2 * PG + 100, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 3U);
	expect_seg(test, h, b, 2, page_addr(11), 100);
}

static void prp_list_chains_when_full(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	/* A list in the last 256 bytes of a page holds 32 entries. */
	u64 list1 = page_addr(3) + PG - 256, list2 = page_addr(4) + 0x40;
	int i;

	for (i = 0; i < 32; i++)
		put_entry(h, list1 + 8 * i, page_addr(40 + i));
	/* Exactly 32 more pages: the list is full, no chaining. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list1,
					   33 * PG, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 33U);
	expect_seg(test, h, b, 32, page_addr(71), PG);

	/* 40 more pages: 31 entries, then the last slot chains to list2. */
	put_entry(h, list1 + 8 * 31, list2);
	for (i = 0; i < 9; i++)
		put_entry(h, list2 + 8 * i, page_addr(20 + i));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list1,
					   41 * PG, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 41U);
	expect_seg(test, h, b, 31, page_addr(70), PG);
	expect_seg(test, h, b, 32, page_addr(20), PG);
	expect_seg(test, h, b, 40, page_addr(28), PG);

	/* A chain that points back at itself ends with the length. */
	put_entry(h, list1 + 8 * 31, list1);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list1,
					   VFN_MAX_XFER_BYTES, true, b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, VFN_MAX_XFER_BYTES / PG);
}

static void prp_malformed(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	u64 list = page_addr(2);

	put_entry(h, list, page_addr(10));
	put_entry(h, list + 8, page_addr(11) + 0x10);	/* misaligned */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1) + 2, 0, 8, true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1),
					   page_addr(7) + 0x10, 2 * PG, true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list + 4,
					   3 * PG, true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   3 * PG, true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, b->nr, 0U);

	/* Pages the device may not touch: data, the list, and beyond. */
	put_entry(h, list + 8, page_addr(11));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   3 * PG, true, b), 0);
	h->hole = 11;
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   3 * PG, true, b), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, b->nr, 0U);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(11), 0, PG, true, b),
			NVME_SC_DATA_XFER_ERROR);
	h->hole = 2;
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   3 * PG, true, b), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(HOST_PAGES), 0,
					   PG, true, b), NVME_SC_DATA_XFER_ERROR);

	/* Longer than MDTS. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   VFN_MAX_XFER_BYTES + 1, true, b),
			DNR(NVME_SC_INVALID_FIELD));
}

static void prp_chain_pointer_misaligned(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	u64 list = page_addr(3) + PG - 64;	/* 8 entries */
	int i;

	for (i = 0; i < 7; i++)
		put_entry(h, list + 8 * i, page_addr(40 + i));
	put_entry(h, list + 8 * 7, page_addr(4) + 4);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list,
					   12 * PG, true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, b->nr, 0U);
}

/* The acceptance rule itself, property by property. */
static void host_page_rule(struct kunit *test)
{
	static u8 page[16];
	struct vfn_page_info ram = { .kva = page, .ram = true }, pi;

	KUNIT_EXPECT_TRUE(test, vfn_host_page_ok(5, &ram, true));
	KUNIT_EXPECT_TRUE(test, vfn_host_page_ok(5, &ram, false));
	/* Page frame 0: what zero PRPs (no buffer at all) point at. */
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(0, &ram, true));
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(0, &ram, false));
	pi = ram;
	pi.kva = NULL;		/* no online struct page */
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(5, &pi, false));
	pi = ram;
	pi.bar = true;
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(5, &pi, false));
	/* Reserved RAM (kernel text, the zero page): read, never written. */
	pi = ram;
	pi.reserved = true;
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(5, &pi, true));
	KUNIT_EXPECT_TRUE(test, vfn_host_page_ok(5, &pi, false));
	/* Reserved, not RAM (a hole, firmware): neither. */
	pi.ram = false;
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(5, &pi, true));
	KUNIT_EXPECT_FALSE(test, vfn_host_page_ok(5, &pi, false));
}

/*
 * Regression: the kernel's host memory accepted page frame 0, reserved
 * pages and holes while the old fake refused them; now both follow
 * vfn_host_page_ok(). The fake's page 0 is plain RAM here, so only the
 * page-0 rule refuses it.
 */
static void prp_refuses_what_the_kernel_refuses(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	u64 list = page_addr(2);

	/* A command without a buffer: PRP1 = PRP2 = 0, 4 KiB to the host. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, 0, 0, PG, true, b),
			NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, b->nr, 0U);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, 0, 0, PG, false, b),
			NVME_SC_DATA_XFER_ERROR);
	/* 8 KiB into one page: PRP2 = 0 is page 0 again. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), 0, 2 * PG,
					   true, b), NVME_SC_DATA_XFER_ERROR);
	/* 12 KiB: a list at page 0. */
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), 0, 3 * PG,
					   true, b), NVME_SC_DATA_XFER_ERROR);

	/* Reserved RAM: the device reads it but never writes it. */
	h->reserved[7] = true;
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(7), 0, PG, true,
					   b), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(7), 0, PG, false,
					   b), 0);
	KUNIT_EXPECT_EQ(test, b->nr, 1U);
	/* A list page is only read: reserved is fine there. */
	put_entry(h, list, page_addr(10));
	put_entry(h, list + 8, page_addr(11));
	h->reserved[2] = true;
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list, 3 * PG,
					   true, b), 0);
	/* A reserved data page in the list, written to: refused. */
	put_entry(h, list + 8, page_addr(7));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list, 3 * PG,
					   true, b), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list, 3 * PG,
					   false, b), 0);
	/* Not RAM: neither read nor written, list or data. */
	h->not_ram[7] = true;
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list, 3 * PG,
					   false, b), NVME_SC_DATA_XFER_ERROR);
	h->not_ram[2] = true;
	put_entry(h, list + 8, page_addr(11));
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list, 3 * PG,
					   false, b), NVME_SC_DATA_XFER_ERROR);
	KUNIT_EXPECT_EQ(test, b->nr, 0U);
}

/*
 * Regression: a list pointer at page offset 0xff8 has room for its chain
 * pointer only; pointing at itself, the walk made no progress and looped
 * forever. (The fake's probe budget ends the old loop, so this fails
 * instead of hanging.)
 */
static void prp_list_with_no_room_for_entries(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	u64 list = page_addr(3) + 0xff8;

	put_entry(h, list, list);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1), list, 3 * PG,
					   true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_EQ(test, b->nr, 0U);
	KUNIT_EXPECT_LT(test, h->probes, 8U);

	/*
	 * The same through a chain: a two-slot list whose last slot points
	 * there. (A chained list is only needed for two entries or more, so
	 * a list page at 0xff8 is always refused.)
	 */
	h->probes = 0;
	put_entry(h, page_addr(4) + PG - 16, page_addr(20));
	put_entry(h, page_addr(4) + PG - 8, list);
	KUNIT_EXPECT_EQ(test, vfn_prp_walk(&h->hm, page_addr(1),
					   page_addr(4) + PG - 16, 4 * PG,
					   true, b),
			DNR(NVME_SC_PRP_INVALID_OFFSET));
	KUNIT_EXPECT_LT(test, h->probes, 8U);
}

/* Get Log Page past the end of a log: the log, then zeros. */
static void buf_to_host_zero_fills(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	static const u8 src[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	memset(h->mem + 5 * PG, 0xaa, 2 * PG);
	KUNIT_ASSERT_EQ(test, vfn_prp_walk(&h->hm, page_addr(5) + PG - 4,
					   page_addr(6), 12, true, b), 0);
	vfn_buf_to_host(b, src, 6);
	KUNIT_EXPECT_EQ(test, memcmp(h->mem + 6 * PG - 4, src, 4), 0);
	KUNIT_EXPECT_EQ(test, memcmp(h->mem + 6 * PG, src + 4, 2), 0);
	KUNIT_EXPECT_EQ(test, h->mem[6 * PG + 2], 0);
	KUNIT_EXPECT_EQ(test, h->mem[6 * PG + 7], 0);
	KUNIT_EXPECT_EQ(test, h->mem[6 * PG + 8], 0xaa);
	KUNIT_EXPECT_EQ(test, h->mem[6 * PG - 5], 0xaa);
}

static void buf_copy_round_trip(struct kunit *test)
{
	struct fake_host *h = fake_host(test);
	struct vfn_buf *b = new_buf(test);
	u8 *src = kunit_kzalloc(test, 2 * PG, GFP_KERNEL);
	u8 *dst = kunit_kzalloc(test, 2 * PG, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	for (i = 0; i < 2 * PG; i++)
		src[i] = i * 7 + 3;
	KUNIT_ASSERT_EQ(test, vfn_prp_walk(&h->hm, page_addr(5) + 0x300,
					   page_addr(9), PG + 0x300, true, b), 0);
	vfn_buf_copy(b, src, true);
	KUNIT_EXPECT_EQ(test, memcmp(h->mem + 5 * PG + 0x300, src, PG - 0x300),
			0);
	KUNIT_EXPECT_EQ(test, memcmp(h->mem + 9 * PG, src + PG - 0x300,
				     0x600), 0);
	/* Nothing beyond the transfer was written. */
	KUNIT_EXPECT_EQ(test, h->mem[9 * PG + 0x600], 0);
	vfn_buf_copy(b, dst, false);
	KUNIT_EXPECT_EQ(test, memcmp(dst, src, PG + 0x300), 0);
}

/* ---- queue rings ---- */

static void sq_avail(struct kunit *test)
{
	struct vfn_queue sq = { .size = 8 };

	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 0), 0U);
	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 7), 7U);
	sq.head = 5;
	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 2), 5U);
	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 5), 0U);
	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 6), 1U);
	/* A doorbell beyond the queue is ignored. */
	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 8), 0U);
	KUNIT_EXPECT_EQ(test, vfn_sq_avail(&sq, 0xffffffff), 0U);
	KUNIT_EXPECT_EQ(test, vfn_ring_next(6, 8), 7U);
	KUNIT_EXPECT_EQ(test, vfn_ring_next(7, 8), 0U);
}

static void cq_post_phase_and_full(struct kunit *test)
{
	struct nvme_completion *e = kunit_kzalloc(test, 4 * sizeof(*e),
						  GFP_KERNEL);
	struct vfn_queue cq = { .kva = e, .size = 4, .phase = 1 };
	struct nvme_completion in = { };
	u16 i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	for (i = 0; i < 3; i++) {
		in.command_id = i;
		KUNIT_EXPECT_TRUE(test, vfn_cq_post(&cq, 0, &in, 0));
	}
	/* Three of four slots: full until the host moves its head. */
	in.command_id = 3;
	KUNIT_EXPECT_FALSE(test, vfn_cq_post(&cq, 0, &in, 0));
	KUNIT_EXPECT_FALSE(test, vfn_cq_post(&cq, 9, &in, 0));
	KUNIT_EXPECT_EQ(test, le16_to_cpu(e[0].status), 1);
	KUNIT_EXPECT_EQ(test, e[2].command_id, 2);
	in.result.u32 = cpu_to_le32(0xabcd);
	in.sq_head = cpu_to_le16(17);
	in.sq_id = cpu_to_le16(3);
	KUNIT_EXPECT_TRUE(test, vfn_cq_post(&cq, 2, &in,
					    DNR(NVME_SC_LBA_RANGE)));
	KUNIT_EXPECT_EQ(test, le16_to_cpu(e[3].status),
			DNR(NVME_SC_LBA_RANGE) << 1 | 1);
	KUNIT_EXPECT_EQ(test, le32_to_cpu(e[3].result.u32), 0xabcdU);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(e[3].sq_head), 17);
	KUNIT_EXPECT_EQ(test, le16_to_cpu(e[3].sq_id), 3);
	/* Wrapped: the next entry carries the inverted phase. */
	KUNIT_EXPECT_EQ(test, cq.tail, 0U);
	KUNIT_EXPECT_EQ(test, cq.phase, 0);
	in.command_id = 4;
	KUNIT_EXPECT_TRUE(test, vfn_cq_post(&cq, 2, &in, 0));
	KUNIT_EXPECT_EQ(test, le16_to_cpu(e[0].status), 0);
	KUNIT_EXPECT_EQ(test, e[0].command_id, 4);
	KUNIT_EXPECT_FALSE(test, vfn_cq_post(&cq, 2, &in, 0));
}

/*
 * Doorbell marks: each command gets the time of the first look that
 * found it, and of the look before; a full set of marks extends the
 * newest; commands taken before any mark have none.
 */
static void doorbell_marks(struct kunit *test)
{
	struct vfn_db_marks m = { };
	u64 seen, polled;
	u32 i;

	/* Taken before anything was noted: no time. */
	KUNIT_EXPECT_FALSE(test, vfn_db_take(&m, &seen, &polled));
	KUNIT_EXPECT_EQ(test, seen, 0ULL);
	m = (struct vfn_db_marks) { };
	/* Looks at 100 (nothing), 200 (2 new), 300 (the same 2, 1 more). */
	vfn_db_look(&m, 0, 100);
	vfn_db_look(&m, 2, 200);
	vfn_db_look(&m, 3, 300);
	KUNIT_EXPECT_EQ(test, (u32)m.nr, 2U);
	for (i = 0; i < 2; i++) {
		KUNIT_EXPECT_TRUE(test, vfn_db_take(&m, &seen, &polled));
		KUNIT_EXPECT_EQ(test, seen, 200ULL);
		KUNIT_EXPECT_EQ(test, polled, 100ULL);
	}
	/* One left of 3 seen at 300; a look at 400 finds it and 1 more. */
	vfn_db_look(&m, 2, 400);
	KUNIT_EXPECT_TRUE(test, vfn_db_take(&m, &seen, &polled));
	KUNIT_EXPECT_EQ(test, seen, 300ULL);
	KUNIT_EXPECT_EQ(test, polled, 200ULL);
	KUNIT_EXPECT_TRUE(test, vfn_db_take(&m, &seen, &polled));
	KUNIT_EXPECT_EQ(test, seen, 400ULL);
	KUNIT_EXPECT_EQ(test, polled, 300ULL);
	/* Nothing pending at 500, one more at 600: the gap since 500. */
	vfn_db_look(&m, 0, 500);
	vfn_db_look(&m, 1, 600);
	KUNIT_EXPECT_TRUE(test, vfn_db_take(&m, &seen, &polled));
	KUNIT_EXPECT_EQ(test, seen, 600ULL);
	KUNIT_EXPECT_EQ(test, polled, 500ULL);
	KUNIT_EXPECT_EQ(test, (u32)m.nr, 1U);
	/*
	 * VFN_DB_MARKS + 2 looks each finding one more: the last two
	 * extend the newest mark.
	 */
	m = (struct vfn_db_marks) { };
	for (i = 1; i <= VFN_DB_MARKS + 2; i++)
		vfn_db_look(&m, i, 1000 * i);
	KUNIT_EXPECT_EQ(test, (u32)m.nr, (u32)VFN_DB_MARKS);
	for (i = 1; i <= VFN_DB_MARKS + 2; i++) {
		KUNIT_EXPECT_TRUE(test, vfn_db_take(&m, &seen, &polled));
		KUNIT_EXPECT_EQ(test, seen, 1000ULL * min_t(u32, i, VFN_DB_MARKS));
	}
	/* The counts wrap: marks compare them modulo 2^32. */
	m = (struct vfn_db_marks) { .seq = U32_MAX - 1, .seen = U32_MAX - 1 };
	vfn_db_look(&m, 4, 5000);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_TRUE(test, vfn_db_take(&m, &seen, &polled));
		KUNIT_EXPECT_EQ(test, seen, 5000ULL);
		KUNIT_EXPECT_EQ(test, polled, 0ULL);
	}
	KUNIT_EXPECT_FALSE(test, vfn_db_take(&m, &seen, &polled));
}

/* A Copy of namespace 1: @nr ranges, descriptor format @fmt, to @sdlba. */
static struct nvme_command copy_cmd(u64 sdlba, u32 nr, u32 fmt)
{
	struct nvme_command c = { };

	c.common.opcode = VFN_CMD_COPY;
	c.common.nsid = cpu_to_le32(1);
	c.common.cdw10 = cpu_to_le32(lower_32_bits(sdlba));
	c.common.cdw11 = cpu_to_le32(upper_32_bits(sdlba));
	c.common.cdw12 = cpu_to_le32((nr - 1) | fmt << 8);
	return c;
}

/*
 * Verify and Write Uncorrectable decode as a range without data (no MDTS:
 * 65536 blocks pass); Copy: format 0 only (Invalid Field), at most MSRC +
 * 1 ranges (Command Size Limit Exceeded, 183h), SDLBA in the namespace,
 * FUA, the descriptor list's length. Before, all three were Invalid
 * Command Opcode.
 */
static void copy_verify_uncor_decode(struct kunit *test)
{
	static const struct vfn_ns big = {
		.nsze = 1 << 20, .id = 1, .lba_shift = 12,
	};
	struct nvme_command c = rw_cmd(nvme_cmd_verify, 10, 65536);
	struct vfn_io_req r;

	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &big, &r), 0);
	KUNIT_EXPECT_EQ(test, r.nlb, 65536ULL);
	KUNIT_EXPECT_EQ(test, r.lpn, 10ULL);
	c = rw_cmd(nvme_cmd_verify, 999, 2);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));
	c = rw_cmd(nvme_cmd_write_uncor, 0, 65536);
	KUNIT_EXPECT_EQ(test, vfn_io_decode(&c, &big, &r), 0);
	KUNIT_EXPECT_EQ(test, r.len_bytes, 65536ULL << 12);
	c = rw_cmd(nvme_cmd_write_uncor, 1000, 1);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));

	c = copy_cmd(5, 3, 0);
	c.common.cdw12 |= cpu_to_le32(BIT(30));
	KUNIT_ASSERT_EQ(test, vfn_io_decode(&c, &ns4k, &r), 0);
	KUNIT_EXPECT_EQ(test, r.slba, 5ULL);
	KUNIT_EXPECT_EQ(test, r.nr_ranges, 3U);
	KUNIT_EXPECT_EQ(test, r.xfer_bytes, 96U);
	KUNIT_EXPECT_TRUE(test, r.fua);
	c = copy_cmd(5, 1, 1);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_FIELD));
	c = copy_cmd(5, VFN_COPY_MSRC + 1, 0);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), 0);
	c.common.cdw12 = cpu_to_le32(VFN_COPY_MSRC + 1);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(VFN_SC_CMD_SIZE_LIMIT));
	c = copy_cmd(1000, 1, 0);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_LBA_RANGE));
	/* A placement directive without FDP, as for a Write. */
	c = copy_cmd(0, 1, 0);
	c.common.cdw12 |= cpu_to_le32(2 << 20);
	KUNIT_EXPECT_EQ(test, io(&c, &ns4k), DNR(NVME_SC_INVALID_FIELD));
}

static void set_range(struct vfn_copy_desc *d, u64 slba, u32 nlb)
{
	memset(d, 0, sizeof(*d));
	d->slba = cpu_to_le64(slba);
	d->nlb = cpu_to_le16(nlb - 1);
}

/*
 * The source ranges: each at most MSSRL blocks (1 MiB) and in the
 * namespace, their sum at most MCL (4 MiB) and the destination in the
 * namespace; the limits scale with the block size.
 */
static void copy_range_limits(struct kunit *test)
{
	static const struct vfn_ns big = {
		.nsze = 1 << 20, .id = 1, .lba_shift = 12,
	};
	static const struct vfn_ns big512 = {
		.nsze = 1 << 23, .id = 1, .lba_shift = 9,
	};
	struct vfn_copy_desc d[5];
	u64 total = 0;
	u32 i;

	KUNIT_EXPECT_EQ(test, vfn_copy_mssrl(&big), 256U);
	KUNIT_EXPECT_EQ(test, vfn_copy_mcl(&big), 1024U);
	KUNIT_EXPECT_EQ(test, vfn_copy_mssrl(&big512), 2048U);
	KUNIT_EXPECT_EQ(test, vfn_copy_mcl(&big512), 8192U);
	set_range(&d[0], 100, 256);
	set_range(&d[1], 0, 1);
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, 5000, d, 2, &total), 0);
	KUNIT_EXPECT_EQ(test, total, 257ULL);
	set_range(&d[1], 0, 257);
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, 5000, d, 2, &total),
			DNR(VFN_SC_CMD_SIZE_LIMIT));
	set_range(&d[1], (1 << 20) - 1, 2);
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, 5000, d, 2, &total),
			DNR(NVME_SC_LBA_RANGE));
	for (i = 0; i < 5; i++)
		set_range(&d[i], i * 1000, 256);
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, 0, d, 4, &total), 0);
	KUNIT_EXPECT_EQ(test, total, 1024ULL);
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, 0, d, 5, &total),
			DNR(VFN_SC_CMD_SIZE_LIMIT));
	/* The destination must hold the sum. */
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, (1 << 20) - 1023, d, 4,
					     &total), DNR(NVME_SC_LBA_RANGE));
	KUNIT_EXPECT_EQ(test, vfn_copy_check(&big, (1 << 20) - 1024, d, 4,
					     &total), 0);
}

/*
 * Write Uncorrectable's marks: exact counts across a chunk boundary,
 * marking twice counts once, a partial clear, a chunk freed with its
 * last mark, nothing left after exit.
 */
static void uncor_marks(struct kunit *test)
{
	const u64 chunk = VFN_UNCOR_CHUNK_BLOCKS;
	struct vfn_uncor u;

	vfn_uncor_init(&u);
	KUNIT_EXPECT_FALSE(test, vfn_uncor_any(&u, 0, 1 << 20));
	KUNIT_ASSERT_EQ(test, vfn_uncor_mark(&u, chunk - 10, 20), 0);
	KUNIT_EXPECT_EQ(test, u.nr, 20ULL);
	KUNIT_EXPECT_EQ(test, u.nr_chunks, 2ULL);
	KUNIT_ASSERT_EQ(test, vfn_uncor_mark(&u, chunk - 5, 10), 0);
	KUNIT_EXPECT_EQ(test, u.nr, 20ULL);
	KUNIT_EXPECT_TRUE(test, vfn_uncor_any(&u, chunk + 9, 1));
	KUNIT_EXPECT_FALSE(test, vfn_uncor_any(&u, chunk + 10, 100));
	KUNIT_EXPECT_FALSE(test, vfn_uncor_any(&u, 0, chunk - 10));
	KUNIT_EXPECT_TRUE(test, vfn_uncor_any(&u, 0, chunk - 9));
	/* The second chunk's ten marks go, and the chunk with them. */
	vfn_uncor_clear(&u, chunk, 100);
	KUNIT_EXPECT_EQ(test, u.nr, 10ULL);
	KUNIT_EXPECT_EQ(test, u.nr_chunks, 1ULL);
	vfn_uncor_clear(&u, chunk - 8, 2);
	KUNIT_EXPECT_EQ(test, u.nr, 8ULL);
	KUNIT_EXPECT_FALSE(test, vfn_uncor_any(&u, chunk - 8, 2));
	KUNIT_EXPECT_TRUE(test, vfn_uncor_any(&u, chunk - 10, 3));
	KUNIT_ASSERT_EQ(test, vfn_uncor_mark(&u, 5 * chunk, 3 * chunk), 0);
	KUNIT_EXPECT_EQ(test, u.nr, 8 + 3 * chunk);
	KUNIT_EXPECT_EQ(test, u.nr_chunks, 4ULL);
	vfn_uncor_exit(&u);
	KUNIT_EXPECT_EQ(test, u.nr, 0ULL);
	KUNIT_EXPECT_EQ(test, u.nr_chunks, 0ULL);
}

static struct kunit_case nvme_test_cases[] = {
	KUNIT_CASE(copy_verify_uncor_decode),
	KUNIT_CASE(copy_range_limits),
	KUNIT_CASE(uncor_marks),
	KUNIT_CASE(io_decode_fields),
	KUNIT_CASE(io_decode_statuses),
	KUNIT_CASE(zone_send_zrwa_decode),
	KUNIT_CASE(lba_range_pages),
	KUNIT_CASE(admin_decode_statuses),
	KUNIT_CASE(log_page_sizes_and_offsets),
	KUNIT_CASE(identify_nsid_rules),
	KUNIT_CASE(features_store_and_return),
	KUNIT_CASE(queue_checks),
	KUNIT_CASE(prp_one_and_two_pages),
	KUNIT_CASE(prp_list),
	KUNIT_CASE(prp_list_chains_when_full),
	KUNIT_CASE(prp_malformed),
	KUNIT_CASE(prp_chain_pointer_misaligned),
	KUNIT_CASE(host_page_rule),
	KUNIT_CASE(prp_refuses_what_the_kernel_refuses),
	KUNIT_CASE(prp_list_with_no_room_for_entries),
	KUNIT_CASE(buf_to_host_zero_fills),
	KUNIT_CASE(buf_copy_round_trip),
	KUNIT_CASE(sq_avail),
	KUNIT_CASE(doorbell_marks),
	KUNIT_CASE(cq_post_phase_and_full),
	{}
};

static struct kunit_suite nvme_test_suite = {
	.name = "vflash-nvme",
	.test_cases = nvme_test_cases,
};

kunit_test_suite(nvme_test_suite);
