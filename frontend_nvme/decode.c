// SPDX-License-Identifier: GPL-2.0
/*
 * Command decoding and validation: every check that needs only the
 * command and the controller's shape, with the NVMe status it fails with.
 * The executing code (admin.c, io.c) calls these before it touches host
 * memory or the backend.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "frontend_nvme/fdp.h"
#include "frontend_nvme/proto.h"
#include "frontend_nvme/zns.h"

/*
 * Identify (NVMe Base Specification 2.0c, 5.17; NVM Command Set 1.0c,
 * 4.1.5; Zoned Namespace Command Set 1.1, 4.1.5) with Namespace
 * Management: NSIDs 1 to NN are valid. What needs no namespace table is
 * checked here: the CNS, the CSI of the command-set CNS values (NVM or
 * Zoned; whether this controller has the Zoned set is admin.c's to say),
 * an NSID that is invalid for the CNS (Invalid Namespace or Format).
 * admin.c answers for the namespaces: an inactive or unallocated NSID
 * gets zeros where the specification says so, Invalid Field elsewhere.
 */
static u16 check_identify(const struct nvme_command *cmd)
{
	u32 nsid = le32_to_cpu(cmd->identify.nsid);
	bool nvm = cmd->identify.csi == NVME_CSI_NVM ||
		   cmd->identify.csi == NVME_CSI_ZNS;
	bool valid = vfn_nsid_valid(nsid);

	switch (vfn_cdw(cmd, 10) & 0xff) {
	case NVME_ID_CNS_NS:
		/* FFFFFFFFh: what every namespace has in common. */
		return valid || nsid == NVME_NSID_ALL ?
		       0 : VFN_SC(NVME_SC_INVALID_NS);
	case NVME_ID_CNS_NS_DESC_LIST:
	case NVME_ID_CNS_NS_PRESENT:
	case NVME_ID_CNS_NS_CS_INDEP:
		return valid ? 0 : VFN_SC(NVME_SC_INVALID_NS);
	case NVME_ID_CNS_CTRL:
	case NVME_ID_CNS_CTRL_LIST:
	case VFN_ID_CNS_IOCS:
		return 0;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
	case NVME_ID_CNS_NS_PRESENT_LIST:
		return nsid >= 0xfffffffe ? VFN_SC(NVME_SC_INVALID_NS) : 0;
	case VFN_ID_CNS_CS_NS_ACTIVE_LIST:
	case VFN_ID_CNS_CS_NS_ALLOC_LIST:
		if (!nvm)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		return nsid >= 0xfffffffe ? VFN_SC(NVME_SC_INVALID_NS) : 0;
	case NVME_ID_CNS_CS_NS:
		if (!nvm)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		return valid || nsid == NVME_NSID_ALL ?
		       0 : VFN_SC(NVME_SC_INVALID_NS);
	case VFN_ID_CNS_CS_NS_ALLOC:
		if (!nvm)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		return valid ? 0 : VFN_SC(NVME_SC_INVALID_NS);
	case NVME_ID_CNS_CS_CTRL:
		return nvm ? 0 : VFN_SC(NVME_SC_INVALID_FIELD);
	case NVME_ID_CNS_CTRL_NS_LIST:
		if (nsid == NVME_NSID_ALL)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		return valid ? 0 : VFN_SC(NVME_SC_INVALID_NS);
	default:
		return VFN_SC(NVME_SC_INVALID_FIELD);
	}
}

/* Namespace Management and Attachment: CDW10 bits 3:0, the operation. */
#define NS_SEL(cdw10)		((cdw10) & 0xf)
#define NS_SEL_CREATE		0	/* Attachment: attach */
#define NS_SEL_DELETE		1	/* Attachment: detach */

/*
 * Namespace Management and Attachment: the operation, and
 * the NSID where the command names one: a delete takes an allocated NSID
 * or FFFFFFFFh (every namespace), an attach or detach a valid NSID; a
 * create's NSID is reserved.
 */
static u16 check_ns_cmd(const struct nvme_command *cmd)
{
	u32 nsid = le32_to_cpu(cmd->common.nsid), sel = NS_SEL(vfn_cdw(cmd, 10));

	if (sel != NS_SEL_CREATE && sel != NS_SEL_DELETE)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (cmd->common.opcode == nvme_admin_ns_mgmt) {
		if (sel == NS_SEL_CREATE || nsid == NVME_NSID_ALL)
			return 0;
	}
	return vfn_nsid_valid(nsid) ? 0 : VFN_SC(NVME_SC_INVALID_NS);
}

#define FEAT_SEL(cdw10)		(((cdw10) >> 8) & 7)

static u16 check_features(const struct nvme_command *cmd)
{
	bool set = cmd->common.opcode == nvme_admin_set_features;
	u32 cdw10 = vfn_cdw(cmd, 10);

	if (set && (cdw10 & BIT(31)))
		return VFN_SC(NVME_SC_FEATURE_NOT_SAVEABLE);
	/* Get: current, default, saved (= default), supported capabilities. */
	if (!set && FEAT_SEL(cdw10) > 3)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	switch (cdw10 & 0xff) {
	case NVME_FEAT_NUM_QUEUES:
	case NVME_FEAT_VOLATILE_WC:
	case NVME_FEAT_ARBITRATION:
	case NVME_FEAT_POWER_MGMT:
	case NVME_FEAT_TEMP_THRESH:
	case NVME_FEAT_ERR_RECOVERY:
	case NVME_FEAT_IRQ_COALESCE:
	case NVME_FEAT_IRQ_CONFIG:
	case NVME_FEAT_WRITE_ATOMIC:
	case NVME_FEAT_ASYNC_EVENT:
	case VFN_FEAT_IOCS_PROFILE:
	case VFN_FEAT_FDP:
	case VFN_FEAT_FDP_EVENTS:
		return 0;
	default:
		return VFN_SC(NVME_SC_INVALID_FIELD);
	}
}

/**
 * vfn_features_default() - the features' values after a controller reset
 * @f: the features
 */
void vfn_features_default(struct vfn_features *f)
{
	memset(f, 0, sizeof(*f));
	f->temp_over = VFN_WCTEMP_K;
	/* Identify reports a volatile write cache: it starts enabled. */
	f->wce = true;
}

#define TEMP_SEL(cdw11)		(((cdw11) >> 16) & 0xf)
#define TEMP_THSEL(cdw11)	(((cdw11) >> 20) & 3)
#define ERR_DULBE		BIT(16)
#define IRQ_CD			BIT(16)

/* Temperature threshold: only the composite temperature (TMPSEL 0). */
static u16 check_temp(u32 cdw11)
{
	if (TEMP_SEL(cdw11) || TEMP_THSEL(cdw11) > 1)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	return 0;
}

/**
 * vfn_feature_set() - Set Features: check and store one feature's value
 * @f: the features
 * @fid: a feature id vfn_admin_decode() accepted, not Number of Queues
 * @cdw11: the value
 *
 * Return: 0, or Invalid Field for a value the controller cannot take (a
 * power state above NPSS = 0, a temperature sensor other than the
 * composite, DULBE, an interrupt vector it does not have); then nothing
 * changes.
 */
u16 vfn_feature_set(struct vfn_features *f, u8 fid, u32 cdw11)
{
	u16 sc;

	switch (fid) {
	case NVME_FEAT_ARBITRATION:
		f->arbitration = cdw11 & 0xffffff07;
		return 0;
	case NVME_FEAT_POWER_MGMT:
		if (cdw11 & 0x1f)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		f->power_mgmt = cdw11 & 0xe0;
		return 0;
	case NVME_FEAT_TEMP_THRESH:
		sc = check_temp(cdw11);
		if (sc)
			return sc;
		if (TEMP_THSEL(cdw11))
			f->temp_under = cdw11 & 0xffff;
		else
			f->temp_over = cdw11 & 0xffff;
		return 0;
	case NVME_FEAT_ERR_RECOVERY:
		if (cdw11 & ERR_DULBE)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		f->err_recovery = cdw11 & 0xffff;
		return 0;
	case NVME_FEAT_VOLATILE_WC:
		f->wce = cdw11 & 1;
		return 0;
	case NVME_FEAT_IRQ_COALESCE:
		f->irq_coalesce = cdw11 & 0xffff;
		return 0;
	case NVME_FEAT_IRQ_CONFIG:
		if ((cdw11 & 0xffff) >= VFN_NR_VEC)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		if (cdw11 & IRQ_CD)
			__set_bit(cdw11 & 0xffff, f->irq_cd);
		else
			__clear_bit(cdw11 & 0xffff, f->irq_cd);
		return 0;
	case NVME_FEAT_WRITE_ATOMIC:
		f->write_atomic = cdw11 & 1;
		return 0;
	case NVME_FEAT_ASYNC_EVENT:
		/*
		 * SMART warnings, Namespace Attribute and Zone Descriptor
		 * Changed Notices.
		 */
		f->async_event = cdw11 & (0xff | NVME_AEN_CFG_NS_ATTR | BIT(27));
		return 0;
	case VFN_FEAT_IOCS_PROFILE:
		/* One combination of command sets (CNS 1Ch): index 0. */
		if (cdw11 & 0x1ff)
			return VFN_SC(VFN_SC_IOCS_COMBINATION_REJECTED);
		return 0;
	default:
		return VFN_SC(NVME_SC_INVALID_FIELD);
	}
}

/**
 * vfn_feature_get() - Get Features: one feature's value
 * @f: the features (current, or a default set for SEL 1 and 2)
 * @fid: a feature id vfn_admin_decode() accepted, not Number of Queues
 * @cdw11: which instance, for the temperature threshold (TMPSEL, THSEL)
 *	and interrupt vector configuration (IV)
 * @result: completion dword 0, in the layout Set Features takes
 *
 * Return: 0, or Invalid Field for an instance the controller does not
 * have.
 */
u16 vfn_feature_get(const struct vfn_features *f, u8 fid, u32 cdw11,
		    u32 *result)
{
	u32 iv = cdw11 & 0xffff;
	u16 sc;

	switch (fid) {
	case NVME_FEAT_ARBITRATION:
		*result = f->arbitration;
		return 0;
	case NVME_FEAT_POWER_MGMT:
		*result = f->power_mgmt;
		return 0;
	case NVME_FEAT_TEMP_THRESH:
		sc = check_temp(cdw11);
		if (sc)
			return sc;
		*result = TEMP_THSEL(cdw11) ? f->temp_under : f->temp_over;
		*result |= cdw11 & 0x3f0000;
		return 0;
	case NVME_FEAT_ERR_RECOVERY:
		*result = f->err_recovery;
		return 0;
	case NVME_FEAT_VOLATILE_WC:
		*result = f->wce;
		return 0;
	case NVME_FEAT_IRQ_COALESCE:
		*result = f->irq_coalesce;
		return 0;
	case NVME_FEAT_IRQ_CONFIG:
		if (iv >= VFN_NR_VEC)
			return VFN_SC(NVME_SC_INVALID_FIELD);
		*result = iv | (test_bit(iv, f->irq_cd) ? IRQ_CD : 0);
		return 0;
	case NVME_FEAT_WRITE_ATOMIC:
		*result = f->write_atomic;
		return 0;
	case NVME_FEAT_ASYNC_EVENT:
		*result = f->async_event;
		return 0;
	case VFN_FEAT_IOCS_PROFILE:
		*result = 0;
		return 0;
	default:
		return VFN_SC(NVME_SC_INVALID_FIELD);
	}
}

/**
 * vfn_log_bytes() - the size of a log page vflash returns
 * @lid: log identifier
 *
 * Return: its size in bytes (the error log holds ELPE + 1 = 1 entry), or
 * 0 for a log page vflash does not have. The Changed Zone List exists
 * only on a zoned namespace, which the caller checks.
 */
u32 vfn_log_bytes(u8 lid)
{
	switch (lid) {
	case VFN_LOG_SUPPORTED:
		return VFN_SUPPORTED_LOG_BYTES;
	case NVME_LOG_ERROR:
		return VFN_ERR_LOG_BYTES;
	case NVME_LOG_SMART:
		return VFN_SMART_LOG_BYTES;
	case NVME_LOG_FW_SLOT:
		return VFN_FW_LOG_BYTES;
	case NVME_LOG_CMD_EFFECTS:
		return VFN_EFFECTS_LOG_BYTES;
	case NVME_LOG_CHANGED_NS:
		return VFN_NS_LIST_BYTES;
	case VFN_LOG_CHANGED_ZONES:
		return VFN_ZONE_LOG_BYTES;
	case VFN_LOG_FDP_CONFIGS:
	case VFN_LOG_FDP_USAGE:
	case VFN_LOG_FDP_STATS:
	case VFN_LOG_FDP_EVENTS:
		return VFN_FDP_LOG_BYTES;
	default:
		return 0;
	}
}

/* Get Log Page CDW14 bit 23: Offset Type (index), needs LID support. */
#define LOG_OT		BIT(23)

/**
 * vfn_check_log() - validate Get Log Page's page, offset and length
 * @cmd: the command
 * @off: byte offset into the page (LPOU:LPOL)
 * @len: bytes to transfer ((NUMDU:NUMDL + 1) dwords)
 *
 * Identify reports LPA bit 2 (extended data: NUMDU and the offset). A
 * transfer that runs past the end of the log gets zeros there; an offset
 * beyond the end, not dword-aligned or of the index type, or a transfer
 * longer than MDTS, is refused.
 *
 * Return: 0, Invalid Log Page for a page we do not have, or Invalid
 * Field.
 */
u16 vfn_check_log(const struct nvme_command *cmd, u32 *off, u32 *len)
{
	u32 numd = (vfn_cdw(cmd, 10) >> 16 | (vfn_cdw(cmd, 11) & 0xffff) << 16);
	u64 lpo = vfn_cdw(cmd, 12) | (u64)vfn_cdw(cmd, 13) << 32;
	u64 bytes = ((u64)numd + 1) * 4;
	u32 size = vfn_log_bytes(vfn_cdw(cmd, 10) & 0xff);

	if (!size)
		return VFN_SC(NVME_SC_INVALID_LOG_PAGE);
	if (lpo > size || lpo & 3 || vfn_cdw(cmd, 14) & LOG_OT ||
	    bytes > VFN_MAX_XFER_BYTES)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	*off = lpo;
	*len = bytes;
	return 0;
}

/**
 * vfn_admin_decode() - validate what an admin command says by itself
 * @cmd: the command, copied out of the admin SQ
 *
 * Return: 0, Invalid Field for fused operations or SGLs, Invalid Command
 * Opcode for an opcode we do not implement, or the status of the
 * command-specific checks that need no controller state (Identify CNS and
 * NSID, feature id and saveability, log page and range, the operation
 * and NSID of Namespace Management and Attachment).
 */
u16 vfn_admin_decode(const struct nvme_command *cmd)
{
	u32 off, len;

	if (cmd->common.flags & VFN_FLAGS_UNSUPPORTED)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	switch (cmd->common.opcode) {
	case nvme_admin_identify:
		return check_identify(cmd);
	case nvme_admin_set_features:
	case nvme_admin_get_features:
		return check_features(cmd);
	case nvme_admin_get_log_page:
		return vfn_check_log(cmd, &off, &len);
	case nvme_admin_ns_mgmt:
	case nvme_admin_ns_attach:
		return check_ns_cmd(cmd);
	case nvme_admin_create_cq:
	case nvme_admin_create_sq:
	case nvme_admin_delete_cq:
	case nvme_admin_delete_sq:
	case nvme_admin_abort_cmd:
	case nvme_admin_keep_alive:
	case nvme_admin_async_event:
		return 0;
	default:
		return VFN_SC(NVME_SC_INVALID_OPCODE);
	}
}

/**
 * vfn_decode_nr_queues() - Set Features Number of Queues, CDW11
 * @cdw11: NSQR in bits 15:0, NCQR in 31:16, both 0's based
 * @want: the larger of the two, 1-based
 *
 * Return: 0, or Invalid Field for 65535 in either (the spec's limit).
 */
u16 vfn_decode_nr_queues(u32 cdw11, u32 *want)
{
	if ((cdw11 & 0xffff) == 0xffff || (cdw11 >> 16) == 0xffff)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	*want = max(cdw11 & 0xffff, cdw11 >> 16) + 1;
	return 0;
}

/**
 * vfn_check_new_queue() - the checks Create I/O SQ and CQ share
 * @cmd: the command
 * @nr_ioq: I/O queues granted by Set Features Number of Queues
 * @queues: the existing queues of that type, indexed by id
 *
 * Return: 0; Invalid Queue Identifier for id 0, an id above @nr_ioq or an
 * existing queue; Invalid Queue Size outside 2..MQES+1; Invalid Field for
 * a queue that is not physically contiguous (CAP.CQR); PRP Offset Invalid
 * for a base address that is not page-aligned.
 */
u16 vfn_check_new_queue(const struct nvme_command *cmd, u32 nr_ioq,
			const struct vfn_queue *queues)
{
	u32 qid = vfn_cdw(cmd, 10) & 0xffff, size = (vfn_cdw(cmd, 10) >> 16) + 1;

	if (!qid || qid > nr_ioq || qid > VFN_MAX_IOQ || queues[qid].live)
		return VFN_SC(NVME_SC_QID_INVALID);
	if (size < 2 || size > VFN_MQES + 1)
		return VFN_SC(NVME_SC_QUEUE_SIZE);
	if (!(vfn_cdw(cmd, 11) & NVME_QUEUE_PHYS_CONTIG))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (le64_to_cpu(cmd->common.dptr.prp1) & (VFN_HOST_PAGE - 1))
		return VFN_SC(NVME_SC_PRP_INVALID_OFFSET);
	return 0;
}

/**
 * vfn_check_new_cq() - Create I/O CQ's own check
 * @cmd: the command
 * @nr_vec: interrupt vectors the controller has
 *
 * Return: 0, or Invalid Interrupt Vector for an enabled vector beyond
 * @nr_vec.
 */
u16 vfn_check_new_cq(const struct nvme_command *cmd, u32 nr_vec)
{
	u32 flags = vfn_cdw(cmd, 11);

	if ((flags & NVME_CQ_IRQ_ENABLED) && (flags >> 16) >= nr_vec)
		return VFN_SC(NVME_SC_INVALID_VECTOR);
	return 0;
}

/**
 * vfn_check_new_sq() - Create I/O SQ's own check
 * @cmd: the command
 * @cqs: the completion queues, indexed by id
 *
 * Return: 0, or Completion Queue Invalid for a CQ that does not exist.
 */
u16 vfn_check_new_sq(const struct nvme_command *cmd,
		     const struct vfn_queue *cqs)
{
	u32 cqid = vfn_cdw(cmd, 11) >> 16;

	if (!cqid || cqid > VFN_MAX_IOQ || !cqs[cqid].live)
		return VFN_SC(NVME_SC_CQ_INVALID);
	return 0;
}

/**
 * vfn_check_delete() - validate Delete I/O SQ or CQ
 * @cmd: the command
 * @sqs: the submission queues, indexed by id
 * @cqs: the completion queues, indexed by id
 *
 * Return: 0; Invalid Queue Identifier for id 0 or a queue that does not
 * exist; Invalid Queue Deletion for a CQ that an SQ still uses.
 */
u16 vfn_check_delete(const struct nvme_command *cmd,
		     const struct vfn_queue *sqs, const struct vfn_queue *cqs)
{
	bool cq = cmd->common.opcode == nvme_admin_delete_cq;
	u32 qid = vfn_cdw(cmd, 10) & 0xffff, q;

	if (!qid || qid > VFN_MAX_IOQ || !(cq ? cqs : sqs)[qid].live)
		return VFN_SC(NVME_SC_QID_INVALID);
	if (cq)
		for (q = 1; q <= VFN_MAX_IOQ; q++)
			if (sqs[q].live && sqs[q].cqid == qid)
				return VFN_SC(NVME_SC_INVALID_QUEUE);
	return 0;
}
