// SPDX-License-Identifier: GPL-2.0
/*
 * Namespace Management and Attachment (docs/design/nvme.md): the table of
 * NSIDs, each namespace one first-fit range of whole 4 KiB backend pages;
 * every refusal changes nothing.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/nvme.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "backend_flash/flash.h"
#include "core/compat.h"
#include "frontend_nvme/nvme.h"

/* FLBAS: the LBA format index, bits 3:0 and, above them, bits 6:5. */
static u32 flbas_index(u8 flbas)
{
	return (flbas & 0xf) | (flbas >> 5 & 3) << 4;
}

/* NMIC bit 0: a namespace that may be attached to several controllers. */
#define NMIC_SHARED		BIT(0)

/**
 * vfn_nstab_init() - a table with no namespace
 * @t: the table
 * @cap_pages: the device's capacity in backend pages
 * @lba_shift: the logical block size of every namespace, log2
 * @nruh: reclaim unit handles of the FDP configuration, or 0 without FDP
 * @zgeo: the zones of a zoned namespace; NULL or a zero zone size for a
 *	controller without the Zoned Namespace Command Set
 */
void vfn_nstab_init(struct vfn_nstab *t, u64 cap_pages, u8 lba_shift,
		    u16 nruh, const struct vfn_zone_geo *zgeo)
{
	memset(t, 0, sizeof(*t));
	t->cap_pages = cap_pages;
	t->lba_shift = lba_shift;
	t->nruh = min_t(u16, nruh, VFLASH_FLASH_MAX_PLACEMENT);
	if (zgeo)
		t->zgeo = *zgeo;
	vfn_uncor_init(&t->uncor);
}

static void free_nsd(struct vfn_nsd *nd)
{
	vfn_zoned_exit(&nd->zns);
	kfree(nd->zones_changed);
	memset(nd, 0, sizeof(*nd));
}

/**
 * vfn_nstab_exit() - free what the namespaces hold
 * @t: the table
 */
void vfn_nstab_exit(struct vfn_nstab *t)
{
	u32 i;

	for (i = 0; i < VFN_MAX_NS; i++)
		free_nsd(&t->nsd[i]);
	vfn_uncor_exit(&t->uncor);
}

/**
 * vfn_ns_pages() - the backend pages a namespace of @nsze blocks holds
 * @t: the table
 * @nsze: blocks, at most the device's
 *
 * Return: @nsze blocks in 4 KiB pages, rounded up.
 */
u64 vfn_ns_pages(const struct vfn_nstab *t, u64 nsze)
{
	u32 shift = VFLASH_LPAGE_SHIFT - t->lba_shift;

	return (nsze + (1ULL << shift) - 1) >> shift;
}

/**
 * vfn_nstab_free_pages() - unallocated capacity (UNVMCAP)
 * @t: the table
 *
 * Return: the device's pages no namespace holds.
 */
u64 vfn_nstab_free_pages(const struct vfn_nstab *t)
{
	u64 used = 0;
	u32 i;

	for (i = 0; i < VFN_MAX_NS; i++)
		if (t->nsd[i].allocated)
			used += t->nsd[i].pages;
	return t->cap_pages - used;
}

/* First-fit. Return: false if the device has no run of @pages free pages. */
static bool find_room(const struct vfn_nstab *t, u64 pages, u64 *base)
{
	u64 start = 0;
	bool moved;
	u32 i;

	do {
		moved = false;
		for (i = 0; i < VFN_MAX_NS; i++) {
			const struct vfn_nsd *nd = &t->nsd[i];

			if (!nd->allocated || nd->ns.base >= start + pages ||
			    start >= nd->ns.base + nd->pages)
				continue;
			start = nd->ns.base + nd->pages;
			moved = true;
		}
	} while (moved && start + pages <= t->cap_pages);
	if (start + pages > t->cap_pages)
		return false;
	*base = start;
	return true;
}

/**
 * vfn_ns_make_zones() - the zones of a new zoned namespace, every one Empty
 * @t: the table (its zone geometry)
 * @nd: the namespace, its size set
 *
 * Return: 0, -EINVAL for a size of no whole zones, or -ENOMEM.
 */
int vfn_ns_make_zones(struct vfn_nstab *t, struct vfn_nsd *nd)
{
	const struct vfn_zone_geo *g = &t->zgeo;
	int ret;

	ret = vfn_zoned_init(&nd->zns, nd->ns.nsze, g->zsze, g->zcap,
			     g->max_active, g->max_open);
	if (ret)
		return ret;
	ret = vfn_zoned_init_ext(&nd->zns, g->ext_bytes, g->frl_s, g->rrl_s);
	if (!ret)
		ret = vfn_zoned_set_zrwa(&nd->zns, g->zrwas, g->zrwafg,
					 g->nr_zrwa);
	if (ret) {
		vfn_zoned_exit(&nd->zns);
		return ret;
	}
	nd->zones_changed = kcalloc(VFN_ZONES_CHANGED_MAX,
				    sizeof(*nd->zones_changed), GFP_KERNEL);
	if (!nd->zones_changed) {
		vfn_zoned_exit(&nd->zns);
		return -ENOMEM;
	}
	return 0;
}

/**
 * vfn_ns_create() - Namespace Management, create
 * @t: the table
 * @s: what the host asks for
 * @nsid: receives the new namespace's NSID: the lowest unallocated one
 *
 * The namespace is allocated, not attached. Refusals: I/O Command Set Not
 * Supported, Invalid Format (LBA format 0 only, no protection
 * information), Invalid Field (shared, no size, NCAP above NSZE, a zoned
 * size not of whole zones), Invalid Placement Handle List, Thin
 * Provisioning Not Supported, Namespace Identifier Unavailable, Namespace
 * Insufficient Capacity (the pages must be free and in one run).
 *
 * Return: 0, the refusal (nothing changed), or Internal Error without
 * memory for a zoned namespace's zones.
 */
u16 vfn_ns_create(struct vfn_nstab *t, const struct vfn_ns_spec *s,
		  u32 *nsid)
{
	bool zoned = s->csi == NVME_CSI_ZNS;
	u64 base, pages, max_blocks;
	struct vfn_ns ph = { };
	struct vfn_nsd *nd = NULL;
	u16 sc;
	u32 i;

	if (s->csi != NVME_CSI_NVM && !(zoned && vfn_nstab_zoned(t)))
		return VFN_SC(VFN_SC_IOCS_NOT_SUPPORTED);
	if (flbas_index(s->flbas) || s->dps)
		return VFN_SC(NVME_SC_INVALID_FORMAT);
	if (s->nmic & NMIC_SHARED)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (t->nruh && !zoned) {
		sc = vfn_fdp_placement_handles(t, s, &ph);
		if (sc)
			return sc;
	}
	if (!s->nsze || s->ncap > s->nsze ||
	    (zoned && s->nsze & (t->zgeo.zsze - 1)))
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (s->ncap < s->nsze)
		return VFN_SC(NVME_SC_THIN_PROV_NOT_SUPP);
	for (i = 0; i < VFN_MAX_NS && !nd; i++)
		if (!t->nsd[i].allocated)
			nd = &t->nsd[i];
	if (!nd)
		return VFN_SC(NVME_SC_NS_ID_UNAVAILABLE);
	max_blocks = t->cap_pages << (VFLASH_LPAGE_SHIFT - t->lba_shift);
	if (s->nsze > max_blocks)
		return VFN_SC(NVME_SC_NS_INSUFFICIENT_CAP);
	pages = vfn_ns_pages(t, s->nsze);
	if (!find_room(t, pages, &base))
		return VFN_SC(NVME_SC_NS_INSUFFICIENT_CAP);
	nd->ns = (struct vfn_ns) {
		.nsze = s->nsze, .base = base, .id = nd - t->nsd + 1,
		.lba_shift = t->lba_shift, .zoned = zoned,
		.nr_ph = ph.nr_ph, .ruh_ctrl = ph.ruh_ctrl,
	};
	memcpy(nd->ns.ruh, ph.ruh, sizeof(ph.ruh));
	if (zoned && vfn_ns_make_zones(t, nd)) {
		memset(nd, 0, sizeof(*nd));
		return VFN_SC(NVME_SC_INTERNAL);
	}
	nd->pages = pages;
	nd->serial = t->serial++;
	nd->allocated = true;
	*nsid = nd->ns.id;
	return 0;
}

/**
 * vfn_ns_check_delete() - may Namespace Management delete @nsid?
 * @t: the table
 * @nsid: the command's NSID
 *
 * Return: 0 for an allocated NSID or FFFFFFFFh (every namespace, none
 * being fine), Invalid Namespace or Format for an invalid NSID, Invalid
 * Field for an unallocated one (NVMe Base Specification, 3.2.1.5).
 */
u16 vfn_ns_check_delete(const struct vfn_nstab *t, u32 nsid)
{
	if (nsid == NVME_NSID_ALL)
		return 0;
	if (!vfn_nsid_valid(nsid))
		return VFN_SC(NVME_SC_INVALID_NS);
	return t->nsd[nsid - 1].allocated ? 0 : VFN_SC(NVME_SC_INVALID_FIELD);
}

/**
 * vfn_ns_delete() - Namespace Management, delete one namespace
 * @t: the table
 * @nsid: an allocated NSID (vfn_ns_check_delete())
 *
 * The namespace is detached first (its NSID goes on the Changed Namespace
 * List). The caller has deallocated its pages, so they read as zeros.
 */
void vfn_ns_delete(struct vfn_nstab *t, u32 nsid)
{
	struct vfn_nsd *nd = vfn_ns_find(t, nsid, false);

	if (!nd)
		return;
	if (nd->attached)
		__set_bit(nsid, t->changed);
	free_nsd(nd);
}

/**
 * vfn_ns_attach() - Namespace Attachment, attach or detach
 * @t: the table
 * @nsid: the namespace
 * @attach: attach (SEL 0h), or detach (SEL 1h)
 * @list: the Controller List from the host (4096 bytes)
 * @zoned_enabled: the host enabled every I/O command set (CC.CSS 110b)
 *
 * The list must name this controller once. A zoned namespace is attached
 * only while the Zoned command set is enabled.
 *
 *
 * Return: 0; Invalid Namespace or Format for an invalid NSID (0, above
 * NN, FFFFFFFFh); Invalid Field for an unallocated one; Controller List
 * Invalid; Namespace Already Attached, Namespace Not Attached; I/O
 * Command Set Not Enabled. A refusal changes nothing.
 */
u16 vfn_ns_attach(struct vfn_nstab *t, u32 nsid, bool attach,
		  const u8 *list, bool zoned_enabled)
{
	struct vfn_nsd *nd;

	if (!vfn_nsid_valid(nsid))
		return VFN_SC(NVME_SC_INVALID_NS);
	nd = vfn_ns_find(t, nsid, false);
	if (!nd)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	if (get_unaligned_le16(list) != 1 ||
	    get_unaligned_le16(list + 2) != VFN_CNTLID)
		return VFN_SC(NVME_SC_CTRL_LIST_INVALID);
	if (attach && nd->attached)
		return VFN_SC(NVME_SC_NS_ALREADY_ATTACHED);
	if (!attach && !nd->attached)
		return VFN_SC(NVME_SC_NS_NOT_ATTACHED);
	if (attach && nd->ns.zoned && !zoned_enabled)
		return VFN_SC(VFN_SC_IOCS_NOT_ENABLED);
	nd->attached = attach;
	__set_bit(nsid, t->changed);
	return 0;
}

/**
 * vfn_ns_list() - a Namespace List (Identify CNS 02h, 07h, 10h, 1Ah)
 * @t: the table
 * @after: the list holds NSIDs above this one
 * @active: attached namespaces only (02h, 07h), else allocated ones
 * @csi: only namespaces of this command set, or -1 for every one
 * @list: 1024 entries, zeroed by the caller; filled in increasing order
 *
 * Return: the NSIDs listed.
 */
u32 vfn_ns_list(const struct vfn_nstab *t, u32 after, bool active, int csi,
		__le32 *list)
{
	u32 i, n = 0;

	for (i = 0; i < VFN_MAX_NS; i++) {
		const struct vfn_nsd *nd = &t->nsd[i];
		int ns_csi = nd->ns.zoned ? NVME_CSI_ZNS : NVME_CSI_NVM;

		if (i + 1 <= after || !nd->allocated ||
		    (active && !nd->attached) || (csi >= 0 && csi != ns_csi))
			continue;
		list[n++] = cpu_to_le32(i + 1);
	}
	return n;
}

/**
 * vfn_ns_ctrl_list() - a Controller List (Identify CNS 12h, 13h)
 * @t: the table
 * @nsid: the controllers this namespace is attached to (12h), or 0 for
 *	every controller of the subsystem (13h)
 * @from: the list holds controller ids from this one on (CDW10 CNTID)
 * @buf: 4096 bytes, zeroed by the caller: a count, then the ids
 *
 * Return: the controllers listed (0 or 1: this one).
 */
u32 vfn_ns_ctrl_list(const struct vfn_nstab *t, u32 nsid, u16 from,
		     u8 *buf)
{
	bool in = from <= VFN_CNTLID;

	if (nsid)
		in = in && vfn_nsid_valid(nsid) && t->nsd[nsid - 1].attached;
	if (!in)
		return 0;
	put_unaligned_le16(1, buf);
	put_unaligned_le16(VFN_CNTLID, buf + 2);
	return 1;
}

/**
 * vfn_ns_changed_log() - the Changed Namespace List (log 04h)
 * @t: the table
 * @log: 1024 entries, zeroed by the caller: the NSIDs, increasing
 * @clear: the host read it without Retain Asynchronous Event: start over
 *
 * Return: the NSIDs listed.
 */
u32 vfn_ns_changed_log(struct vfn_nstab *t, __le32 *log, bool clear)
{
	u32 nsid, n = 0;

	for_each_set_bit(nsid, t->changed, VFN_MAX_NS + 1)
		log[n++] = cpu_to_le32(nsid);
	if (clear)
		bitmap_zero(t->changed, VFN_MAX_NS + 1);
	return n;
}

/* Dispatcher only, as the table. */

/* Namespace Management and Attachment: CDW10 bits 3:0, the operation. */
#define NS_SEL(cdw10)		((cdw10) & 0xf)
#define NS_SEL_CREATE		0	/* Attachment: attach */
#define NS_SEL_DELETE		1	/* Attachment: detach */

/**
 * vfn_ns_check_cmd() - decode Namespace Management or Attachment
 * @cmd: the command
 *
 * A delete takes an allocated NSID or FFFFFFFFh, an attach or detach a
 * valid NSID; a create's NSID is reserved.
 *
 * Return: 0, Invalid Field for another operation, Invalid Namespace or
 * Format for an NSID the operation cannot take.
 */
u16 vfn_ns_check_cmd(const struct nvme_command *cmd)
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

/**
 * vfn_ns_discard() - a deleted namespace's data goes
 * @c: the controller
 * @nd: the namespace about to be deleted
 * @now: when, on the backend's clock
 *
 * Every page is deallocated as a Deallocate would, so no data crosses
 * from one namespace to a later one there. Dispatcher only.
 *
 * Return: false if the host took DMA back meanwhile (CC.EN or Bus Master
 * cleared): the delete is abandoned, the pages zeroed so far stay so.
 */
bool vfn_ns_discard(struct vfn_ctrl *c, const struct vfn_nsd *nd, u64 now)
{
	struct vfn_io_req r = {
		.pos_bytes = nd->ns.base << VFLASH_LPAGE_SHIFT,
		.len_bytes = nd->pages << VFLASH_LPAGE_SHIFT,
		.lpn = nd->ns.base, .nr_lpages = nd->pages,
		.full_lpn = nd->ns.base, .nr_full = nd->pages,
	};
	u64 due = now;

	/* Its zones give their handles back before the zones go. */
	if (nd->ns.zoned)
		vfn_zns_put_handles(c, nd, now);
	return !nd->pages || c->ops->discard(c, &r, now, &due, false, false);
}

/*
 * Report a Namespace Attribute Changed event if enabled and none is
 * outstanding; Linux then reads the list and rescans.
 */
static void ns_changed(struct vfn_ctrl *c)
{
	if (c->ns_aen_masked || !(c->feat.async_event & NVME_AEN_CFG_NS_ATTR))
		return;
	c->ns_aen_masked = true;
	vfn_aen(c, NVME_AER_NOTICE | NVME_AER_NOTICE_NS_CHANGED << 8 |
		   NVME_LOG_CHANGED_NS << 16);
}

/*
 * Namespace Management, delete. The controller that processes it reports
 * no event (the host knows), but the Changed Namespace List lists an
 * attached namespace.
 */
static u16 ns_delete(struct vfn_ctrl *c, u32 nsid, u64 now)
{
	u32 i, first = nsid, last = nsid;
	u16 sc = vfn_ns_check_delete(&c->nst, nsid);

	if (sc)
		return sc;
	if (nsid == NVME_NSID_ALL) {
		first = 1;
		last = VFN_MAX_NS;
	}
	for (i = first; i <= last; i++) {
		struct vfn_nsd *nd = vfn_ns_find(&c->nst, i, false);

		if (!nd)
			continue;
		if (!vfn_ns_discard(c, nd, now))
			return VFN_SC_ABANDONED;
		vfn_ns_delete(&c->nst, i);
	}
	return 0;
}

/**
 * vfn_ns_mgmt() - execute Namespace Management (opcode 0Dh)
 * @c: the controller
 * @cmd: the command, checked by vfn_ns_check_cmd()
 * @result: completion dword 0: a create's new NSID
 * @now: when it was fetched, on the backend's clock
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_ns_mgmt(struct vfn_ctrl *c, const struct nvme_command *cmd,
		u32 *result, u64 now)
{
	struct nvme_id_ns *id = c->ident;
	struct vfn_ns_spec spec;
	u16 sc, endgid;

	if (NS_SEL(vfn_cdw(cmd, 10)) == NS_SEL_DELETE)
		return ns_delete(c, le32_to_cpu(cmd->common.nsid), now);
	sc = vfn_map_data(c, cmd, 4096);
	if (sc)
		return sc;
	vfn_buf_copy(&c->buf, c->ident, false);
	/* With FDP, the one endurance group (0: the controller's choice). */
	endgid = le16_to_cpu(id->endgid);
	if (c->fdp.nruh && endgid && endgid != VFN_FDP_ENDGID)
		return VFN_SC(NVME_SC_INVALID_FIELD);
	spec = (struct vfn_ns_spec) {
		.nsze = le64_to_cpu(id->nsze), .ncap = le64_to_cpu(id->ncap),
		.flbas = id->flbas, .dps = id->dps, .nmic = id->nmic,
		.csi = vfn_cdw(cmd, 11) >> 24,
		.nphndls = get_unaligned_le16((u8 *)id + VFN_NS_NPHNDLS_OFS),
		.phndl = (const __le16 *)((u8 *)id + VFN_NS_PHNDL_OFS),
	};
	sc = vfn_ns_create(&c->nst, &spec, result);
	if (sc || spec.csi != NVME_CSI_ZNS || c->zreport)
		return sc;
	c->zreport = kvmalloc(VFN_MAX_XFER_BYTES, GFP_KERNEL);
	if (c->zreport)
		return 0;
	vfn_ns_delete(&c->nst, *result);
	*result = 0;
	return VFN_SC(NVME_SC_INTERNAL);
}

/**
 * vfn_ns_attachment() - execute Namespace Attachment (opcode 15h)
 * @c: the controller
 * @cmd: the command, checked by vfn_ns_check_cmd()
 *
 * An attach or detach that changed the active namespaces is reported.
 *
 * Return: 0 or the NVMe status to complete the command with.
 */
u16 vfn_ns_attachment(struct vfn_ctrl *c, const struct nvme_command *cmd)
{
	u16 sc = vfn_map_data(c, cmd, 4096);

	if (sc)
		return sc;
	vfn_buf_copy(&c->buf, c->ident, false);
	sc = vfn_ns_attach(&c->nst, le32_to_cpu(cmd->common.nsid),
			   NS_SEL(vfn_cdw(cmd, 10)) != NS_SEL_DELETE,
			   c->ident, c->iocs);
	if (!sc)
		ns_changed(c);
	return sc;
}
