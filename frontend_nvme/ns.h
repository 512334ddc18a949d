/* SPDX-License-Identifier: GPL-2.0 */
/* Namespace Management: a controller's namespace table (ns.c). */
#ifndef VFN_NS_H
#define VFN_NS_H

#include <linux/bitmap.h>
#include <linux/types.h>

#include "frontend_nvme/proto.h"
#include "frontend_nvme/uncor.h"
#include "frontend_nvme/zns.h"

#define VFN_ZONES_CHANGED_MAX	511		/* Changed Zone List entries */
#define VFN_CTRL_LIST_MAX	2047		/* identifiers in a Controller List */

/**
 * struct vfn_zone_geo - the zones of every zoned namespace
 * @zsze: zone size in logical blocks, a power of two; 0: the controller
 *	has no Zoned Namespace Command Set (FDP)
 * @zcap: writable blocks of each zone, 1 to @zsze
 * @max_active: most zones open or closed at once per namespace, 0: none
 * @max_open: most zones open at once per namespace, 0: none
 * @ext_bytes: zone descriptor extension size (ZDES x 64), 0: none
 * @frl_s: Finish Recommended Limit in seconds, 0: none
 * @rrl_s: Reset Recommended Limit in seconds, 0: none
 * @zrwas: ZRWA window in blocks, 0: no ZRWA (zone_zrwa=0)
 * @zrwafg: ZRWA flush granularity in blocks
 * @nr_zrwa: ZRWA resources per namespace
 */
struct vfn_zone_geo {
	u64 zsze;
	u64 zcap;
	u32 max_active;
	u32 max_open;
	u32 ext_bytes;
	u32 frl_s;
	u32 rrl_s;
	u32 zrwas;
	u32 zrwafg;
	u32 nr_zrwa;
};

/**
 * struct vfn_nsd - one namespace of the table
 * @ns: its format and place, for the command path (@ns.id is its NSID)
 * @pages: backend pages it holds, from @ns.base on (no page is shared)
 * @serial: which creation made it (0: the load), for a NGUID of its own
 * @allocated: it exists (the NSID is allocated)
 * @attached: it is attached to the controller (the NSID is active)
 * @zns: its zones, when it is zoned (@ns.zoned)
 * @zcounted: the @zns transitions already added to the device's stats/
 * @zones_changed: zoned: first blocks of the zones the controller changed
 *	since the Changed Zone List was last read
 * @nr_zones_changed: how many; above VFN_ZONES_CHANGED_MAX it is FFFFh
 */
struct vfn_nsd {
	struct vfn_ns ns;
	u64 pages;
	u32 serial;
	bool allocated;
	bool attached;
	struct vfn_zoned zns;
	u64 zcounted[VFN_ZC_NR];
	u64 *zones_changed;
	u32 nr_zones_changed;
};

/**
 * struct vfn_nstab - a controller's namespaces
 * @cap_pages: the device's capacity in backend pages (TNVMCAP)
 * @lba_shift: log2 of the logical block size of every namespace
 * @nruh: reclaim unit handles of the FDP configuration, or 0 without FDP
 * @zgeo: the zones a zoned namespace gets
 * @serial: namespaces created since the load
 * @nsd: NSID n at [n - 1]
 * @changed: NSIDs whose namespace was attached, detached or deleted
 *	since the Changed Namespace List (log 04h) was last read
 * @uncor: the blocks Write Uncorrectable marked, on the device
 *
 * Owned by the NVMe dispatcher, which executes every command: no lock.
 */
struct vfn_nstab {
	u64 cap_pages;
	u8 lba_shift;
	u16 nruh;
	struct vfn_zone_geo zgeo;
	u32 serial;
	struct vfn_nsd nsd[VFN_MAX_NS];
	DECLARE_BITMAP(changed, VFN_MAX_NS + 1);
	struct vfn_uncor uncor;
};

/**
 * struct vfn_ns_spec - what a create asks for (Namespace Management)
 * @nsze: size in logical blocks (NSZE)
 * @ncap: capacity in logical blocks (NCAP)
 * @flbas: formatted LBA size (FLBAS): the LBA format index
 * @dps: end-to-end data protection settings (DPS)
 * @nmic: multi-path I/O and sharing (NMIC)
 * @csi: the command set (CDW11 CSI): NVM 00h or Zoned 02h
 * @nphndls: FDP: the entries of @phndl (NPHNDLS); 0: the controller chooses
 * @phndl: FDP: the Placement Handle List as the host sent it, or NULL
 */
struct vfn_ns_spec {
	u64 nsze;
	u64 ncap;
	u8 flbas;
	u8 dps;
	u8 nmic;
	u8 csi;
	u16 nphndls;
	const __le16 *phndl;
};

/* NPHNDLS: the most entries a Placement Handle List has (NVM 1.1). */
#define VFN_MAX_PHNDLS		128
/* Where the create data structure has NPHNDLS and the list (bytes). */
#define VFN_NS_NPHNDLS_OFS	392
#define VFN_NS_PHNDL_OFS	512

void vfn_nstab_init(struct vfn_nstab *t, u64 cap_pages, u8 lba_shift,
		    u16 nruh, const struct vfn_zone_geo *zgeo);
void vfn_nstab_exit(struct vfn_nstab *t);

/* Return: true if the controller has the Zoned Namespace Command Set. */
static inline bool vfn_nstab_zoned(const struct vfn_nstab *t)
{
	return t->zgeo.zsze;
}

u64 vfn_ns_pages(const struct vfn_nstab *t, u64 nsze);
int vfn_ns_make_zones(struct vfn_nstab *t, struct vfn_nsd *nd);
u64 vfn_nstab_free_pages(const struct vfn_nstab *t);

/**
 * vfn_ns_find() - the namespace of an NSID
 * @t: the table
 * @nsid: any NSID
 * @active: only if it is attached to the controller
 *
 * Return: the namespace, or NULL if @nsid is invalid, unallocated or
 * (with @active) inactive.
 */
static inline struct vfn_nsd *vfn_ns_find(struct vfn_nstab *t, u32 nsid,
					  bool active)
{
	struct vfn_nsd *nd;

	if (!vfn_nsid_valid(nsid))
		return NULL;
	nd = &t->nsd[nsid - 1];
	if (!nd->allocated || (active && !nd->attached))
		return NULL;
	return nd;
}

u16 vfn_ns_create(struct vfn_nstab *t, const struct vfn_ns_spec *s,
		  u32 *nsid);
u16 vfn_ns_check_delete(const struct vfn_nstab *t, u32 nsid);
void vfn_ns_delete(struct vfn_nstab *t, u32 nsid);
u16 vfn_ns_attach(struct vfn_nstab *t, u32 nsid, bool attach,
		  const u8 *list, bool zoned_enabled);
u32 vfn_ns_list(const struct vfn_nstab *t, u32 after, bool active, int csi,
		__le32 *list);
u32 vfn_ns_ctrl_list(const struct vfn_nstab *t, u32 nsid, u16 from,
		     u8 *buf);
u32 vfn_ns_changed_log(struct vfn_nstab *t, __le32 *log, bool clear);

#endif /* VFN_NS_H */
