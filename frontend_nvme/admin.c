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
/* Async Event Configuration: Zone Descriptor Changed Notices. */
#define AEC_ZONE_CHANGED	BIT(27)
/* Asynchronous event information: Zone Descriptor Changed (Notice). */
#define AER_ZONE_CHANGED	0xef
/* Get Log Page CDW10 bit 15: Retain Asynchronous Event. */
#define LOG_RAE			BIT(15)
/* Get Log Page CDW10 bits 11:8, Log Specific Parameter: FDP Events' bit 0
 * asks for the host events, clear for the controller events.
 */
#define LOG_LSP_HOST_EVENTS	BIT(8)
/* Controller attributes: endurance groups, Flexible Data Placement. */
#define CTRATT_ENDGS		BIT(4)
#define CTRATT_FDPS		BIT(19)
/* Identify Controller: ENDGIDMAX, bytes 341:340. */
#define ID_CTRL_ENDGIDMAX	340

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
	/*
	 * Get Log Page takes NUMDU and an offset (extended data); the
	 * Commands Supported and Effects log exists.
	 */
	id->lpa = 0x04 | NVME_CTRL_LPA_CMD_EFFECTS_LOG;
	id->avscc = 1;
	id->wctemp = cpu_to_le16(0x157);
	id->cctemp = cpu_to_le16(0x175);
	put_unaligned_le64(vdev->cfg.size_bytes, id->tnvmcap);
	/* Power-fail atomic writes: one backend page. */
	id->awupf = cpu_to_le16((VFLASH_LPAGE_SIZE >> c->ns.lba_shift) - 1);
	id->sqes = 0x66;
	id->cqes = 0x44;
	id->nn = cpu_to_le32(1);
	/* Zone Descriptor Changed Notices, on a zoned namespace. */
	if (c->ns.zoned)
		id->oaes = cpu_to_le32(AEC_ZONE_CHANGED);
	id->oncs = cpu_to_le16(NVME_CTRL_ONCS_COMPARE | NVME_CTRL_ONCS_DSM |
			       NVME_CTRL_ONCS_WRITE_ZEROES);
	/* Present; Flush takes NSID FFFFFFFFh (bits 2:1 = 11b). */
	id->vwc = NVME_CTRL_VWC_PRESENT | 0x06;
	/* Flexible Data Placement: one endurance group holds everything. */
	if (c->fdp.nruh) {
		id->ctratt = cpu_to_le32(CTRATT_ENDGS | CTRATT_FDPS);
		put_unaligned_le16(VFN_FDP_ENDGID, (u8 *)id + ID_CTRL_ENDGIDMAX);
	}
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
	if (c->fdp.nruh)
		id->endgid = cpu_to_le16(VFN_FDP_ENDGID);
}

/* A zone limit as MAR and MOR give it: 0's based, all ones for none. */
static __le32 zone_limit(u32 max)
{
	return cpu_to_le32(max ? max - 1 : U32_MAX);
}

/* Identify CNS 05h, CSI 02h: the zoned namespace. */
static void identify_ns_zns(struct vfn_ctrl *c)
{
	struct nvme_id_ns_zns *id = c->ident;

	BUILD_BUG_ON(sizeof(*id) != 4096);
	/* Reads may cross zone boundaries (OZCS RAZB). */
	id->ozcs = cpu_to_le16(1);
	id->mar = zone_limit(c->zns.max_active);
	id->mor = zone_limit(c->zns.max_open);
	id->lbafe[0].zsze = cpu_to_le64(c->zns.zsze);
}

/* The command sets of this controller: NVM, and Zoned when zoned=1. */
static u64 iocs_vector(struct vfn_ctrl *c)
{
	return BIT_ULL(NVME_CSI_NVM) | (c->ns.zoned ? BIT_ULL(NVME_CSI_ZNS) : 0);
}

static u16 identify(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 nsid = le32_to_cpu(cmd->identify.nsid);
	u8 cns = vfn_cdw(cmd, 10) & 0xff;
	/* Only CNS 05h and 06h read CSI; the others ignore it. */
	bool zns = cmd->identify.csi == NVME_CSI_ZNS &&
		   (cns == NVME_ID_CNS_CS_NS || cns == NVME_ID_CNS_CS_CTRL);
	u8 *p = c->ident;

	/*
	 * vfn_admin_decode() has checked CNS, NSID and CSI. CNS 05h and 06h
	 * for the NVM command set are all zeros: no protection information
	 * or storage tags, and no limits other than MDTS. With CSI 02h they
	 * are the zoned namespace's and controller's, if there are zones.
	 */
	if (zns && !c->ns.zoned)
		return SC(NVME_SC_INVALID_FIELD);
	memset(c->ident, 0, 4096);
	switch (cns) {
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
		/*
		 * The NGUID and the command set (which Linux requires once
		 * CC.CSS selects several), then a zero NIDT ends the list.
		 */
		p[0] = NVME_NIDT_NGUID;
		p[1] = NVME_NIDT_NGUID_LEN;
		ns_guid(c, p + 4);
		p += 4 + NVME_NIDT_NGUID_LEN;
		p[0] = NVME_NIDT_CSI;
		p[1] = NVME_NIDT_CSI_LEN;
		p[4] = c->ns.zoned ? NVME_CSI_ZNS : NVME_CSI_NVM;
		break;
	case NVME_ID_CNS_CS_NS:
		if (zns)
			identify_ns_zns(c);
		break;
	case NVME_ID_CNS_CS_CTRL:
		/* ZASL: Zone Append takes what MDTS allows. */
		if (zns)
			p[0] = VFN_MDTS;
		break;
	case VFN_ID_CNS_IOCS:
		/* One I/O command set combination, index 0. */
		put_unaligned_le64(iocs_vector(c), p);
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
	vfn_fdp_events_default(&c->fdp);
	c->aen_pending = 0;
	c->zone_aen_masked = false;
	c->wce = c->feat.wce;
	c->feat_gen = c->cq[0].gen;
}

#define FEAT_CHANGEABLE		BIT(2)

/*
 * Features 1Eh, FDP Events: Get returns the event descriptors of a
 * placement handle, Set reads the event types it enables or disables.
 */
static u16 fdp_events_feature(struct vfn_ctrl *c,
			      const struct nvme_command *cmd, bool set,
			      u32 *result)
{
	u32 cdw11 = vfn_cdw(cmd, 11), noet = (cdw11 >> 16) & 0xff, len;
	u16 sc;

	*result = 0;
	memset(c->ident, 0, 4096);
	if (!set) {
		sc = vfn_fdp_events_get(&c->fdp, cdw11, c->ident, &len, result);
		if (sc || !len)
			return sc;
		return to_host(c, cmd, 0, len, len);
	}
	if (!c->fdp.nruh)
		return SC(NVME_SC_INVALID_FIELD);
	if (noet) {
		sc = vfn_map_data(c, cmd, noet);
		if (sc)
			return sc;
		vfn_buf_copy(&c->buf, c->ident, false);
	}
	return vfn_fdp_events_set(&c->fdp, cdw11, vfn_cdw(cmd, 12), c->ident);
}

static u16 features(struct vfn_ctrl *c, const struct nvme_command *cmd,
		    bool set, u32 *result)
{
	u32 arg = vfn_cdw(cmd, 11), want, q, sel = (vfn_cdw(cmd, 10) >> 8) & 7;
	u8 fid = vfn_cdw(cmd, 10) & 0xff;
	struct vfn_features def;
	u16 sc;

	/* vfn_admin_decode() has checked the feature id, SV and SEL. */
	if (fid == VFN_FEAT_FDP || fid == VFN_FEAT_FDP_EVENTS) {
		if (!c->fdp.nruh)
			return SC(NVME_SC_INVALID_FIELD);
		/* FDP is as configured at load; its events may change. */
		if (!set && sel == 3) {
			*result = fid == VFN_FEAT_FDP ? 0 : FEAT_CHANGEABLE;
			return 0;
		}
		if (fid == VFN_FEAT_FDP)
			return vfn_fdp_feature(&c->fdp, set, arg,
					       vfn_cdw(cmd, 12), result);
		return fdp_events_feature(c, cmd, set, result);
	}
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

/**
 * vfn_zone_changed() - the controller changed a zone's descriptor
 * @c: the controller
 * @zone: the zone (it went read-only or offline on its own)
 *
 * Adds the zone to the Changed Zone List and, if the host enabled Zone
 * Descriptor Changed Notices and none is outstanding, reports the event.
 * Dispatcher only.
 */
void vfn_zone_changed(struct vfn_ctrl *c, u32 zone)
{
	u64 zslba = (u64)zone * c->zns.zsze;
	u32 i, n = min_t(u32, c->nr_zones_changed, VFN_ZONES_CHANGED_MAX);

	for (i = 0; i < n; i++)
		if (c->zones_changed[i] == zslba)
			goto notify;
	if (c->nr_zones_changed < VFN_ZONES_CHANGED_MAX)
		c->zones_changed[c->nr_zones_changed] = zslba;
	/* One past the maximum means "more than the log holds". */
	if (c->nr_zones_changed <= VFN_ZONES_CHANGED_MAX)
		c->nr_zones_changed++;
notify:
	if (c->zone_aen_masked || !(c->feat.async_event & AEC_ZONE_CHANGED))
		return;
	c->zone_aen_masked = true;
	vfn_aen(c, NVME_AER_NOTICE | AER_ZONE_CHANGED << 8 |
		   VFN_LOG_CHANGED_ZONES << 16);
}

/*
 * The Changed Zone List (log BFh): the number of zone identifiers, FFFFh
 * if more zones changed than it holds, then their first blocks. Read
 * without RAE it starts over and the event may be reported again.
 */
static void changed_zones_log(struct vfn_ctrl *c,
			      const struct nvme_command *cmd)
{
	u8 *log = c->ident;
	u32 i, n = c->nr_zones_changed;

	BUILD_BUG_ON(8 + VFN_ZONES_CHANGED_MAX * 8 != VFN_ZONE_LOG_BYTES);
	put_unaligned_le16(n > VFN_ZONES_CHANGED_MAX ? 0xffff : n, log);
	for (i = 0; i < min_t(u32, n, VFN_ZONES_CHANGED_MAX); i++)
		put_unaligned_le64(c->zones_changed[i], log + 8 + 8 * i);
	if (vfn_cdw(cmd, 10) & LOG_RAE)
		return;
	c->nr_zones_changed = 0;
	c->zone_aen_masked = false;
}

/* The admin commands vfn_admin() executes. */
static const u8 admin_ops[] = {
	nvme_admin_delete_sq, nvme_admin_create_sq, nvme_admin_get_log_page,
	nvme_admin_delete_cq, nvme_admin_create_cq, nvme_admin_identify,
	nvme_admin_abort_cmd, nvme_admin_set_features,
	nvme_admin_get_features, nvme_admin_async_event,
	nvme_admin_keep_alive,
};

/* The I/O commands of every namespace, then those of a zoned one. */
static const u8 nvm_ops[] = {
	nvme_cmd_flush, nvme_cmd_write, nvme_cmd_read, nvme_cmd_compare,
	nvme_cmd_write_zeroes, nvme_cmd_dsm,
};

static const u8 zns_ops[] = {
	nvme_cmd_zone_mgmt_send, nvme_cmd_zone_mgmt_recv, nvme_cmd_zone_append,
};

/* The I/O commands of a namespace with Flexible Data Placement. */
static const u8 fdp_ops[] = {
	VFN_CMD_IO_MGMT_RECV, VFN_CMD_IO_MGMT_SEND,
};

/*
 * Commands Supported and Effects (log 05h) for command set @csi: every
 * command vflash executes is marked supported (CSUPP), with no effects
 * the host must act on. Linux makes a zoned namespace read-only unless
 * Zone Append is marked.
 */
static u16 effects_log(struct vfn_ctrl *c, u8 csi)
{
	struct nvme_effects_log *log = c->ident;
	u32 i;

	BUILD_BUG_ON(sizeof(*log) != VFN_EFFECTS_LOG_BYTES);
	if (csi != NVME_CSI_NVM && !(csi == NVME_CSI_ZNS && c->ns.zoned))
		return SC(NVME_SC_INVALID_FIELD);
	for (i = 0; i < ARRAY_SIZE(admin_ops); i++)
		log->acs[admin_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	for (i = 0; i < ARRAY_SIZE(nvm_ops); i++)
		log->iocs[nvm_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	for (i = 0; csi == NVME_CSI_ZNS && i < ARRAY_SIZE(zns_ops); i++)
		log->iocs[zns_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	for (i = 0; c->fdp.nruh && i < ARRAY_SIZE(fdp_ops); i++)
		log->iocs[fdp_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	return 0;
}

/*
 * The FDP logs (20h-23h) of endurance group 1 into c->ident (zeroed).
 * Return: the log's size.
 */
static u32 fdp_log(struct vfn_ctrl *c, const struct nvme_command *cmd, u8 lid)
{
	struct vflash_flash *f = c->vdev->flash;

	switch (lid) {
	case VFN_LOG_FDP_CONFIGS:
		return vfn_fdp_configs_log(&c->fdp, c->ident);
	case VFN_LOG_FDP_USAGE:
		return vfn_fdp_usage_log(&c->fdp, c->ident);
	case VFN_LOG_FDP_STATS:
		return vfn_fdp_stats_log(c->ident, c->host_write_units << 9,
					 VFLASH_LPAGE_SIZE *
					 vflash_flash_stat(f, VFLASH_STAT_NAND_PROGRAM_PAGES),
					 vflash_flash_erased_bytes(f));
	default:
		return vfn_fdp_events_log(&c->fdp, c->ident,
					  !(vfn_cdw(cmd, 10) & LOG_LSP_HOST_EVENTS));
	}
}

static u16 get_log(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u8 lid = vfn_cdw(cmd, 10) & 0xff;
	u32 off, len, size = vfn_log_bytes(lid);
	u16 sc = vfn_check_log(cmd, &off, &len);

	if (sc)
		return sc;
	if (lid == VFN_LOG_CHANGED_ZONES && !c->ns.zoned)
		return SC(NVME_SC_INVALID_LOG_PAGE);
	memset(c->ident, 0, vfn_log_bytes(lid));
	if (lid >= VFN_LOG_FDP_CONFIGS && lid <= VFN_LOG_FDP_EVENTS) {
		sc = vfn_fdp_check_lsi(&c->fdp, vfn_cdw(cmd, 11));
		if (sc)
			return sc;
		size = fdp_log(c, cmd, lid);
		/* Past the log's end, zeros. */
		return to_host(c, cmd, off, off < size ? size - off : 0, len);
	}
	switch (lid) {
	case NVME_LOG_CMD_EFFECTS:
		sc = effects_log(c, cmd->get_log_page.csi);
		if (sc)
			return sc;
		break;
	case VFN_LOG_CHANGED_ZONES:
		changed_zones_log(c, cmd);
		break;
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
	return to_host(c, cmd, off, size - off, len);
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
		/* An event no request was held for completes this one. */
		if (c->aen_pending) {
			result = c->aen_pending;
			c->aen_pending = 0;
			sc = 0;
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
