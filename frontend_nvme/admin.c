// SPDX-License-Identifier: GPL-2.0
/*
 * Admin commands: Identify, features, log pages, queue management, Abort,
 * Asynchronous Event Request. Completed at once by the dispatcher.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define SC(x)		VFN_SC(x)
#define SPARE_THRESH_PCT	10
#define NS_PER_HOUR		(3600ULL * NSEC_PER_SEC)

/*
 * Transfer @len bytes to the command's buffer: @avail bytes of c->ident
 * from @off, then zeros.
 */
static u16 to_host(struct vfn_ctrl *c, const struct nvme_command *cmd,
		   u32 off, u32 avail, u32 len)
{
	u16 sc = vfn_map_data(c, cmd, len);

	if (!sc)
		vfn_buf_to_host(&c->buf, c->ident + off, avail);
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
	id->aerl = VFN_AERL;
	id->frmw = 0x03;
	/* Get Log Page takes NUMDU and an offset (extended data). */
	id->lpa = 0x04;
	id->avscc = 1;
	id->wctemp = cpu_to_le16(0x157);
	id->cctemp = cpu_to_le16(0x175);
	put_unaligned_le64(vdev->cfg.size_bytes, id->tnvmcap);
	/* Power-fail atomic writes: one backend page. */
	id->awupf = cpu_to_le16((VFLASH_LPAGE_SIZE >> c->ns.lba_shift) - 1);
	id->sqes = 0x66;
	id->cqes = 0x44;
	id->nn = cpu_to_le32(1);
	id->oncs = cpu_to_le16(NVME_CTRL_ONCS_COMPARE | NVME_CTRL_ONCS_DSM |
			       NVME_CTRL_ONCS_WRITE_ZEROES);
	/* Present; Flush takes NSID FFFFFFFFh (bits 2:1 = 11b). */
	id->vwc = NVME_CTRL_VWC_PRESENT | 0x06;
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
	u16 per_page = (VFLASH_LPAGE_SIZE >> c->ns.lba_shift) - 1;

	BUILD_BUG_ON(sizeof(*id) != 4096);
	id->nsze = cpu_to_le64(c->ns.nsze);
	id->ncap = cpu_to_le64(c->ns.nsze);
	id->nuse = cpu_to_le64(c->ns.nsze);
	id->lbaf[0].ds = c->ns.lba_shift;
	/* Deallocated blocks read as zeros; Write Zeroes may deallocate. */
	id->dlfeat = 0x9;
	/* Small blocks: the backend's page is the preferred write unit. */
	if (per_page) {
		id->nsfeat |= NVME_NS_FEAT_IO_OPT;
		id->npwg = cpu_to_le16(per_page);
		id->nows = cpu_to_le16(per_page);
	}
	ns_guid(c, id->nguid);
}

static u16 identify(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 nsid = le32_to_cpu(cmd->identify.nsid);
	u8 *p = c->ident;

	/*
	 * vfn_admin_decode() has checked CNS, NSID and CSI. CNS 05h and 06h
	 * for the NVM command set are all zeros: no protection information
	 * or storage tags, and no limits other than MDTS.
	 */
	memset(c->ident, 0, 4096);
	switch (vfn_cdw(cmd, 10) & 0xff) {
	case NVME_ID_CNS_NS:
		if (nsid == 1)
			identify_ns(c);
		break;
	case NVME_ID_CNS_CTRL:
		identify_ctrl(c);
		break;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
		if (nsid < 1)
			put_unaligned_le32(1, p);
		break;
	case NVME_ID_CNS_NS_DESC_LIST:
		/* One descriptor, then a zero NIDT ends the list. */
		p[0] = NVME_NIDT_NGUID;
		p[1] = NVME_NIDT_NGUID_LEN;
		ns_guid(c, p + 4);
		break;
	default:
		break;
	}
	return to_host(c, cmd, 0, 4096, 4096);
}

/**
 * vfn_admin_reset() - return the features to their defaults
 * @c: the controller
 *
 * Called for every controller reset (CC.EN 1 to 0) by the dispatcher, and
 * by vfn_admin() itself for the first admin command after an enable, so a
 * reset path that forgets it still cannot leak a feature across a reset.
 * Number of Queues always reports what Create accepts: every queue.
 */
void vfn_admin_reset(struct vfn_ctrl *c)
{
	vfn_features_default(&c->feat);
	c->wce = c->feat.wce;
	c->feat_gen = c->cq[0].gen;
}

#define FEAT_CHANGEABLE		BIT(2)

static u16 features(struct vfn_ctrl *c, const struct nvme_command *cmd,
		    bool set, u32 *result)
{
	u32 arg = vfn_cdw(cmd, 11), want, q, sel = (vfn_cdw(cmd, 10) >> 8) & 7;
	u8 fid = vfn_cdw(cmd, 10) & 0xff;
	struct vfn_features def;
	u16 sc;

	/* vfn_admin_decode() has checked the feature id, SV and SEL. */
	if (!set && sel == 3) {
		*result = FEAT_CHANGEABLE;	/* not saveable, not per NS */
		return 0;
	}
	if (fid == NVME_FEAT_NUM_QUEUES) {
		if (set) {
			sc = vfn_decode_nr_queues(arg, &want);
			if (sc)
				return sc;
			for (q = 1; q <= VFN_MAX_IOQ; q++)
				if (c->sq[q].live || c->cq[q].live)
					return SC(NVME_SC_CMD_SEQ_ERROR);
			c->granted_ioq = VFN_MAX_IOQ;
		}
		/*
		 * Before Set Features and after, what Create accepts: every
		 * queue. The controller may allocate more than the host asks
		 * for; the host uses the smaller number.
		 */
		*result = (VFN_MAX_IOQ - 1) * 0x10001;
		return 0;
	}
	if (set) {
		sc = vfn_feature_set(&c->feat, fid, arg);
		c->wce = c->feat.wce;
		*result = 0;
		return sc;
	}
	if (!sel)
		return vfn_feature_get(&c->feat, fid, arg, result);
	/* Nothing is saveable: saved values are the defaults. */
	vfn_features_default(&def);
	return vfn_feature_get(&def, fid, arg, result);
}

static void put_le128(u8 *field, u64 val)
{
	put_unaligned_le64(val, field);
}

static void smart_log(struct vfn_ctrl *c)
{
	struct nvme_smart_log *log = c->ident;
	struct vflash_health h;

	vflash_flash_health(c->vdev->flash, &h);
	if (h.spare_pct < SPARE_THRESH_PCT)
		log->critical_warning |= NVME_SMART_CRIT_SPARE;
	if (VFN_TEMP_K >= c->feat.temp_over || VFN_TEMP_K <= c->feat.temp_under)
		log->critical_warning |= NVME_SMART_CRIT_TEMPERATURE;
	/* An armed read-only rule, or no spare left: read-only media. */
	if (vflash_fault_armed(&c->vdev->faults, VFLASH_FAULT_READ_ONLY) ||
	    h.read_only)
		log->critical_warning |= NVME_SMART_CRIT_MEDIA;
	/* A drive at work. */
	put_unaligned_le16(VFN_TEMP_K, log->temperature);
	log->avail_spare = h.spare_pct;
	log->spare_thresh = SPARE_THRESH_PCT;
	log->percent_used = min_t(u32, h.life_used_pct, 255);
	/* Data units are thousands of 512-byte units, rounded up. */
	put_le128(log->data_units_read,
		  DIV_ROUND_UP_ULL(c->host_read_units, 1000));
	put_le128(log->data_units_written,
		  DIV_ROUND_UP_ULL(c->host_write_units, 1000));
	put_le128(log->host_reads, c->host_read_cmds);
	put_le128(log->host_writes, c->host_write_cmds);
	put_le128(log->power_cycles, 1 + c->power_cycles);
	put_le128(log->unsafe_shutdowns, c->unsafe_shutdowns);
	put_le128(log->power_on_hours,
		  div64_u64(ktime_get_ns() - c->attach_ns, NS_PER_HOUR));
}

static u16 get_log(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u8 lid = vfn_cdw(cmd, 10) & 0xff;
	u32 off, len;
	u16 sc = vfn_check_log(cmd, &off, &len);

	if (sc)
		return sc;
	memset(c->ident, 0, vfn_log_bytes(lid));
	switch (lid) {
	case NVME_LOG_SMART:
		smart_log(c);
		break;
	case NVME_LOG_FW_SLOT:
		((u8 *)c->ident)[0] = 1;
		pad_copy(c->ident + 8, 8, "1.0");
		break;
	default:
		break;	/* error log: no entries */
	}
	/* What runs past the end of the log reads as zeros. */
	return to_host(c, cmd, off, vfn_log_bytes(lid) - off, len);
}

/* The queue's memory: contiguous plain RAM (alignment already checked). */
static void *queue_kva(struct vfn_ctrl *c, const struct nvme_command *cmd,
		       u32 entry_size)
{
	u32 size = (vfn_cdw(cmd, 10) >> 16) + 1;

	return vfn_host_kva(c, le64_to_cpu(cmd->common.dptr.prp1),
			    size * entry_size);
}

static u16 create_cq(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 qid = vfn_cdw(cmd, 10) & 0xffff, size = (vfn_cdw(cmd, 10) >> 16) + 1;
	u32 flags = vfn_cdw(cmd, 11);
	void *kva;
	u16 sc = vfn_check_new_queue(cmd, VFN_MAX_IOQ, c->cq);

	if (!sc)
		sc = vfn_check_new_cq(cmd, VFN_NR_VEC);
	if (sc)
		return sc;
	kva = queue_kva(c, cmd, sizeof(struct nvme_completion));
	if (!kva)
		return SC(NVME_SC_INVALID_FIELD);
	spin_lock(&c->cq_lock[qid]);
	c->cq[qid] = (struct vfn_queue) {
		.kva = kva, .size = size, .phase = 1, .vector = flags >> 16,
		.irq_enabled = flags & NVME_CQ_IRQ_ENABLED, .live = true,
		.gen = c->cq[qid].gen + 1,
	};
	spin_unlock(&c->cq_lock[qid]);
	vfn_set_reg32(c, VFN_DB_OFF + (2 * qid + 1) * 4, 0);
	return 0;
}

static u16 create_sq(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 qid = vfn_cdw(cmd, 10) & 0xffff, size = (vfn_cdw(cmd, 10) >> 16) + 1;
	void *kva;
	u16 sc = vfn_check_new_queue(cmd, VFN_MAX_IOQ, c->sq);

	if (!sc)
		sc = vfn_check_new_sq(cmd, c->cq);
	if (sc)
		return sc;
	kva = queue_kva(c, cmd, sizeof(struct nvme_command));
	if (!kva)
		return SC(NVME_SC_INVALID_FIELD);
	vfn_set_reg32(c, VFN_DB_OFF + 2 * qid * 4, 0);
	memset(&c->sq_db[qid], 0, sizeof(c->sq_db[qid]));
	c->sq[qid] = (struct vfn_queue) {
		.kva = kva, .size = size, .cqid = vfn_cdw(cmd, 11) >> 16,
		.live = true,
	};
	return 0;
}

static u16 delete_queue(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 qid = vfn_cdw(cmd, 10) & 0xffff;
	u16 sc = vfn_check_delete(cmd, c->sq, c->cq);

	if (sc)
		return sc;
	if (cmd->common.opcode == nvme_admin_delete_sq) {
		/* Its commands complete first, the unfetched ones aborted. */
		vfn_sq_delete(c, qid);
		c->sq[qid].live = false;
		return 0;
	}
	/* Completions still on their way to it are dropped (gen). */
	spin_lock(&c->cq_lock[qid]);
	c->cq[qid].live = false;
	c->cq[qid].gen++;
	spin_unlock(&c->cq_lock[qid]);
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
	u16 sc = vfn_admin_decode(cmd);

	/* The first admin command since the controller was (re)enabled. */
	if (c->feat_gen != c->cq[0].gen)
		vfn_admin_reset(c);
	if (sc)
		goto out;
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
	case nvme_admin_delete_sq:
		sc = delete_queue(c, cmd);
		break;
	case nvme_admin_abort_cmd:
		result = 1;	/* not aborted: every command completes */
		sc = 0;
		break;
	case nvme_admin_keep_alive:
		sc = 0;
		break;
	case nvme_admin_async_event:
		if (c->nr_aer > VFN_AERL) {
			sc = SC(NVME_SC_ASYNC_LIMIT);
			break;
		}
		c->aer_cid[c->nr_aer++] = cmd->common.command_id;
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
