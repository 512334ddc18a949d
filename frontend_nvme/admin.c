// SPDX-License-Identifier: GPL-2.0
/*
 * Admin commands: Identify, features, log pages, queue management, Abort,
 * Asynchronous Event Request, each checked before it touches host memory.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "backend_flash/profile.h"
#include "core/compat.h"
#include "core/vflash.h"
#include "frontend_nvme/nvme.h"

#define SC(x)		VFN_SC(x)
#define SPARE_THRESH_PCT	10
#define NS_PER_HOUR		(3600ULL * NSEC_PER_SEC)

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
	struct vfn_nstab *t = &c->nst;
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
	id->cntlid = cpu_to_le16(VFN_CNTLID);
	id->ver = cpu_to_le32(VFN_VERSION);
	id->cntrltype = 1;
	id->oacs = cpu_to_le16(NVME_CTRL_OACS_NS_MNGT_SUPP);
	id->acl = 3;
	id->aerl = VFN_AERL;
	id->frmw = 0x03;
	/* LPA: extended data (NUMDU, offset), Commands Supported and Effects. */
	id->lpa = 0x04 | NVME_CTRL_LPA_CMD_EFFECTS_LOG;
	id->avscc = 1;
	id->wctemp = cpu_to_le16(0x157);
	id->cctemp = cpu_to_le16(0x175);
	put_unaligned_le64(t->cap_pages << VFLASH_LPAGE_SHIFT, id->tnvmcap);
	put_unaligned_le64(vfn_nstab_free_pages(t) << VFLASH_LPAGE_SHIFT,
			   id->unvmcap);
	/* Power-fail atomic writes: one backend page. */
	id->awupf = cpu_to_le16((VFLASH_LPAGE_SIZE >> t->lba_shift) - 1);
	id->sqes = 0x66;
	id->cqes = 0x44;
	id->nn = cpu_to_le32(VFN_MAX_NS);
	id->mnan = cpu_to_le32(VFN_MAX_NS);
	/* Zone Descriptor Changed Notices where zoned namespaces may be. */
	id->oaes = cpu_to_le32(NVME_AEN_CFG_NS_ATTR |
			       (vfn_nstab_zoned(t) ? VFN_AEC_ZONE_CHANGED : 0));
	id->oncs = cpu_to_le16(NVME_CTRL_ONCS_COMPARE | NVME_CTRL_ONCS_DSM |
			       NVME_CTRL_ONCS_WRITE_ZEROES |
			       NVME_CTRL_ONCS_WRITE_UNCORRECTABLE |
			       VFN_ONCS_VERIFY | VFN_ONCS_COPY);
	/* Copy: Source Range Entries of descriptor format 0 (OCFS bit 0). */
	put_unaligned_le16(BIT(0), (u8 *)id + VFN_ID_CTRL_OCFS);
	/* Present; Flush takes NSID FFFFFFFFh (bits 2:1 = 11b). */
	id->vwc = NVME_CTRL_VWC_PRESENT | 0x06;
	if (c->fdp.nruh)
		vfn_fdp_identify_ctrl(c, id);
	snprintf(id->subnqn, sizeof(id->subnqn),
		 "nqn.2026-11.io.vflash:%s", dev_name(&vdev->dev));
}

/*
 * A created namespace's GUID carries its NSID and creation number, so one
 * deleted and made again is new to the host (Linux drops the old disk);
 * the load's namespace keeps namespace 1's.
 */
static void ns_guid(struct vfn_ctrl *c, const struct vfn_nsd *nd, u8 *out)
{
	if (!nd->serial) {
		memcpy(out, "vflash-nguid", 12);
		put_unaligned_be32(c->ctrl_id, out + 12);
		return;
	}
	memcpy(out, "vflashns", 8);
	put_unaligned_be16(c->ctrl_id, out + 8);
	put_unaligned_be16(nd->ns.id, out + 10);
	put_unaligned_be32(nd->serial, out + 12);
}

/* Identify Namespace of @nd or, for NULL (NSID FFFFFFFFh), of every one. */
static void identify_ns(struct vfn_ctrl *c, const struct vfn_nsd *nd)
{
	struct nvme_id_ns *id = c->ident;
	u16 per_page = (VFLASH_LPAGE_SIZE >> c->nst.lba_shift) - 1;

	BUILD_BUG_ON(sizeof(*id) != 4096);
	id->lbaf[0].ds = c->nst.lba_shift;
	/* Deallocated blocks read as zeros; Write Zeroes may deallocate. */
	id->dlfeat = 0x9;
	/* Small blocks: the backend's page is the preferred write unit. */
	if (per_page) {
		id->nsfeat |= NVME_NS_FEAT_IO_OPT;
		id->npwg = cpu_to_le16(per_page);
		id->nows = cpu_to_le16(per_page);
	}
	/* Copy's limits, in blocks (docs/nvme.md, Copy). */
	put_unaligned_le16(VFN_COPY_MSSRL_BYTES >> c->nst.lba_shift,
			   (u8 *)id + VFN_ID_NS_MSSRL);
	put_unaligned_le32(VFN_COPY_MCL_BYTES >> c->nst.lba_shift,
			   (u8 *)id + VFN_ID_NS_MCL);
	*((u8 *)id + VFN_ID_NS_MSRC) = VFN_COPY_MSRC;
	if (!nd)
		return;
	id->nsze = cpu_to_le64(nd->ns.nsze);
	id->ncap = cpu_to_le64(nd->ns.nsze);
	id->nuse = cpu_to_le64(nd->ns.nsze);
	put_unaligned_le64(nd->pages << VFLASH_LPAGE_SHIFT, id->nvmcap);
	ns_guid(c, nd, id->nguid);
	if (c->fdp.nruh)
		id->endgid = cpu_to_le16(VFN_FDP_ENDGID);
}

/* Identify CNS 08h of @nd: it is ready. */
static void identify_ns_indep(struct vfn_ctrl *c, const struct vfn_nsd *nd)
{
	struct nvme_id_ns_cs_indep *id = c->ident;

	BUILD_BUG_ON(sizeof(*id) != 4096);
	if (VFLASH_LPAGE_SIZE >> c->nst.lba_shift > 1)
		id->nsfeat |= NVME_NS_FEAT_IO_OPT;
	if (c->fdp.nruh)
		id->endgid = cpu_to_le16(VFN_FDP_ENDGID);
	id->nstat = NVME_NSTAT_NRDY;
}

/* The command sets of this controller: NVM, and Zoned but with FDP. */
static u64 iocs_vector(struct vfn_ctrl *c)
{
	return BIT_ULL(NVME_CSI_NVM) |
	       (vfn_nstab_zoned(&c->nst) ? BIT_ULL(NVME_CSI_ZNS) : 0);
}

static bool reads_csi(u8 cns)
{
	switch (cns) {
	case NVME_ID_CNS_CS_NS:
	case NVME_ID_CNS_CS_CTRL:
	case VFN_ID_CNS_CS_NS_ACTIVE_LIST:
	case VFN_ID_CNS_CS_NS_ALLOC_LIST:
	case VFN_ID_CNS_CS_NS_ALLOC:
		return true;
	default:
		return false;
	}
}

/* Identify CNS 03h: the namespace's identifiers, its command set last. */
static void ns_descs(struct vfn_ctrl *c, const struct vfn_nsd *nd)
{
	u8 *p = c->ident;

	/* Linux requires the command set once CC.CSS selects several. */
	p[0] = NVME_NIDT_NGUID;
	p[1] = NVME_NIDT_NGUID_LEN;
	ns_guid(c, nd, p + 4);
	p += 4 + NVME_NIDT_NGUID_LEN;
	p[0] = NVME_NIDT_CSI;
	p[1] = NVME_NIDT_CSI_LEN;
	p[4] = nd->ns.zoned ? NVME_CSI_ZNS : NVME_CSI_NVM;
}

/*
 * The Identify checks that need no namespace table (NVMe Base 2.0c, 5.17):
 * the CNS, the CSI, and an NSID invalid for the CNS (Invalid Namespace or
 * Format).
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

/*
 * Identify (NVMe Base 2.0c, 5.17.2; NSIDs 3.2.1.5): an inactive NSID gets
 * zeros where the specification says so (00h, 05h, 11h, 1Bh) and Invalid
 * Field where it needs a namespace (03h). CSI 00h structures are all
 * zeros: no protection information, storage tags or limits but MDTS.
 */
static u16 identify(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u32 nsid = le32_to_cpu(cmd->identify.nsid), cdw10 = vfn_cdw(cmd, 10);
	bool zns = cmd->identify.csi == NVME_CSI_ZNS;
	int csi = cmd->identify.csi;
	struct vfn_nstab *t = &c->nst;
	u8 cns = cdw10 & 0xff;
	struct vfn_nsd *nd;
	u8 *p = c->ident;

	if (zns && reads_csi(cns) && !vfn_nstab_zoned(t))
		return SC(NVME_SC_INVALID_FIELD);
	memset(c->ident, 0, 4096);
	switch (cns) {
	case NVME_ID_CNS_NS:
	case NVME_ID_CNS_NS_PRESENT:
		if (nsid == NVME_NSID_ALL) {
			identify_ns(c, NULL);
			break;
		}
		nd = vfn_ns_find(t, nsid, cns == NVME_ID_CNS_NS);
		if (nd)
			identify_ns(c, nd);
		break;
	case NVME_ID_CNS_CTRL:
		identify_ctrl(c);
		break;
	case NVME_ID_CNS_NS_CS_INDEP:
		nd = vfn_ns_find(t, nsid, true);
		if (nd)
			identify_ns_indep(c, nd);
		break;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
	case NVME_ID_CNS_NS_PRESENT_LIST:
		vfn_ns_list(t, nsid, cns == NVME_ID_CNS_NS_ACTIVE_LIST, -1,
			    c->ident);
		break;
	case VFN_ID_CNS_CS_NS_ACTIVE_LIST:
	case VFN_ID_CNS_CS_NS_ALLOC_LIST:
		vfn_ns_list(t, nsid, cns == VFN_ID_CNS_CS_NS_ACTIVE_LIST, csi,
			    c->ident);
		break;
	case NVME_ID_CNS_NS_DESC_LIST:
		nd = vfn_ns_find(t, nsid, true);
		if (!nd)
			return SC(NVME_SC_INVALID_FIELD);
		ns_descs(c, nd);
		break;
	case NVME_ID_CNS_CS_NS:
	case VFN_ID_CNS_CS_NS_ALLOC:
		if (nsid == NVME_NSID_ALL) {
			if (zns)
				vfn_zns_identify_ns(c, NULL);
			break;
		}
		nd = vfn_ns_find(t, nsid, cns == NVME_ID_CNS_CS_NS);
		/* Not a namespace of that command set (NVMe Base 2.0, 5.17). */
		if (nd && zns && !nd->ns.zoned)
			return SC(VFN_SC_INVALID_IOCS);
		if (nd && zns)
			vfn_zns_identify_ns(c, nd);
		break;
	case NVME_ID_CNS_CS_CTRL:
		if (zns)
			vfn_zns_identify_ctrl(c);
		break;
	case NVME_ID_CNS_CTRL_NS_LIST:
	case NVME_ID_CNS_CTRL_LIST:
		vfn_ns_ctrl_list(t, cns == NVME_ID_CNS_CTRL_LIST ? 0 : nsid,
				 cdw10 >> 16, p);
		break;
	case VFN_ID_CNS_IOCS:
		/* One I/O command set combination, index 0. */
		put_unaligned_le64(iocs_vector(c), p);
		break;
	default:
		break;
	}
	return vfn_to_host(c, cmd, 0, 4096, 4096);
}

/**
 * vfn_admin_reset() - return the features to their defaults
 * @c: the controller
 *
 * Called by the dispatcher at every controller reset, and by vfn_admin()
 * for the first admin command after an enable, so no feature leaks
 * across a reset even if a reset path forgets it.
 */
void vfn_admin_reset(struct vfn_ctrl *c)
{
	vfn_features_default(&c->feat);
	vfn_fdp_events_default(&c->fdp);
	c->aen_nr = 0;
	c->zone_aen_masked = false;
	c->ns_aen_masked = false;
	c->wce = c->feat.wce;
	c->feat_gen = c->cq[0].gen;
}

#define ZREC_SYNC_NS		(100 * NSEC_PER_MSEC)

/**
 * vfn_admin_tick() - the dispatcher's periodic housekeeping
 * @c: the controller (enabled)
 * @now: the time of the dispatcher's pass
 */
void vfn_admin_tick(struct vfn_ctrl *c, u64 now)
{
	if (vfn_zone_recs(c) && now >= c->zrec_next_ns) {
		c->zrec_next_ns = now + ZREC_SYNC_NS;
		vfn_zones_recommend(c, now);
	}
	if (c->fdp.nruh)
		vfn_fdp_tick(c, now);
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

/* The features' values after a controller reset. */
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

/* Only the composite temperature (TMPSEL 0). */
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
		/* SMART warnings, Namespace Attribute and Zone Changed. */
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

static u16 features(struct vfn_ctrl *c, const struct nvme_command *cmd,
		    bool set, u32 *result)
{
	u32 arg = vfn_cdw(cmd, 11), want, q, sel = (vfn_cdw(cmd, 10) >> 8) & 7;
	u8 fid = vfn_cdw(cmd, 10) & 0xff;
	struct vfn_features def;
	u16 sc;

	/* vfn_admin_decode() has checked the feature id, SV and SEL. */
	if (fid == VFN_FEAT_FDP || fid == VFN_FEAT_FDP_EVENTS)
		return vfn_fdp_features(c, cmd, set, result);
	if (!set && sel == 3) {
		*result = VFN_FEAT_CHANGEABLE;	/* not saveable, not per NS */
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
		 * What Create accepts: every queue. The host uses the smaller
		 * of this and what it asked for.
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

/**
 * vfn_log_bytes() - the size of a log page vflash returns
 * @lid: log identifier
 *
 * Return: its size in bytes, or 0 for a log page vflash does not have.
 * The caller checks that the Changed Zone List's namespace is zoned.
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
 * A transfer past the end of the log gets zeros there; an offset beyond
 * the end, unaligned or of the index type, or above MDTS, is refused.
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
		  div64_u64(c->powered_ns + ktime_get_ns() - c->attach_ns,
			    NS_PER_HOUR));
}

static const u8 admin_ops[] = {
	nvme_admin_delete_sq, nvme_admin_create_sq, nvme_admin_get_log_page,
	nvme_admin_delete_cq, nvme_admin_create_cq, nvme_admin_identify,
	nvme_admin_abort_cmd, nvme_admin_set_features,
	nvme_admin_get_features, nvme_admin_async_event,
	nvme_admin_ns_mgmt, nvme_admin_keep_alive, nvme_admin_ns_attach,
};

/* The I/O commands of every namespace, then those of a zoned one. */
static const u8 nvm_ops[] = {
	nvme_cmd_flush, nvme_cmd_write, nvme_cmd_read, nvme_cmd_compare,
	nvme_cmd_write_zeroes, nvme_cmd_dsm, nvme_cmd_write_uncor,
	nvme_cmd_verify, VFN_CMD_COPY,
};

static const u8 zns_ops[] = {
	nvme_cmd_zone_mgmt_send, nvme_cmd_zone_mgmt_recv, nvme_cmd_zone_append,
};

/* The I/O commands that change logical blocks' contents (LBCC). */
static const u8 lbcc_ops[] = {
	nvme_cmd_write, nvme_cmd_write_zeroes, nvme_cmd_dsm,
	nvme_cmd_zone_mgmt_send, nvme_cmd_zone_append, nvme_cmd_write_uncor,
	VFN_CMD_COPY,
};

static const u8 fdp_ops[] = {
	VFN_CMD_IO_MGMT_RECV, VFN_CMD_IO_MGMT_SEND,
};

/*
 * Commands Supported and Effects (log 05h) for command set @csi. NIC on
 * Namespace Management and Attachment makes the host rescan, which is how
 * it learns of a delete (no event is reported for one). Linux makes a
 * zoned namespace read-only unless Zone Append is marked.
 */
static u16 effects_log(struct vfn_ctrl *c, u8 csi)
{
	struct nvme_effects_log *log = c->ident;
	u32 i;

	BUILD_BUG_ON(sizeof(*log) != VFN_EFFECTS_LOG_BYTES);
	if (csi != NVME_CSI_NVM &&
	    !(csi == NVME_CSI_ZNS && vfn_nstab_zoned(&c->nst)))
		return SC(NVME_SC_INVALID_FIELD);
	for (i = 0; i < ARRAY_SIZE(admin_ops); i++)
		log->acs[admin_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	log->acs[nvme_admin_ns_mgmt] |= cpu_to_le32(NVME_CMD_EFFECTS_NIC);
	log->acs[nvme_admin_ns_attach] |= cpu_to_le32(NVME_CMD_EFFECTS_NIC);
	for (i = 0; i < ARRAY_SIZE(nvm_ops); i++)
		log->iocs[nvm_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	for (i = 0; csi == NVME_CSI_ZNS && i < ARRAY_SIZE(zns_ops); i++)
		log->iocs[zns_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	for (i = 0; i < ARRAY_SIZE(lbcc_ops); i++)
		if (log->iocs[lbcc_ops[i]])
			log->iocs[lbcc_ops[i]] |=
				cpu_to_le32(NVME_CMD_EFFECTS_LBCC);
	for (i = 0; c->fdp.nruh && i < ARRAY_SIZE(fdp_ops); i++)
		log->iocs[fdp_ops[i]] = cpu_to_le32(NVME_CMD_EFFECTS_CSUPP);
	return 0;
}

/* Supported Log Pages (log 00h): LSUPP for every log returned. */
static void supported_logs(struct vfn_ctrl *c)
{
	__le32 *d = c->ident;
	u32 lid;

	for (lid = 0; lid < 256; lid++) {
		if (!vfn_log_bytes(lid) ||
		    (lid == VFN_LOG_CHANGED_ZONES && !vfn_nstab_zoned(&c->nst)) ||
		    (lid >= VFN_LOG_FDP_CONFIGS && lid <= VFN_LOG_FDP_EVENTS &&
		     !c->fdp.nruh))
			continue;
		d[lid] = cpu_to_le32(BIT(0));
	}
}

static u16 get_log(struct vfn_ctrl *c, const struct nvme_command *cmd,
		   u64 now)
{
	u8 lid = vfn_cdw(cmd, 10) & 0xff;
	u32 off, len, size = vfn_log_bytes(lid);
	u16 sc = vfn_check_log(cmd, &off, &len);

	if (sc)
		return sc;
	if (lid == VFN_LOG_CHANGED_ZONES) {
		sc = vfn_zns_changed_zones_log(c, cmd);
		return sc ? sc : vfn_to_host(c, cmd, off, size - off, len);
	}
	if (lid >= VFN_LOG_FDP_CONFIGS && lid <= VFN_LOG_FDP_EVENTS)
		return vfn_fdp_get_log(c, cmd, off, len, now);
	memset(c->ident, 0, vfn_log_bytes(lid));
	switch (lid) {
	case VFN_LOG_SUPPORTED:
		supported_logs(c);
		break;
	case NVME_LOG_CMD_EFFECTS:
		sc = effects_log(c, cmd->get_log_page.csi);
		if (sc)
			return sc;
		break;
	case NVME_LOG_CHANGED_NS:
		/* Read without RAE: it starts over, the event is unmasked. */
		vfn_ns_changed_log(&c->nst, c->ident,
				   !(vfn_cdw(cmd, 10) & VFN_LOG_RAE));
		if (!(vfn_cdw(cmd, 10) & VFN_LOG_RAE))
			c->ns_aen_masked = false;
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
	return vfn_to_host(c, cmd, off, size - off, len);
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
	c->sq_scan = max(c->sq_scan, qid + 1);
	return 0;
}

static u16 delete_queue(struct vfn_ctrl *c, const struct nvme_command *cmd,
			struct vfn_cmd *out)
{
	u32 qid = vfn_cdw(cmd, 10) & 0xffff;
	u16 sc = vfn_check_delete(cmd, c->sq, c->cq);

	if (sc)
		return sc;
	if (cmd->common.opcode == nvme_admin_delete_sq) {
		/* Its commands complete first, the unfetched ones aborted. */
		out->due_ns = vfn_sq_delete(c, qid, out->due_ns);
		out->wait_sq = qid;
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
 * vfn_admin_decode() - validate what an admin command says by itself
 * @cmd: the command, copied out of the admin SQ
 *
 * Return: 0, Invalid Field for fused operations or SGLs, Invalid Command
 * Opcode, or the status of the command-specific checks that need no
 * controller state.
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
		return vfn_ns_check_cmd(cmd);
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
 * vfn_admin() - execute one admin command
 * @c: the controller
 * @cmd: the command, copied out of the admin SQ
 * @out: its completion; status in cqe.status (host order, no phase), or
 *	due_ns = U64_MAX for a command that stays outstanding (AER). due_ns
 *	comes in as the fetch time and stays so but for Delete I/O SQ.
 */
void vfn_admin(struct vfn_ctrl *c, const struct nvme_command *cmd,
	       struct vfn_cmd *out)
{
	u64 now = out->due_ns;
	u32 result = 0;
	u16 sc = vfn_admin_decode(cmd);

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
		sc = get_log(c, cmd, now);
		break;
	case nvme_admin_create_cq:
		sc = create_cq(c, cmd);
		break;
	case nvme_admin_create_sq:
		sc = create_sq(c, cmd);
		break;
	case nvme_admin_delete_cq:
	case nvme_admin_delete_sq:
		sc = delete_queue(c, cmd, out);
		break;
	case nvme_admin_abort_cmd:
		result = 1;	/* not aborted: every command completes */
		sc = 0;
		break;
	case nvme_admin_keep_alive:
		sc = 0;
		break;
	case nvme_admin_ns_mgmt:
		sc = vfn_ns_mgmt(c, cmd, &result, now);
		break;
	case nvme_admin_ns_attach:
		sc = vfn_ns_attachment(c, cmd);
		break;
	case nvme_admin_async_event:
		if (c->nr_aer > VFN_AERL) {
			sc = SC(NVME_SC_ASYNC_LIMIT);
			break;
		}
		/* The oldest event no request was held for completes this one. */
		if (c->aen_nr) {
			result = c->aen_queue[0];
			memmove(c->aen_queue, c->aen_queue + 1,
				--c->aen_nr * sizeof(c->aen_queue[0]));
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
