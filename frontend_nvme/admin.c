// SPDX-License-Identifier: GPL-2.0
/*
 * Admin commands: Identify, features, log pages, queue management, Abort,
 * Asynchronous Event Request. Completed at once by the dispatcher.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define SC(x)		((x) | NVME_STATUS_DNR)

static u32 dw(const struct nvme_command *cmd, int n)
{
	const __le32 *w = &cmd->common.cdw10;

	return le32_to_cpu(w[n - 10]);
}

static u64 prp1(const struct nvme_command *cmd)
{
	return le64_to_cpu(cmd->common.dptr.prp1);
}

static u64 prp2(const struct nvme_command *cmd)
{
	return le64_to_cpu(cmd->common.dptr.prp2);
}

/* Copy @len bytes of c->ident to the command's buffer. */
static u16 to_host(struct vfn_ctrl *c, const struct nvme_command *cmd,
		   u32 off, u32 len)
{
	u16 sc = vfn_prp_map(c, prp1(cmd), prp2(cmd), len);

	if (!sc)
		vfn_segs_copy(c, c->ident + off, true);
	return sc;
}

static void pad_copy(char *dst, size_t size, const char *src)
{
	size_t n = min(strlen(src), size);

	memset(dst, ' ', size);
	memcpy(dst, src, n);
}

static void identify_ctrl(struct vfn_ctrl *c)
{
	struct nvme_id_ctrl *id = c->ident;
	struct vflash_dev *vdev = c->vdev;
	char buf[64];

	BUILD_BUG_ON(sizeof(*id) != 4096);
	id->vid = cpu_to_le16(VFN_VENDOR_ID);
	id->ssvid = cpu_to_le16(VFN_VENDOR_ID);
	snprintf(buf, sizeof(buf), "VFLASH%04d", c->ctrl_id);
	pad_copy(id->sn, sizeof(id->sn), buf);
	snprintf(buf, sizeof(buf), "vflash %s", vdev->cfg.profile->name);
	pad_copy(id->mn, sizeof(id->mn), buf);
	pad_copy(id->fr, sizeof(id->fr), "1.0");
	id->mdts = VFN_MDTS;
	id->cntlid = cpu_to_le16(1);
	id->ver = cpu_to_le32(0x00010400);
	id->cntrltype = 1;
	id->acl = 3;
	id->aerl = 3;
	id->frmw = 0x03;
	id->avscc = 1;
	id->wctemp = cpu_to_le16(0x157);
	id->cctemp = cpu_to_le16(0x175);
	put_unaligned_le64(vdev->cfg.size_bytes, id->tnvmcap);
	id->sqes = 0x66;
	id->cqes = 0x44;
	id->nn = cpu_to_le32(1);
	id->oncs = cpu_to_le16(NVME_CTRL_ONCS_COMPARE | NVME_CTRL_ONCS_DSM |
			       NVME_CTRL_ONCS_WRITE_ZEROES);
	id->vwc = NVME_CTRL_VWC_PRESENT;
	snprintf(id->subnqn, sizeof(id->subnqn),
		 "nqn.2026-11.io.vflash:%s", dev_name(&vdev->dev));
}

/* A namespace GUID unique per device. */
static void ns_guid(struct vfn_ctrl *c, u8 *out)
{
	memcpy(out, "vflash-nguid", 12);
	put_unaligned_be32(c->ctrl_id, out + 12);
}

static void identify_ns(struct vfn_ctrl *c)
{
	struct nvme_id_ns *id = c->ident;
	u64 lbas = vflash_flash_nr_lpages(c->vdev->flash);

	BUILD_BUG_ON(sizeof(*id) != 4096);
	id->nsze = cpu_to_le64(lbas);
	id->ncap = cpu_to_le64(lbas);
	id->nuse = cpu_to_le64(lbas);
	id->lbaf[0].ds = VFLASH_LPAGE_SHIFT;
	ns_guid(c, id->nguid);
}

static u16 identify(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 nsid = le32_to_cpu(cmd->identify.nsid);
	u8 cns = dw(cmd, 10) & 0xff;
	u8 *p = c->ident;

	memset(c->ident, 0, 4096);
	switch (cns) {
	case NVME_ID_CNS_NS:
		if (nsid == 1)
			identify_ns(c);
		else if (nsid != NVME_NSID_ALL)
			return SC(NVME_SC_INVALID_NS);
		break;
	case NVME_ID_CNS_CTRL:
		identify_ctrl(c);
		break;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
		if (nsid >= 0xfffffffe)
			return SC(NVME_SC_INVALID_FIELD);
		if (nsid < 1)
			put_unaligned_le32(1, p);
		break;
	case NVME_ID_CNS_NS_DESC_LIST:
		if (nsid != 1)
			return SC(NVME_SC_INVALID_NS);
		/* One descriptor, then a zero NIDT ends the list. */
		p[0] = NVME_NIDT_NGUID;
		p[1] = NVME_NIDT_NGUID_LEN;
		ns_guid(c, p + 4);
		break;
	case NVME_ID_CNS_CS_NS:
	case NVME_ID_CNS_CS_CTRL:
		if (cmd->identify.csi != NVME_CSI_NVM)
			return SC(NVME_SC_INVALID_FIELD);
		break;
	default:
		return SC(NVME_SC_INVALID_FIELD);
	}
	return to_host(c, cmd, 0, 4096);
}

static u16 features(struct vfn_ctrl *c, const struct nvme_command *cmd,
		    bool set, u32 *result)
{
	u32 fid = dw(cmd, 10) & 0xff;
	u32 arg = dw(cmd, 11);

	if (set && (dw(cmd, 10) & BIT(31)))
		return SC(NVME_SC_FEATURE_NOT_SAVEABLE);
	switch (fid) {
	case NVME_FEAT_NUM_QUEUES:
		if (set) {
			u32 want = max(arg & 0xffff, arg >> 16) + 1;
			u32 q;

			if ((arg & 0xffff) == 0xffff || (arg >> 16) == 0xffff)
				return SC(NVME_SC_INVALID_FIELD);
			for (q = 1; q <= VFN_MAX_IOQ; q++)
				if (c->sq[q].live || c->cq[q].live)
					return SC(NVME_SC_CMD_SEQ_ERROR);
			c->granted_ioq = min_t(u32, want, VFN_MAX_IOQ);
		}
		*result = (c->granted_ioq ? c->granted_ioq - 1 : 0) * 0x10001;
		return 0;
	case NVME_FEAT_VOLATILE_WC:
		if (set)
			c->wce = arg & 1;
		*result = c->wce;
		return 0;
	case NVME_FEAT_ARBITRATION:
	case NVME_FEAT_POWER_MGMT:
	case NVME_FEAT_TEMP_THRESH:
	case NVME_FEAT_ERR_RECOVERY:
	case NVME_FEAT_IRQ_COALESCE:
	case NVME_FEAT_IRQ_CONFIG:
	case NVME_FEAT_WRITE_ATOMIC:
	case NVME_FEAT_ASYNC_EVENT:
		*result = 0;
		return 0;
	default:
		return SC(NVME_SC_INVALID_FIELD);
	}
}

static void smart_log(struct vfn_ctrl *c)
{
	struct nvme_smart_log *log = c->ident;
	struct vflash_flash *f = c->vdev->flash;
	u64 rd = vflash_flash_stat(f, VFLASH_STAT_HOST_READ_PAGES);
	u64 wr = vflash_flash_stat(f, VFLASH_STAT_HOST_WRITE_PAGES);

	/* 323 K; spare from the free blocks is not modelled yet: 100%. */
	log->temperature[0] = 0x43;
	log->temperature[1] = 0x01;
	log->avail_spare = 100;
	log->spare_thresh = 10;
	/* Data units are thousands of 512-byte units: 4 KiB = 8 of them. */
	put_unaligned_le64(DIV_ROUND_UP_ULL(rd * 8, 1000), log->data_units_read);
	put_unaligned_le64(DIV_ROUND_UP_ULL(wr * 8, 1000),
			   log->data_units_written);
	put_unaligned_le64(c->host_read_cmds, log->host_reads);
	put_unaligned_le64(c->host_write_cmds, log->host_writes);
}

static u16 get_log(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 lid = dw(cmd, 10) & 0xff;
	u32 numd = (dw(cmd, 10) >> 16 | (dw(cmd, 11) & 0xffff) << 16) + 1;
	u64 off = dw(cmd, 12) | (u64)dw(cmd, 13) << 32;
	u64 len = (u64)numd * 4;

	memset(c->ident, 0, 4096);
	switch (lid) {
	case NVME_LOG_ERROR:
		break;
	case NVME_LOG_SMART:
		smart_log(c);
		break;
	case NVME_LOG_FW_SLOT:
		((u8 *)c->ident)[0] = 1;
		pad_copy(c->ident + 8, 8, "1.0");
		break;
	default:
		return SC(NVME_SC_INVALID_LOG_PAGE);
	}
	if (off >= 4096 || off & 3 || len > 4096 - off)
		return SC(NVME_SC_INVALID_FIELD);
	return to_host(c, cmd, off, len);
}

/* The checks Create I/O SQ and CQ share: queue id, size, contiguity. */
static u16 check_new_queue(struct vfn_ctrl *c, const struct nvme_command *cmd,
			   struct vfn_queue *queues)
{
	u32 qid = dw(cmd, 10) & 0xffff, size = (dw(cmd, 10) >> 16) + 1;

	if (!qid || qid > c->granted_ioq || queues[qid].live)
		return SC(NVME_SC_QID_INVALID);
	if (size < 2 || size > VFN_MQES + 1)
		return SC(NVME_SC_QUEUE_SIZE);
	if (!(dw(cmd, 11) & NVME_QUEUE_PHYS_CONTIG))
		return SC(NVME_SC_INVALID_FIELD);
	return 0;
}

/* The queue's memory: page-aligned, contiguous, plain RAM. */
static void *queue_kva(struct vfn_ctrl *c, const struct nvme_command *cmd,
		       u32 entry_size)
{
	u32 size = (dw(cmd, 10) >> 16) + 1;

	if (prp1(cmd) & (PAGE_SIZE - 1))
		return NULL;
	return vfn_host_kva(c, prp1(cmd), size * entry_size);
}

static u16 create_cq(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 qid = dw(cmd, 10) & 0xffff, size = (dw(cmd, 10) >> 16) + 1;
	u32 flags = dw(cmd, 11), iv = flags >> 16;
	struct vfn_queue *q;
	void *kva;
	u16 sc = check_new_queue(c, cmd, c->cq);

	if (sc)
		return sc;
	if ((flags & NVME_CQ_IRQ_ENABLED) && iv >= VFN_NR_VEC)
		return SC(NVME_SC_INVALID_VECTOR);
	kva = queue_kva(c, cmd, sizeof(struct nvme_completion));
	if (!kva)
		return SC(NVME_SC_INVALID_FIELD);
	q = &c->cq[qid];
	*q = (struct vfn_queue) {
		.kva = kva, .size = size, .phase = 1, .vector = iv,
		.irq_enabled = flags & NVME_CQ_IRQ_ENABLED, .live = true,
	};
	vfn_set_reg32(c, VFN_DB_OFF + (2 * qid + 1) * 4, 0);
	return 0;
}

static u16 create_sq(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 qid = dw(cmd, 10) & 0xffff, size = (dw(cmd, 10) >> 16) + 1;
	u32 cqid = dw(cmd, 11) >> 16;
	void *kva;
	u16 sc = check_new_queue(c, cmd, c->sq);

	if (sc)
		return sc;
	if (!cqid || cqid > VFN_MAX_IOQ || !c->cq[cqid].live)
		return SC(NVME_SC_CQ_INVALID);
	kva = queue_kva(c, cmd, sizeof(struct nvme_command));
	if (!kva)
		return SC(NVME_SC_INVALID_FIELD);
	c->sq[qid] = (struct vfn_queue) {
		.kva = kva, .size = size, .cqid = cqid, .live = true,
	};
	vfn_set_reg32(c, VFN_DB_OFF + 2 * qid * 4, 0);
	return 0;
}

static u16 delete_queue(struct vfn_ctrl *c, const struct nvme_command *cmd,
			bool cq)
{
	u32 qid = dw(cmd, 10) & 0xffff, q;

	if (!qid || qid > VFN_MAX_IOQ ||
	    !(cq ? c->cq[qid].live : c->sq[qid].live))
		return SC(NVME_SC_QID_INVALID);
	if (cq) {
		for (q = 1; q <= VFN_MAX_IOQ; q++)
			if (c->sq[q].live && c->sq[q].cqid == qid)
				return SC(NVME_SC_INVALID_QUEUE);
		c->cq[qid].live = false;
	} else {
		c->sq[qid].live = false;
	}
	return 0;
}

/**
 * vfn_admin() - execute one admin command
 * @c: the controller
 * @cmd: the command, copied out of the admin SQ
 * @out: its completion; status in cqe.status (host order, no phase), or
 *	due_ns = U64_MAX for a command that stays outstanding (AER)
 */
void vfn_admin(struct vfn_ctrl *c, const struct nvme_command *cmd,
	       struct vfn_cmd *out)
{
	u32 result = 0;
	u16 sc;

	if (cmd->common.flags & (NVME_CMD_FUSE_FIRST | NVME_CMD_FUSE_SECOND |
				 NVME_CMD_SGL_ALL)) {
		sc = SC(NVME_SC_INVALID_FIELD);
		goto out;
	}
	switch (cmd->common.opcode) {
	case nvme_admin_identify:
		sc = identify(c, cmd);
		break;
	case nvme_admin_set_features:
	case nvme_admin_get_features:
		sc = features(c, cmd, cmd->common.opcode ==
			      nvme_admin_set_features, &result);
		break;
	case nvme_admin_get_log_page:
		sc = get_log(c, cmd);
		break;
	case nvme_admin_create_cq:
		sc = create_cq(c, cmd);
		break;
	case nvme_admin_create_sq:
		sc = create_sq(c, cmd);
		break;
	case nvme_admin_delete_cq:
		sc = delete_queue(c, cmd, true);
		break;
	case nvme_admin_delete_sq:
		sc = delete_queue(c, cmd, false);
		break;
	case nvme_admin_abort_cmd:
		result = 1;	/* not aborted: every command completes */
		sc = 0;
		break;
	case nvme_admin_keep_alive:
		sc = 0;
		break;
	case nvme_admin_async_event:
		if (c->nr_aer > 3) {
			sc = SC(NVME_SC_ASYNC_LIMIT);
			break;
		}
		c->nr_aer++;
		out->due_ns = U64_MAX;	/* no events to report: held */
		return;
	default:
		sc = SC(NVME_SC_INVALID_OPCODE);
		break;
	}
out:
	out->cqe.result.u32 = cpu_to_le32(result);
	out->sc = sc;
}
